import Headway
import HeadwayTestSupport
import Testing

@Suite("headway --version")
struct VersionTests {
    @Test func printsTheLibrarysVersion() throws {
        let output = try CLI.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout == Headway.version + "\n")
        #expect(output.stderr.isEmpty)
    }

    @Test func theVersionIsTheChangelogsNewestRelease() throws {
        let changelog = try String(contentsOf: CLI.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && !$0.contains("Unreleased") }
        #expect(
            newest?.hasPrefix("## \(Headway.version)") == true,
            "CHANGELOG.md's newest release heading names \(Headway.version)"
        )
    }
}
