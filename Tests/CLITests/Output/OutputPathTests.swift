import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--har` and `--screenshot` paths: checked before any page loads; a device, FIFO or symlink
/// is written through (as `curl -o` does), never replaced by a regular file.
@Suite("headway load output paths", .serialized)
@EngineActor
struct OutputPathTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("headway-out-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // Runs headway off the engine thread, which the server answers on.
    static func run(_ arguments: [String]) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, timeout: 60, environment: ["DISPLAY": nil]) }.value
    }

    @Test func aSymlinkIsWrittenThroughAndStaysALink() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.har"), link = folder.appendingPathComponent("link.har")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString, "--har", link.path])
        #expect(output.status == 0, "\(output.stderr)")
        let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(try String(contentsOf: target, encoding: .utf8).contains("\"log\""))
    }

    @Test func aFIFOIsWrittenThroughAndStaysAFIFO() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.har")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let reader = Task.detached { () -> String in
            let fd = open(fifo.path, O_RDONLY)
            defer { close(fd) }
            return String(decoding: FileHandle(fileDescriptor: fd).readDataToEndOfFile(), as: UTF8.self)
        }
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let output = try await Self.run(["load", url, "--har", fifo.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(await reader.value.contains("\"log\""))
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func devNullStaysACharacterDevice() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var before = stat(), after = stat()
        #expect(lstat("/dev/null", &before) == 0 && (before.st_mode & S_IFMT) == S_IFCHR)
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString, "--har", "/dev/null"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(lstat("/dev/null", &after) == 0 && (after.st_mode & S_IFMT) == S_IFCHR)
        #expect(before.st_ino == after.st_ino && before.st_rdev == after.st_rdev)
    }

    static let unwritable: [(String, String)] = [
        ("/proc/nonexistent/x.har", "--har"),
        ("/etc/hostname/x.har", "--har"),
        ("/no/such/dir/x.har", "--har"),
        ("/tmp", "--har"),
        ("/proc/nonexistent/x.png", "--screenshot"),
        ("/etc/hostname/x.png", "--screenshot"),
    ]

    @Test func anUnwritablePathFailsBeforeAnyPageLoads() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        for (path, option) in Self.unwritable {
            let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString, option, path])
            #expect(output.status == 73, "\(path): \(output.stderr)")
            let lines = output.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(path), "\(path): \(output.stderr)")
            #expect(server.requestCount(path: "/page.html") == 0, "\(path) was checked only after loading")
        }
    }

    @Test func aRegularFileIsReplacedWhole() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.har")
        try Data(repeating: 0x41, count: 1 << 20).write(to: file)
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString, "--har", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("{") && !text.contains("AAAA"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.har"])
    }
}
