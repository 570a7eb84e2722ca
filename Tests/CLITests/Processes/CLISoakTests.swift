import Foundation
import Headway
import HeadwayTestSupport
import Testing

// What a long `headway load` keeps, counted by loads (memory is counted, not timed): over 500
// loads in one process, the tree's PSS floor in the last 100 stays within 15% of its floor at 50-150.
@Suite("Soak: headway load", .serialized)
@EngineActor
struct CLISoakTests {
    @Test func fiveHundredLoadsInOneProcessKeepNoDocument() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/soak.html", .html(soakPage))
        let total = 500
        let list = try Fixtures.file("soak-urls.txt",
                                     (1...total).map { "\(server.url)soak.html?i=\($0)" }.joined(separator: "\n"))
        let script = try Fixtures.file("soak-title.js", "document.title")
        let out = Pipe()
        let process = try CLI.start(["load", "--urls", list, "--script", script, "--format", "jsonl"], stdout: out)
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(600))
            process.terminate()
        }
        defer { watchdog.cancel() }
        let pid = process.processIdentifier
        // Counts result lines as they come, sampling the tree's memory by loads done.
        let (soak, lines) = await onOwnThread {
            var soak = SoakSamples(total: total), lines = 0, buffer = Data()
            while let chunk = try? out.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[buffer.index(after: newline)...])
                    guard String(decoding: line, as: UTF8.self).contains("\"Soak\"") else { continue }
                    lines += 1
                    if soak.isDue(lines) { soak.add(lines, kib: treeProportionalKiB(pid)) }
                }
            }
            return (soak, lines)
        }
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(lines == total, "\(lines) of \(total) loads printed the page's title")
        print(soak)
        #expect(soak.growth.ratio <= 0.15, "\(soak)")
    }
}
