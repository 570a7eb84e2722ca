import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Clicks, moves and the wheel reach the page as a user's: trusted, with their buttons,
/// click counts, held modifiers and deltas.
@Suite("Input: mouse", .serialized)
@EngineActor
struct InputMouseTests {
    @Test func clicksAreTrustedWithTheirButtonAndCount() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(x: 50, y: 50, button: .left, clickCount: 1)
            try await page.click(x: 60, y: 50, button: .right, clickCount: 1)
            try await page.click(x: 70, y: 50, button: .left, clickCount: 2)
            let seen = try await InputRecorder.seen(page, ["mousedown", "mouseup", "click", "dblclick", "contextmenu"])
            let summary = seen.map { "\($0["type"]!.stringValue!) \($0["button"]!) \($0["detail"]!)" }
            #expect(summary == ["mousedown 0 1", "mouseup 0 1", "click 0 1",
                                "mousedown 2 1", "contextmenu 2 0",   // WebKitGTK: no mouseup
                                "mousedown 0 1", "mouseup 0 1", "click 0 1",
                                "mousedown 0 2", "mouseup 0 2", "click 0 2", "dblclick 0 2"], "\(seen)")
            #expect(seen.allSatisfy { $0["trusted"] == true && $0["target"] == "box" })
            #expect(seen.first?["x"] == 50 && seen.first?["y"] == 50)
        }
    }

    @Test func aClickRightAfterAnotherIsNoDoubleClick() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(x: 50, y: 50, button: .left, clickCount: 1)
            try await page.click(x: 50, y: 50, button: .left, clickCount: 1)
            let seen = try await InputRecorder.seen(page, ["click", "dblclick"])
            #expect(seen.map { $0["detail"] } == [1, 1], "\(seen)")
        }
    }

    @Test func heldModifiersAndButtonsShowInLaterEvents() async throws {
        try await InputRecorder.withPage { page in
            try await page.keyDown("Shift")
            #expect(page.pressedModifiers == .shift)
            try await page.click(x: 50, y: 50, button: .left, clickCount: 1)
            try await page.keyUp("Shift")
            #expect(page.pressedModifiers.isEmpty)
            try await page.mouseMove(x: 40, y: 40)
            try await page.mouseDown()
            #expect(page.pressedButtons == [.left])
            try await page.mouseMove(x: 120, y: 90)
            try await page.mouseUp()
            #expect(page.pressedButtons.isEmpty)
            #expect(page.pointerPosition == (120, 90))
            let clicks = try await InputRecorder.seen(page, ["click"])
            #expect(clicks.map { $0["shift"] } == [true, false], "\(clicks)")
            let moves = try await InputRecorder.seen(page, ["mousemove"])
            #expect(moves.last?["buttons"] == 1 && moves.last?["x"] == 120 && moves.last?["y"] == 90, "\(moves)")
            #expect(moves.allSatisfy { $0["trusted"] == true })
        }
    }

    @Test func theWheelScrollsByItsDeltas() async throws {
        try await InputRecorder.withPage { page in
            try await page.wheel(x: 60, y: 60, deltaX: 0, deltaY: 120)
            let wheel = try #require(try await InputRecorder.seen(page, ["wheel"]).last)
            #expect(wheel["trusted"] == true && wheel["mode"] == 0 && wheel["dx"] == 0)
            let delta = try #require(wheel["dy"]?.doubleValue)
            #expect(abs(delta - 120) < 1, "\(wheel)")
            // The page scrolls by as much (as a user's wheel, it may animate there).
            let scrolled = try await page.callAsyncFunction("""
                for (let i = 0; i < 200 && scrollY < 119; i++) await new Promise((r) => setTimeout(r, 10));
                return scrollY
                """)
            #expect(scrolled.doubleValue.map { abs($0 - 120) < 2 } == true, "\(scrolled)")
        }
    }

    @Test func aScriptsOwnEventIsUntrustedButOursAreNot() async throws {
        try await InputRecorder.withPage { page in
            _ = try await page.evaluate("document.getElementById('box').click()")
            try await page.click(x: 50, y: 50, button: .middle, clickCount: 1)
            let clicks = try await InputRecorder.seen(page, ["click", "auxclick"])
            #expect(clicks.map { $0["trusted"] } == [false, true], "\(clicks)")
            #expect(clicks.last?["type"] == "auxclick" && clicks.last?["button"] == 1)
        }
    }
}
