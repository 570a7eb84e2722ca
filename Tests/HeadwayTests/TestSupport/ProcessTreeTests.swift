import Foundation
import HeadwayTestSupport
import Testing

/// The sampled process tree the process tests read names from.
@Suite("process tree sampling")
struct ProcessTreeTests {
    /// A child sampled before it execs its program, as WebKit's web process can be right after
    /// headway forks it, is known by its program's name once it has exec'd (the cause of
    /// InterruptCommandTests' "no web process spins" flake).
    @Test func aProcessSeenBeforeItsExecIsKnownByItsProgram() async throws {
        // The subshell is a fork of sh with sh's name until it execs sleep.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "(sleep 1; exec sleep 30) & wait"]
        try process.run()
        defer {
            for pid in descendants(of: process.processIdentifier).keys { kill(pid, SIGKILL) }
            kill(process.processIdentifier, SIGKILL)
        }
        let parent = process.processIdentifier
        var seen: [Int32: String] = [:]
        let subshell = try await waitFor("the forked subshell of sh (pid \(parent))", within: .seconds(10), {
            let fresh = descendants(of: parent)
            merge(fresh, into: &seen)
            return fresh.first { $0.value == "sh" }?.key
        }, until: { $0 != nil })
        let pid = try #require(subshell)
        try await waitFor("pid \(pid) to exec sleep", within: .seconds(10), {
            let fresh = descendants(of: parent)
            merge(fresh, into: &seen)
            return fresh[pid]
        }, until: { $0 == "sleep" })
        #expect(seen[pid] == "sleep", "sampled tree \(seen)")
    }
}
