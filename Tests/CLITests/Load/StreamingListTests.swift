import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--urls -` streams: loading starts with the first line, and a feed that never stops is held
/// back by the pipe instead of being read into memory.
@Suite("headway load --urls - (streaming)", .serialized)
@EngineActor
struct StreamingListTests {
    @Test func theFirstLineIsLoadedBeforeStdinCloses() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("second.html").absoluteString
        let input = Pipe(), out = Pipe()
        let process = try CLI.start(
            ["load", "--urls", "-", "--format", "jsonl"],
            environment: ["DISPLAY": nil],
            stdin: input,
            stdout: out
        )
        defer { if process.isRunning { process.terminate() } }
        try input.fileHandleForWriting.write(contentsOf: Data("\(url)\n".utf8))
        // stdin stays open: the first result must come anyway. If it never does, the watchdog
        // ends headway and the read below sees the end of its output.
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(60))
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let first = await onOwnThread { () -> String in
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")),
                let chunk = try? out.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty
            {
                line.append(chunk)
            }
            return String(decoding: line, as: UTF8.self)
        }
        #expect(process.isRunning, "headway is still waiting for more lines")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Second")
        try input.fileHandleForWriting.write(contentsOf: Data("# a comment\n\(url)\n".utf8))
        try input.fileHandleForWriting.close()
        let rest = await onOwnThread { out.fileHandleForReading.readDataToEndOfFile() }
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: rest, as: UTF8.self).split(separator: "\n").count == 1)
        #expect(server.requestCount(path: "/second.html") == 2)
    }

    /// 300 lines of about 2 KB, written as fast as the pipe takes them: the feeder never gets
    /// more than a small, fixed number of lines ahead of the results, and the process tree's
    /// memory stays flat.
    @Test func aFastFeedIsHeldBackAndMemoryStaysFlat() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let line = server.url.appendingPathComponent("second.html").absoluteString
            + "?pad=" + String(repeating: "x", count: 2_000) + "\n"
        let total = 300
        let input = Pipe(), out = Pipe()
        let process = try CLI.start(
            ["load", "--urls", "-", "--format", "jsonl", "--jobs", "2"],
            environment: ["DISPLAY": nil],
            stdin: input,
            stdout: out
        )
        defer { if process.isRunning { process.terminate() } }
        // A feeder writing into a pipe headway no longer reads must get EPIPE, not die.
        signal(SIGPIPE, SIG_IGN)
        let fed = Counter(), done = Counter()
        let writer = input.fileHandleForWriting
        let feeding = Task { await onOwnThread {
            for _ in 0..<total {
                guard (try? writer.write(contentsOf: Data(line.utf8))) != nil else { break }
                fed.add()
            }
            try? writer.close()
        } }
        let reading = Task { await onOwnThread {
            var count = 0
            while let chunk = try? out.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
                count += chunk.filter { $0 == UInt8(ascii: "\n") }.count
                done.set(count)
            }
            return count
        } }
        var samples: [Int] = []
        var mostAhead = 0
        // Samples how far the feed is ahead, and the tree's memory, until the run ends.
        _ = try? await waitFor("300 streamed loads to finish", within: .seconds(90), every: .milliseconds(50), {
            let results = done.value
            // Read after the results: lines fed may only be ahead by what the pipe (64 KiB, about
            // 32 lines), the reader's 64 KiB chunk and 16-line buffer and the two loads in flight
            // hold, about 85. Reading all of stdin first would put it 299 ahead.
            if results > 0 { mostAhead = max(mostAhead, fed.value - results) }
            let kib = await onOwnThread { treeResidentKiB(process.processIdentifier) }
            if kib > 0 { samples.append(kib) }
            return process.isRunning ? "still running" : "exited"
        }, until: { $0 == "exited" })
        #expect(!process.isRunning, "300 loads finished within the hang limit")
        if process.isRunning { process.terminate() }
        await feeding.value
        let results = await reading.value
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(results == total)
        #expect(server.requestCount(path: "/second.html") == total)
        print("feeder ahead of results by at most \(mostAhead) lines; \(samples.count) memory samples")
        #expect(mostAhead <= 150, "stdin was read ahead of the loads: \(mostAhead) lines")
        try #require(samples.count >= 8, "too few memory samples: \(samples.count)")
        let quarter = samples.count / 4
        let warm = median(Array(samples[quarter..<(2 * quarter)]))
        let last = median(Array(samples.suffix(quarter)))
        print("resident memory of the process tree: second quarter \(warm) KiB, last quarter \(last) KiB")
        #expect(Double(last) <= Double(warm) * 1.25, "memory grew from \(warm) KiB to \(last) KiB")
    }

    private func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
}

/// A count shared between a feeding thread and the test.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    func add() { lock.lock(); count += 1; lock.unlock() }
    func set(_ value: Int) { lock.lock(); count = value; lock.unlock() }
}
