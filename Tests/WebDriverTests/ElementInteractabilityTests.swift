import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Element Click and Element Clear on elements that are hidden, covered, disabled; the option steps.
@Suite("WebDriver element interactability", .serialized)
@EngineActor
struct ElementInteractabilityTests {
    typealias F = InteractionFixtures

    static let html = """
        <!doctype html><title>Interactability</title>
        <style>button, input, select { display: block; margin: 4px }</style>
        <script>
          window.seen = [];
          for (const t of ['mouseover', 'mousemove', 'mousedown', 'focus', 'input', 'change', 'mouseup', 'click',
                           'blur']) {
            document.addEventListener(t, (e) => { if (e.target.id) seen.push(t + ' ' + e.target.id); }, true);
          }
        </script>
        <button id=invisible style="visibility: hidden">invisible</button>
        <button id=transparent style="opacity: 0">transparent</button>
        <button id=untouchable style="pointer-events: none">untouchable</button>
        <div style="position: relative"><button id=covered>covered</button>
          <div id=cover style="position: absolute; inset: 0"></div></div>
        <div style="overflow: hidden; height: 0"><button id=clipped>clipped</button></div>
        <input type=checkbox id=hiddenbox style="display: none">
        <input type=checkbox id=clearbox style="opacity: 0">
        <div id=host></div>
        <select id=hiddensel style="visibility: hidden"><option>a</option><option id=hiddenopt>b</option></select>
        <select id=offsel disabled><option>a</option><option id=offopt>b</option></select>
        <select id=sel><option id=o1>a</option><option id=o2>b</option><option id=o3 disabled>c</option></select>
        <select id=multi multiple><option id=m1 selected>a</option><option id=m2>b</option></select>
        <datalist id=list><option id=listopt value=x></datalist>
        <input id=field value=abc>
        <input id=disabled value=abc disabled>
        <input id=invisiblefield value=abc style="visibility: hidden">
        <input id=coveredfield value=abc><div style="position: relative; top: -30px; height: 30px"></div>
        <input id=required required>
        <input id=range type=range value=5>
        <div id=editable contenteditable>edit <b>me</b></div>
        <script>
          document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML =
            '<button id=inner onclick="window.top.seen.push(\\'inner clicked\\')">inner</button>';
        </script>
        """

    let server: HTTPServer
    let driver = WebDriverDriver()

    init() throws {
        server = try HTTPServer()
        server.route("/page.html", .html(Self.html))
    }

    func open() async throws -> String {
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "page.html")
        return id
    }

    func run(_ command: Command, _ id: String, _ css: String) async throws {
        let element = try await F.element(driver, id, css)
        _ = try await driver.send(command, id, parameters: ["elementId": F.elementID(element)])
    }

    func seen(_ id: String, _ target: String) async throws -> [String] {
        let all = try await F.script(driver, id, "return window.seen.splice(0)")
        guard case .array(let values) = all else { return [] }
        return values.compactMap(\.stringValue).filter { $0.hasSuffix(" " + target) }
            .map { String($0.prefix { $0 != " " }) }
    }

    @Test func whatIsNotDisplayedOrInViewIsNotInteractableAndWhatIsCoveredIsIntercepted() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        for css in ["#invisible", "#untouchable", "#clipped", "#hiddenbox", "#hiddenopt", "#listopt"] {
            await expectError(.elementNotInteractable) { try await run(.elementClick, id, css) }
        }
        await expectError(.elementClickIntercepted) { try await run(.elementClick, id, "#covered") }
        try await run(.elementClick, id, "#transparent")
        try await run(.elementClick, id, "#clearbox")
        #expect(try await F.script(driver, id, "return document.getElementById('clearbox').checked") == true)
        let inner = try await driver.script(id, "return document.getElementById('host').shadowRoot.firstChild")
        _ = try await driver.send(.elementClick, id, parameters: ["elementId": F.elementID(inner)])
        #expect(try await F.script(driver, id, "return seen.includes('inner clicked')") == true)
    }

    @Test func anOptionClickRunsTheSpecsOptionSteps() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        _ = try await seen(id, "sel")
        try await run(.elementClick, id, "#o2")
        #expect(try await seen(id, "sel")
                == ["mouseover", "mousemove", "mousedown", "focus", "input", "change", "mouseup", "click"])
        try await run(.elementClick, id, "#o2")
        #expect(try await seen(id, "sel") == ["mouseover", "mousemove", "mousedown", "input", "mouseup", "click"])
        try await run(.elementClick, id, "#o3")
        #expect(try await F.script(driver, id, "return document.getElementById('sel').value") == "b")
        #expect(try await seen(id, "sel") == ["mouseover", "mousemove", "mousedown", "mouseup", "click"])
        try await run(.elementClick, id, "#offopt")
        #expect(try await F.script(driver, id, "return document.getElementById('offsel').value") == "a")
        try await run(.elementClick, id, "#m2")
        try await run(.elementClick, id, "#m1")
        #expect(try await F.script(driver, id, "return [...document.getElementById('multi').selectedOptions]"
            + ".map(o => o.id)") == ["m2"])
        #expect(try await seen(id, "multi").filter { $0 == "input" || $0 == "change" } == ["input", "change", "input"])
    }

    @Test func clearChecksEditableThenInteractableAndFiresTheUsersEvents() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        await expectError(.invalidElementState) { try await run(.elementClear, id, "#disabled") }
        await expectError(.invalidElementState) { try await run(.elementClear, id, "#sel") }
        await expectError(.elementNotInteractable) { try await run(.elementClear, id, "#invisiblefield") }
        _ = try await seen(id, "field")
        try await run(.elementClear, id, "#field")
        #expect(try await seen(id, "field") == ["focus", "input", "change", "blur"])
        try await run(.elementClear, id, "#field")
        #expect(try await seen(id, "field").isEmpty, "an empty, valid field is left alone")
        try await run(.elementClear, id, "#required")
        #expect(try await seen(id, "required") == ["focus", "blur"], "an empty but invalid field is not changed")
        try await run(.elementClear, id, "#coveredfield")
        try await run(.elementClear, id, "#range")
        try await run(.elementClear, id, "#editable")
        let values = try await F.script(driver, id, "return ['coveredfield', 'range', 'editable']"
            + ".map(i => { const e = document.getElementById(i); return e.value ?? e.innerHTML; })")
        #expect(values == ["", "50", ""])
    }

    @Test func sendKeysToADisabledFieldIsNotInteractable() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let element = try await F.element(driver, id, "#disabled")
        await expectError(.elementNotInteractable) {
            try await driver.send(.elementSendKeys, id, ["text": "x"], parameters: ["elementId": F.elementID(element)])
        }
    }
}
