import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `click(selector:)` finds its element in Headway's isolated world, scrolls it into view and
/// clicks its centre as a user would.
@Suite("Input: click a selector", .serialized)
@EngineActor
struct InputSelectorTests {
    @Test func anElementOutOfViewIsScrolledToAndClicked() async throws {
        try await InputRecorder.withPage { page in
            #expect(try await page.evaluate("scrollY") == 0)
            try await page.click(selector: "#far")
            let clicks = try await InputRecorder.seen(page, ["click"])
            #expect(clicks.map { $0["target"] } == ["far"] && clicks.first?["trusted"] == true, "\(clicks)")
            let scrolled = try await page.evaluate("scrollY")
            #expect((scrolled.doubleValue ?? 0) > 1500, "\(scrolled)")
        }
    }

    @Test func aPageReplacingTheDOMsMethodsDoesNotMoveTheClick() async throws {
        try await InputRecorder.withPage { page in
            _ = try await page.evaluate("""
                Document.prototype.querySelector = () => document.getElementById('box');
                document.querySelector = () => document.getElementById('box');
                Element.prototype.getBoundingClientRect = () => ({ left: 0, top: 0, right: 1, bottom: 1,
                  width: 1, height: 1, x: 0, y: 0 });
                Element.prototype.scrollIntoView = () => {}; 0
                """)
            try await page.click(selector: "#far")
            let clicks = try await InputRecorder.seen(page, ["click"])
            #expect(clicks.map { $0["target"] } == ["far"], "\(clicks)")
        }
    }

    @Test func aDisabledButtonTakesTheClickAsAUsersWithoutAnError() async throws {
        try await InputRecorder.withPage { page in
            _ = try await page.evaluate("document.getElementById('far').disabled = true")
            try await page.click(selector: "#far")
            let clicks = try await InputRecorder.seen(page, ["click"])
            #expect(clicks.allSatisfy { $0["target"] != "far" }, "\(clicks)")
            try await page.click(selector: "#box")
            #expect(try await InputRecorder.seen(page, ["click"]).last?["target"] == "box")
        }
    }

    @Test func aBadSelectorNothingMatchingAndNoBoxAreErrors() async throws {
        try await InputRecorder.withPage { page in
            let bad = await #expect(throws: HeadwayError.self) { try await page.click(selector: "#[") }
            #expect(bad?.code == .invalidArgument)
            let none = await #expect(throws: HeadwayError.self) {
                try await page.click(selector: "#nothing", timeout: .milliseconds(200))
            }
            #expect(none?.message.contains("#nothing") == true)
            _ = try await page.evaluate("document.getElementById('box').style.display = 'none'")
            let hidden = await #expect(throws: HeadwayError.self) { try await page.click(selector: "#box") }
            #expect(hidden?.message.contains("#box") == true, "\(String(describing: hidden))")
            #expect(try await InputRecorder.seen(page, ["click"]) == [])
        }
    }
}
