import Foundation

/// One HTTP request made with the `curl` command, which shows the response exactly as the server
/// sent it: no decompression, no cache.
public enum Curl {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: Data

        /// The values of every header with this name (any case), joined by ", "; nil when absent.
        public func header(_ name: String) -> String? {
            let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }

    /// GETs `url` sending exactly these request headers (plus curl's Host, User-Agent and Accept,
    /// unless overridden here).
    public static func get(_ url: URL, headers: [String: String] = [:]) throws -> Response {
        let bodyFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headway-curl-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-sS", "--max-time", "10", "-D", "-", "-o", bodyFile.path]
            + headers.sorted { $0.key < $1.key }.flatMap { ["-H", "\($0.key): \($0.value)"] } + [url.absoluteString]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let head = out.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 127 {
            throw CLIError("curl is not installed; scripts/setup installs it")
        }
        guard process.terminationStatus == 0 else {
            throw CLIError("curl \(url) failed (\(process.terminationStatus)): \(problem)")
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else {
            throw CLIError("curl \(url): no status line in \(lines.first ?? "nothing")")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = (try? Data(contentsOf: bodyFile)) ?? Data()
        return Response(status: status, headers: headers, body: body)
    }
}
