import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load, long runs", .serialized)
@EngineActor
struct LongRunTests {
    /// 200 sequential loads in one call all finish, and the process tree's resident memory in
    /// the last quarter of the run stays near the second quarter's (after warm-up).
    @Test func twoHundredLoadsFinishWithFlatMemory() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let urls = (1...200).map { server.url.appendingPathComponent("page.html").absoluteString + "?i=\($0)" }
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["load"] + urls
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = Task.detached { out.fileHandleForReading.readDataToEndOfFile() }
        var samples: [Int] = []
        defer { if process.isRunning { process.terminate() } }
        // Samples the tree's memory until the run ends.
        try await waitFor("200 loads to finish", within: .seconds(600), every: .milliseconds(50), {
            let kib = await Task.detached { treeResidentKiB(process.processIdentifier) }.value
            if kib > 0 { samples.append(kib) }
            return process.isRunning ? "still running" : "exited"
        }, until: { $0 == "exited" })
        let data = await reader.value
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let loads = try #require(json["loads"] as? [[String: Any]])
        #expect(loads.count == 200)
        #expect(loads.allSatisfy { $0["status"] as? Int == 200 })
        #expect(server.requestCount(path: "/page.html") == 200)
        try #require(samples.count >= 8, "too few memory samples: \(samples.count)")
        let quarter = samples.count / 4
        let warm = median(Array(samples[quarter..<(2 * quarter)]))
        let last = median(Array(samples.suffix(quarter)))
        print(
            "resident memory of the process tree: second quarter \(warm) KiB, last quarter \(last) KiB "
                + "over \(samples.count) samples"
        )
        #expect(Double(last) <= Double(warm) * 1.25, "memory grew from \(warm) KiB to \(last) KiB")
    }

    private func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
}
