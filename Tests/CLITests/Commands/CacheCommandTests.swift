import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway load --prefetch --cache-dir` and `headway cache stats|clear`, against nginx.
@Suite("headway cache", .serialized)
struct CacheCommandTests {
    static func withSite(images: Int = 0, _ options: NginxServer.Options = .init(),
                         _ body: (NginxServer, URL) throws -> Void) throws {
        let root = try DiskCacheSite.make(images: images)
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxServer(root: root, options: options)
        defer { nginx.stop() }
        try body(nginx, directory)
    }

    static func load(_ nginx: NginxServer, _ directory: URL) throws -> CLI.Output {
        try CLI.run(["load", "--prefetch", "--prefetch-settle", "0", "--cache-dir", directory.path,
                     nginx.url.appendingPathComponent("index.html").absoluteString])
    }

    static func stats(_ directory: URL) throws -> [String: Int] {
        let output = try CLI.run(["cache", "stats", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        return try CLI.json(output).compactMapValues { $0 as? Int }
    }

    @Test func statsAndClearAfterARun() throws {
        try Self.withSite { nginx, directory in
            let first = try Self.load(nginx, directory)
            #expect(first.status == 0, "\(first.stderr)")
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count)
            let stats = try Self.stats(directory)
            #expect(Set(stats.keys) == ["entries", "bytes", "fresh", "stale", "corrupt", "temporary"])
            #expect((stats["entries"] ?? 0) >= DiskCacheSite.pagePaths.count)
            #expect(stats["fresh"] == stats["entries"] && stats["stale"] == 0 && stats["corrupt"] == 0)
            #expect((stats["bytes"] ?? 0) > 50_000, "the photo is in it")

            let second = try Self.load(nginx, directory)
            #expect(second.status == 0, "\(second.stderr)")
            let load = try #require(try CLI.loads(second, jsonl: false).first)
            let prefetch = try #require(load["prefetch"] as? [String: Any])
            // WebKit may ask twice for an image it cannot decode (the photo): at least one answer each.
            #expect((prefetch["fromCache"] as? Int ?? 0) >= DiskCacheSite.pagePaths.count)
            let after = try nginx.requestsBeforeMarker()
            #expect(DiskCacheSite.count(after, paths: DiskCacheSite.pagePaths, from: logged.count) == 0)

            // The second run may have added the article, whose prefetch the first one cut short.
            let now = try Self.stats(directory)
            let text = try CLI.run(["cache", "stats", directory.path, "--format", "text"])
            #expect(text.status == 0 && text.stdout.hasPrefix("\(now["entries"]!) entries, "), "\(text.stdout)")

            let foreign = directory.appendingPathComponent("notes.txt")
            try Data("mine".utf8).write(to: foreign)
            let clear = try CLI.run(["cache", "clear", directory.path])
            #expect(clear.status == 0, "\(clear.stderr)")
            #expect(try CLI.json(clear)["entries"] as? Int == now["entries"])
            #expect(DiskCacheSite.entries(in: directory).isEmpty)
            #expect(FileManager.default.fileExists(atPath: foreign.path), "only Headway's files went")
            #expect(try Self.stats(directory)["entries"] == 0)
        }
    }

    @Test func badDirectoriesAreRefusedInOneLine() throws {
        let missing = DiskCacheSite.newCacheDirectory()
        let output = try CLI.run(["cache", "stats", missing.path])
        #expect(output.status == 66)
        #expect(output.stderr == "headway: error: no such directory: \(missing.path)\n")

        let file = DiskCacheSite.newCacheDirectory()
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let notADirectory = try CLI.run(["cache", "clear", file.path])
        #expect(notADirectory.status == 66)
        #expect(notADirectory.stderr == "headway: error: \(file.path) is a file, not a directory\n")

        let other = DiskCacheSite.newCacheDirectory()
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: other) }
        let kept = other.appendingPathComponent("ab")
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: kept.appendingPathComponent("photo.hwc"))
        for command in ["stats", "clear"] {
            let refused = try CLI.run(["cache", command, other.path])
            #expect(refused.status == 64, "\(command)")
            #expect(
                refused.stderr.hasPrefix("headway: error: \(other.path) is not a Headway cache"),
                "\(refused.stderr)"
            )
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        #expect(
            FileManager.default.fileExists(atPath: kept.appendingPathComponent("photo.hwc").path),
            "clear touched nothing"
        )

        let load = try CLI.run(["load", "--prefetch", "--cache-dir", other.path, "http://127.0.0.1:1/"])
        #expect(load.status == 64)
        #expect(
            load.stderr.contains("is not a Headway cache") && load.stderr.split(separator: "\n").count == 1,
            "\(load.stderr)"
        )

        let noPrefetch = try CLI.run(["load", "--cache-dir", missing.path, "http://127.0.0.1:1/"])
        #expect(noPrefetch.status == 64)
        #expect(noPrefetch.stderr == "headway: error: --cache-dir needs --prefetch\n")
        #expect(!FileManager.default.fileExists(atPath: missing.path), "nothing was created")

        let repeated = try CLI.run([
            "load", "--prefetch", "--repeat", "2", "--cache-dir", missing.path, "http://127.0.0.1:1/",
        ])
        #expect(repeated.status == 64)
        #expect(repeated.stderr == "headway: error: --cache-dir cannot be combined with --repeat\n")

        let usage = try CLI.run(["cache", "stats"])
        #expect(usage.status == 64)
    }

    @Test func twoProcessesShareADirectoryAndOneIsKilled() throws {
        // Twenty 50 kB images at 400 kB/s each: the runs overlap, and the kill comes while they write.
        try Self.withSite(images: 20, .init(limitRate: "400k")) { nginx, directory in
            let arguments = ["load", "--prefetch", "--prefetch-settle", "0", "--cache-dir", directory.path,
                             nginx.url.appendingPathComponent("index.html").absoluteString]
            let victim = try CLI.start(arguments)
            // On a GCD thread: the test's own thread waits for it below.
            let survivor = ResultBox<CLI.Output>()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                survivor.result = Result { try CLI.run(arguments) }
                done.signal()
            }
            // Kill the first once the cache has entries (written by either process).
            _ = try? waitForBlocking("3 cache entries while the first run lives", within: .seconds(60),
                                     every: .milliseconds(50), { DiskCacheSite.entries(in: directory).count },
                                     until: { $0 >= 3 || !victim.isRunning })
            kill(victim.processIdentifier, SIGKILL)
            victim.waitUntilExit()
            #expect(victim.terminationReason == .uncaughtSignal)
            done.wait()
            let output = try survivor.result!.get()
            #expect(output.status == 0, "\(output.stderr)")

            let stats = try Self.stats(directory)
            #expect(stats["corrupt"] == 0)
            #expect((stats["entries"] ?? 0) >= DiskCacheSite.pagePaths.count + 20)

            let before = nginx.waitForRequests(count: 0).count
            let again = try Self.load(nginx, directory)
            #expect(again.status == 0, "\(again.stderr)")
            let load = try #require(try CLI.loads(again, jsonl: false).first)
            #expect(
                ((load["prefetch"] as? [String: Any])?["fromCache"] as? Int ?? 0) >= DiskCacheSite.pagePaths.count + 20
            )
            let after = try nginx.requestsBeforeMarker()
            #expect(DiskCacheSite.count(after, paths: DiskCacheSite.pagePaths, from: before) == 0)
        }
    }
}

/// A result handed over from another thread (read after a semaphore).
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
