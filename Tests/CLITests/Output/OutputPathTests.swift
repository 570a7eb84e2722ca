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
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("headway-out-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
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
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                         "--har", link.path])
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
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                         "--har", "/dev/null"])
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
            let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                             option, path])
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
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                         "--har", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("{") && !text.contains("AAAA"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.har"])
    }

    // A page of random pixels, whose PNG is some megabytes (it cannot compress).
    static let noise = """
        <!doctype html><style>body { margin: 0 }</style><canvas id="c" width="1200" height="1200"></canvas>
        <script>const c = document.getElementById("c").getContext("2d"), image = c.createImageData(1200, 1200);
        for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : Math.random() * 256;
        c.putImageData(image, 0, 0);</script>
        """

    @Test func aScreenshotToAFIFOWithNoReaderFailsAtOnce() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let output = try await Task.detached {
            try CLI.run(["load", url, "--screenshot", fifo.path], timeout: 30, environment: ["DISPLAY": nil])
        }.value
        #expect(output.status == 73, "\(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(fifo.path) && lines[0].contains("no process reads it"),
                "\(output.stderr)")
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
    }

    @Test func aScreenshotIsWrittenThroughASymlink() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.png"), link = folder.appendingPathComponent("link.png")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                         "--screenshot", link.path])
        #expect(output.status == 0, "\(output.stderr)")
        let kind = try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(try Data(contentsOf: target).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    // The write fails part-way: once the page has loaded (its snippet waits for /gate), headway
    // gets a 1 MB file-size limit (SIGXFSZ ignored, so write() says EFBIG) and the noise's PNG is
    // larger. The old file is still whole, and no temporary file is left behind.
    @Test func aFailedScreenshotWriteLeavesTheOldFile() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/noise.html", .html(Self.noise))
        server.route("/gate", .html("", status: 404))
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("shot.png"), errors = folder.appendingPathComponent("stderr")
        try Data("old".utf8).write(to: file)
        let snippet = try Fixtures.file("gate.js", """
            while (!(await fetch("/gate")).ok) await new Promise(resolve => setTimeout(resolve, 20));
            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; exec \"$0\" \"$@\" 2>\"$ERRORS\"", try CLI.binary.path, "load",
                             server.url.appendingPathComponent("noise.html").absoluteString,
                             "--script", snippet, "--screenshot", file.path]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["ERRORS"] = errors.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try await waitFor("the snippet to ask for /gate", within: .seconds(60)) {
            server.requestCount(path: "/gate") > 0
        }
        let prlimit = try Process.run(URL(fileURLWithPath: "/usr/bin/prlimit"),
                                      arguments: ["--pid", "\(process.processIdentifier)", "--fsize=1048576:1048576"])
        try await waitForExit(of: prlimit)
        #expect(prlimit.terminationStatus == 0)
        server.route("/gate", .html("open"))
        try await waitForExit(of: process, within: .seconds(60))
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(process.terminationStatus == 73, "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1 && stderr.contains(file.path), "\(stderr)")
        let after = try Data(contentsOf: file)
        #expect(after == Data("old".utf8), "the old file became \(after.count) bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["shot.png", "stderr"])
    }

    @Test func anOverwrittenHARKeepsItsMode() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("private.har")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("old".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        #expect(chmod(file.path, 0o600) == 0)
        let output = try await Self.run(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                         "--har", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o7777 == 0o600,
                "mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"log\""))
    }
}
