@testable import Headway
import Foundation
import HeadwayTestSupport
import Testing

/// Input delivered to a same-origin frame: the call knows the page has had it from the frame's
/// events, as from the main frame's.
@Suite("Input: frames", .serialized)
@EngineActor
struct InputFrameTests {
    private static let page = """
        <!doctype html><title>frames</title><style>body { margin: 0 }
        iframe { position: absolute; left: 30px; top: 40px; width: 300px; height: 200px; border: 5px solid; }</style>
        <iframe src="inner.html"></iframe>
        """
    private static let inner = """
        <!doctype html><title>inner</title><style>body { margin: 0 } input { margin: 20px }</style>
        <input id="field">
        """

    private func withPage(_ body: @EngineActor (Page) async throws -> Void) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/outer.html", .html(Self.page))
        server.route("/inner.html", .html(Self.inner))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("outer.html"))
            try await body(page)
        }
    }

    @Test func keysTypedIntoAFrameAreCountedAndReadBackExactly() async throws {
        try await withPage { page in
            let field = "frames[0].document.getElementById('field')"
            let box = try await page.evaluate(
                "const r = \(field).getBoundingClientRect(); [35 + r.x + r.width / 2, 45 + r.y + r.height / 2]")
            try await page.click(x: box[0]?.doubleValue ?? 0, y: box[1]?.doubleValue ?? 0, button: .left,
                                 clickCount: 1)
            #expect(try await page.evaluate("frames[0].document.activeElement.id") == "field")
            let before = try await page.inputSeen()
            let text = "The quick brown fox!"
            for character in text { try await page.type(String(character)) }
            #expect(try await page.evaluate("\(field).value") == .string(text))
            // The acknowledgement saw every key in the frame (and the frame's click).
            let after = try await page.inputSeen()
            let keyUps = (after["keyup"]?.intValue ?? 0) - (before["keyup"]?.intValue ?? 0)
            #expect(keyUps >= text.count, "\(after)")
            #expect((after["mouseup"]?.intValue ?? 0) >= 1, "\(after)")
        }
    }

    @Test func aMoveOverTheFrameIsSeenWhereThePointerIs() async throws {
        try await withPage { page in
            try await page.mouseMove(x: 100, y: 120)
            let seen = try await page.inputSeen()
            #expect(seen["x"]?.doubleValue == 100 && seen["y"]?.doubleValue == 120, "\(seen)")
        }
    }
}
