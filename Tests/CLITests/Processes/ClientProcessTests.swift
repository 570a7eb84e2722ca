import Foundation
import HeadwayTestSupport
import Testing

/// A client that runs its own child processes keeps working while a browser starts Headway's
/// Xvfb: the Xvfb holds none of the client's descriptors (issue 20, defect 1). Each check runs
/// the ClientProbe program in a fresh process, since Headway starts one Xvfb per process; so does
/// the check that cancelling a browser's start does not wait for that Xvfb.
@Suite("A client's own child processes", .serialized)
struct ClientProcessTests {
    @Test func headwaysXvfbHoldsNoDescriptorOfTheClient() throws {
        let output = try Self.probe("descriptors")
        #expect(output.status == 0 && output.stdout == "ok\n", "\(output.stdout)\(output.stderr)")
    }

    // Foundation's Process notices a child's exit when the child's end of a socket closes; an
    // Xvfb forked while a Process starts kept that end open, and waitUntilExit never returned.
    @Test func processesStartedWhileABrowserStartsAreWaitedFor() throws {
        for run in 1...50 {
            let output = try Self.probe("children")
            #expect(output.status == 0 && output.stdout == "ok\n", "run \(run): \(output.stdout)\(output.stderr)")
            if output.status != 0 { break }
        }
    }

    // Headway adds DISPLAY, GDK_SCALE and others as its first browser starts. glibc's setenv
    // freed the array a client thread was reading, and the client crashed in Process.run.
    @Test func theEnvironmentAClientReadsIsNotFreedWhenABrowserStarts() throws {
        let output = try Self.probe("environment")
        #expect(output.status == 0 && output.stdout == "ok\n", "\(output.stdout)\(output.stderr)")
    }

    // Cancelling the task that starts a browser without DISPLAY ends it at once: it does not wait
    // for Headway's own Xvfb, which goes on starting for the next browser (issue 20, defect 3).
    @Test func cancellingWhileTheBrowserStartsEndsBeforeItsDisplayIsUp() throws {
        let output = try Self.probe("start-cancel")
        #expect(output.status == 0 && output.stdout == "ok\n", "\(output.stdout)\(output.stderr)")
    }

    // Runs ClientProbe (built next to `headway`) without DISPLAY, so that it starts its own Xvfb.
    static func probe(_ mode: String) throws -> CLI.Output {
        let executable = try CLI.binary.deletingLastPathComponent().appendingPathComponent("ClientProbe")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CLIError("ClientProbe is not built next to headway; run `swift build --build-tests` first")
        }
        return try CLI.run([mode], timeout: 60, environment: ["DISPLAY": nil], executable: executable)
    }
}
