import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver actions", .serialized)
@EngineActor
struct ActionTests {
    typealias F = InteractionFixtures

    let server: HTTPServer
    let driver = WebDriverDriver()

    init() throws {
        server = try HTTPServer()
        server.route("/actions.html", .html(F.recorder + """
            <style>body { margin: 0 }</style>
            <style>.box { position: absolute; top: 10px; width: 50px; height: 50px; background: blue }</style>
            <div id=from class=box style="left: 10px"></div>
            <div id=to class=box style="left: 200px"></div>
            <input id=q style="position: absolute; left: 10px; top: 100px">
            <button id=far style="position: absolute; left: 10px; top: 3000px">far</button>
            <div style="height: 5000px"></div>
            """))
    }

    func open() async throws -> String {
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent("actions.html").absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        return id
    }

    func perform(_ id: String, _ sequences: [JSONValue]) async throws {
        _ = try await driver.send(.performActions, id, ["actions": .array(sequences)])
    }

    static func mouse(_ actions: [JSONValue]) -> JSONValue {
        ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": .array(actions)]
    }

    static func names(_ events: [String]) -> [String] { events.map { String($0.prefix { $0 != " " }) } }

    @Test func aDragIsDownMovesWithTheButtonHeldThenUp() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let from = try await F.element(driver, id, "#from"), to = try await F.element(driver, id, "#to")
        try await perform(id, [Self.mouse([
            ["type": "pointerMove", "origin": from, "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0],
            ["type": "pointerMove", "origin": to, "x": 0, "y": 0, "duration": 100],
            ["type": "pointerUp", "button": 0],
        ])])
        let events = try await F.events(driver, id, matching: ["mousedown", "mousemove", "mouseup"])
        #expect(events.allSatisfy { $0.contains(" true ") })
        let down = try #require(events.firstIndex { $0.hasPrefix("mousedown") })
        let up = try #require(events.firstIndex { $0.hasPrefix("mouseup") })
        #expect(events[down].contains(" 35,35 "))
        #expect(events[up].contains(" 225,35 "))
        let dragged = events[(down + 1)..<up]
        #expect(dragged.count >= 2)
        #expect(dragged.allSatisfy { $0.hasPrefix("mousemove") && $0.hasSuffix(" b1") })
    }

    @Test func twoClicksMakeADoubleClick() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let from = try await F.element(driver, id, "#from")
        try await perform(id, [Self.mouse([
            ["type": "pointerMove", "origin": from, "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0],
            ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0],
        ])])
        let events = try await F.events(driver, id, matching: ["mousedown", "click", "dblclick"])
        #expect(Self.names(events) == ["mousedown", "click", "mousedown", "click", "dblclick"])
        #expect(events.allSatisfy { $0.contains(" true ") })
        #expect(events[2].contains(" 0 2 "))
    }

    @Test func aWheelScrollScrollsThePage() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        try await perform(id, [[
            "type": "wheel", "id": "wheel",
            // Clear of the input at (10, 100): WebKit latches a wheel over a text field onto it.
            "actions": [["type": "scroll", "x": 300, "y": 300, "deltaX": 0, "deltaY": 400]],
        ]])
        var scrollY = 0.0
        for _ in 0..<100 where scrollY == 0 {
            scrollY = try await F.script(driver, id, "return scrollY").doubleValue ?? 0
            if scrollY == 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(scrollY > 0)
        #expect(try await F.events(driver, id, matching: ["wheel"]).first?.hasPrefix("wheel true") == true)
    }

    // As in chromedriver and geckodriver (and as Selenium's scroll_to_element promises), a wheel
    // action's origin element out of view is scrolled into view first.
    @Test func aWheelScrollFromAnElementOutOfViewScrollsItIntoViewFirst() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let far = try await F.element(driver, id, "#far")
        try await perform(id, [[
            "type": "wheel", "id": "wheel",
            "actions": [["type": "scroll", "x": 0, "y": 0, "deltaX": 0, "deltaY": 0, "origin": far]],
        ]])
        let inView = "const r = document.getElementById('far').getBoundingClientRect(); "
            + "return r.top >= 0 && r.bottom <= innerHeight"
        #expect(try await F.script(driver, id, inView) == true)
        try await perform(id, [[
            "type": "wheel", "id": "wheel",
            "actions": [["type": "scroll", "x": 0, "y": 0, "deltaX": 0, "deltaY": 100, "origin": far]],
        ]])
        #expect(try await F.events(driver, id, matching: ["wheel"]).last?.hasPrefix("wheel true") == true)
    }

    @Test func releaseActionsReleasesAHeldShift() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        _ = try await F.script(driver, id, "document.getElementById('q').focus()")
        try await perform(id, [[
            "type": "key", "id": "keyboard",
            "actions": [["type": "keyDown", "value": "\u{E008}"], ["type": "keyDown", "value": "a"],
                        ["type": "keyUp", "value": "a"]],
        ]])
        #expect(try await F.script(driver, id, "return document.getElementById('q').value") == "A")
        #expect(try await F.events(driver, id, matching: ["keyup"]).count == 1)
        _ = try await driver.send(.releaseActions, id)
        let ups = try await F.events(driver, id, matching: ["keyup"])
        #expect(ups.count == 2)
        #expect(ups.last?.hasPrefix("keyup true Shift") == true)
        // The state is clear: a second release sends nothing.
        _ = try await driver.send(.releaseActions, id)
        #expect(try await F.events(driver, id, matching: ["keyup"]).count == 2)
    }

    @Test func aTickRunsEverySourcesActionSoShiftHeldByTheKeyboardShiftsTheClick() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let from = try await F.element(driver, id, "#from")
        let keys: JSONValue = ["type": "key", "id": "keyboard", "actions": [
            ["type": "keyDown", "value": "\u{E008}"], ["type": "pause"], ["type": "pause"], ["type": "pause"],
        ]]
        try await perform(id, [keys, Self.mouse([
            ["type": "pointerMove", "origin": from, "x": 0, "y": 0],
            ["type": "pointerDown", "button": 0], ["type": "pointerUp", "button": 0],
            ["type": "pointerDown", "button": 2],
        ])])
        let clicks = try await F.events(driver, id, matching: ["click"])
        #expect(clicks.count == 1 && clicks.first?.contains(" S ") == true)
        // Release Actions lets go of the right button, then Shift: the reverse of their presses.
        _ = try await driver.send(.releaseActions, id)
        let released = try await F.events(driver, id, matching: ["mouseup", "keyup"])
        #expect(Self.names(released) == ["mouseup", "mouseup", "keyup"])
        #expect(released.last?.hasPrefix("keyup true Shift") == true)
        #expect(released[1].contains(" 2 "))
    }

    @Test func badSequencesAreInvalidArgumentsNamingTheFieldAndFarTargetsOutOfBounds() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        await #expect { try await perform(id, [Self.mouse([["type": "pointerDown", "button": 0],
                                                            ["type": "pointerUp", "button": -1]])]) } throws: {
            ($0 as? WebDriverError)?.code == .invalidArgument
                && ($0 as? WebDriverError)?.message.contains("actions[0].actions[1].button") == true
        }
        let twoKeys: JSONValue = ["type": "key", "id": "k", "actions": [["type": "keyDown", "value": "ab"]]]
        await #expect { try await perform(id, [twoKeys]) }
            throws: { ($0 as? WebDriverError)?.message.contains("actions[0].actions[0].value") == true }
        await #expect { try await perform(id, [["type": "key", "id": "mouse", "actions": []]]) }
            throws: { ($0 as? WebDriverError)?.code == .invalidArgument }
        await #expect { try await perform(id, [Self.mouse([["type": "pointerMove", "x": -5, "y": 10]])]) }
            throws: { ($0 as? WebDriverError)?.code == .moveTargetOutOfBounds }
        _ = try await driver.send(.releaseActions, id)
    }
}
