import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Text a page controls can hold lone surrogates and terminal control sequences: JSON stays
/// valid and complete, and `--format text` and stderr show none of the sequences.
@Suite("headway load with hostile page text", .serialized)
@EngineActor
struct HostileTextTests {
    static let page = #"""
        <!doctype html><title>x</title><script>
        document.title = '\uDC00red\u001b[31m title\u001b]0;pwned\u0007 \u202Eevil\u009b2J end';
        console.log('\uD83D lone');
        console.log('clear\u001b[2J\u001b[H screen\tand\nnext line\r');
        </script><p>text</p>
        """#

    private func run(_ format: String) async throws -> CLI.Output {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/hostile.html", .html(Self.page))
        let lone = try Fixtures.file("lone.js", #"'\uD800 value \u001b[1mbold\u001b[0m'"#)
        let thrower = try Fixtures.file("throws.js", #"throw new Error('two\nlines \u001b[31mred')"#)
        let url = server.url.appendingPathComponent("hostile.html").absoluteString
        return try await onOwnThread {
            Result {
                try CLI.run(
                    ["load", url, "--script", lone, "--script", thrower, "--format", format],
                    environment: ["DISPLAY": nil]
                )
            }
        }.get()
    }

    @Test func jsonKeepsEveryResultWithReplacementCharacters() async throws {
        let output = try await run("json")
        #expect(output.status == 5, "the throwing snippet decides: \(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let title = try #require(load["title"] as? String)
        #expect(title.hasPrefix("\u{FFFD}red"))
        let timing = try #require(load["timing"] as? [String: Any])
        #expect((timing["loadEventEnd"] as? Double ?? 0) > 0, "timings were read, not zeroed")
        let scripts = try #require(load["scripts"] as? [[String: Any]])
        #expect((scripts.first?["value"] as? String)?.hasPrefix("\u{FFFD} value") == true)
        let console = try #require(load["console"] as? [[String: Any]])
        #expect(console.first?["text"] as? String == "\u{FFFD} lone")
    }

    @Test func textAndStderrCarryNoControlSequences() async throws {
        let output = try await run("text")
        #expect(output.status == 5)
        for (name, text) in [("stdout", output.stdout), ("stderr", output.stderr)] {
            let bad = text.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            }
            #expect(bad.isEmpty, "\(name) holds \(bad.map { String($0.value, radix: 16) }): \(text)")
        }
        #expect(output.stdout.contains("\u{FFFD}red title evil end"))
        #expect(!output.stdout.contains("pwned"), "the OSC string is dropped with its sequence")
        // Snippet values are shown as JSON, whose escapes (\u001b) are plain text.
        #expect(output.stdout.contains("\u{FFFD} value "))
        #expect(output.stdout.contains("clear screen\tand\nnext line"))
        let errors = output.stderr.split(separator: "\n").filter { $0.hasPrefix("headway: error:") }
        #expect(errors.count == 1 && errors.first?.contains("two lines red") == true, "one line: \(output.stderr)")
    }
}
