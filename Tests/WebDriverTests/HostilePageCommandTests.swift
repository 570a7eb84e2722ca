import Foundation
import Headway
import HeadwayWebDriver
import Testing

/// A page that replaces a global before the test runs changes no command's answer: the element
/// commands run in Headway's isolated world, and Execute Script's machinery in the page's world
/// uses the built-ins it had before the page's scripts ran.
@Suite("WebDriver commands on pages that replace globals", .serialized)
@EngineActor
struct HostilePageCommandTests {
    static let body = """
        <!doctype html><title>Hostile</title>
        <style>body { margin: 0 } #hidden { display: none }</style>
        <h1 id=title>Hello <em>world</em></h1>
        <p id=para>Some <a id=link href="#top">Link text</a></p>
        <input id=field value=start> <input type=checkbox id=box checked>
        <select id=sel><option id=o1>One</option><option id=o2 selected>Two</option></select>
        <button id=btn onclick="this.dataset.clicked = 'yes'">Press</button>
        <div id=hidden>hidden</div> <div id=host></div>
        <script>
          document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<b id=deep>deep</b>';
        </script>
        """

    // Each replaces what a command's script might use, as the pages of a hostile-page probe did.
    static let hostile: [String] = [
        "Symbol.for = () => { throw 1; };",
        "Object.defineProperty = () => { throw 2; }; Object.defineProperties = () => { throw 2; };",
        "Object.keys = () => { throw 3; }; Object.entries = () => { throw 3; };",
        "Object.getOwnPropertyDescriptor = () => { throw 4; };",
        "for (const m of ['map', 'filter', 'push', 'includes', 'join', 'forEach', 'indexOf', 'some', 'slice'])"
            + " Array.prototype[m] = function () { throw 5; }; Array.from = () => { throw 5; };",
        "JSON.stringify = () => '\"'; JSON.parse = () => { throw 6; };",
        "window.Promise = function () { throw 7; };",
        "Promise.prototype.then = function () { throw 8; };",
        "Object.defineProperty(Object.prototype, 'then', { get() { return undefined; }, configurable: true });",
        "Element.prototype.getBoundingClientRect = () => { throw 10; };"
            + " Element.prototype.getClientRects = () => { throw 10; };",
        "Element.prototype.scrollIntoView = () => { throw 11; };",
        "document.querySelector = () => { throw 12; }; document.querySelectorAll = () => { throw 12; };"
            + " Element.prototype.querySelectorAll = () => { throw 12; };",
        "window.getComputedStyle = () => { throw 13; };",
        "window.MutationObserver = function () { throw 14; };",
        "Function.prototype.apply = function () { throw 15; }; Function.prototype.call = function () { throw 15; };",
        "window.WeakMap = function () { throw 16; }; window.WeakRef = function () { throw 16; };"
            + " window.Map = function () { throw 16; };",
        "crypto.getRandomValues = () => { throw 17; };",
        "document.elementFromPoint = () => null; document.elementsFromPoint = () => [];",
        "EventTarget.prototype.dispatchEvent = () => { throw 19; };",
        "Node.prototype.contains = () => { throw 20; }; Node.prototype.getRootNode = () => { throw 20; };",
        "String.prototype.trim = function () { throw 21; }; String.prototype.split = function () { throw 21; };",
        "Object.defineProperty(Promise.prototype, 'constructor', { get() { throw 22; } });",
        "Object.defineProperty(NodeList.prototype, 'length', { get() { throw 23; } });",
        "window.self = 0; window.window = 0;",
        "Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', { get() { throw 25; } });",
        // Named elements, which window's named properties expose in every world.
        "document.body.insertAdjacentHTML('beforeend', '<div id=headwayPage></div>"
            + "<div id=__headwayWebDriverReferences></div><form name=headwayPage></form>');",
    ]

    @Test func everyCommandAnswersAsOnAPlainPage() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/plain.html", .html(Self.body))
        for (index, script) in Self.hostile.enumerated() {
            server.route("/hostile\(index).html", .html(Self.body + "<script>\(script)</script>"))
        }
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let session = try await driver.newSession()
        let expected = try await answers(driver, session, server, "plain.html")
        #expect(expected.count >= 30)
        // The baseline itself: on the plain page only the commands meant to fail fail.
        let failing = Set(expected.filter { $0.value.hasPrefix("error") }.keys)
        #expect(failing == ["missing", "hidden click"], "the plain page's answers: \(expected)")
        for (index, script) in Self.hostile.enumerated() {
            let got: [String: String]
            do {
                got = try await answers(driver, session, server, "hostile\(index).html")
            } catch {
                Issue.record("with `\(script)`: \(error)")
                continue
            }
            for (name, value) in expected where got[name] != value {
                Issue.record("with `\(script)`: \(name) gave \(got[name] ?? "nothing"), not \(value)")
            }
        }
    }

    // The answer of each command on the page at `path`, element references as "element".
    private func answers(_ driver: WebDriverDriver, _ session: String, _ server: HTTPServer,
                         _ path: String) async throws -> [String: String] {
        var out: [String: String] = [:]
        func record(_ name: String, _ body: () async throws -> JSONValue) async {
            do {
                out[name] = Self.shape(try await body())
            } catch {
                out[name] = "error \(code(error)?.rawValue ?? "\(error)")"
            }
        }
        func send(_ command: Command, _ body: [String: JSONValue] = [:], _ parameters: [String: String] = [:])
            async throws -> JSONValue {
            try await driver.send(command, session, body, parameters: parameters)
        }
        func find(_ using: String, _ value: String) async throws -> String {
            let found = try await send(.findElement, ["using": .string(using), "value": .string(value)])
            return try #require(found[ElementPage.elementKey]?.stringValue)
        }
        _ = try await driver.navigate(session, server, path)
        await record("css") { try await send(.findElement, ["using": "css selector", "value": "#para a"]) }
        await record("xpath") { try await send(.findElements, ["using": "xpath", "value": "//p"]) }
        await record("link") { try await send(.findElement, ["using": "link text", "value": "Link text"]) }
        await record("partial") { try await send(.findElements, ["using": "partial link text", "value": "Link"]) }
        await record("tag") { try await send(.findElements, ["using": "tag name", "value": "option"]) }
        await record("missing") { try await send(.findElement, ["using": "css selector", "value": "#nothing"]) }
        let para = try await find("css selector", "#para")
        let title = try await find("css selector", "#title")
        let field = try await find("css selector", "#field")
        let button = try await find("css selector", "#btn")
        let hidden = try await find("css selector", "#hidden")
        let option = try await find("css selector", "#o1")
        let host = try await find("css selector", "#host")
        let id = { (element: String) in ["elementId": element] }
        await record("from element") {
            try await send(.findElementFromElement, ["using": "css selector", "value": "a"], id(para))
        }
        await record("text") { try await send(.getElementText, [:], id(title)) }
        await record("hidden text") { try await send(.getElementText, [:], id(hidden)) }
        await record("name") { try await send(.getElementTagName, [:], id(title)) }
        let value = id(field).merging(["name": "value"]) { $1 }
        await record("attribute") { try await send(.getElementAttribute, [:], value) }
        await record("property") { try await send(.getElementProperty, [:], value) }
        await record("css value") {
            try await send(.getElementCSSValue, [:], id(hidden).merging(["propertyName": "display"]) { $1 })
        }
        await record("rect") { try await send(.getElementRect, [:], id(title)) }
        await record("enabled") { try await send(.isElementEnabled, [:], id(field)) }
        await record("selected") { try await send(.isElementSelected, [:], id(option)) }
        await record("displayed") { try await send(.isElementDisplayed, [:], id(title)) }
        await record("not displayed") { try await send(.isElementDisplayed, [:], id(hidden)) }
        await record("role") { try await send(.getComputedRole, [:], id(button)) }
        await record("label") { try await send(.getComputedLabel, [:], id(button)) }
        await record("shadow") {
            let root = try await send(.getElementShadowRoot, [:], id(host))
            let rootID = try #require(root[ElementPage.shadowKey]?.stringValue)
            return try await send(.findElementFromShadowRoot, ["using": "css selector", "value": "#deep"],
                                  ["shadowId": rootID])
        }
        await record("click") {
            _ = try await send(.elementClick, [:], id(button))
            return try await send(.getElementAttribute, [:], id(button).merging(["name": "data-clicked"]) { $1 })
        }
        await record("hidden click") { try await send(.elementClick, [:], id(hidden)) }
        await record("clear") {
            _ = try await send(.elementClear, [:], id(field))
            return try await send(.getElementProperty, [:], id(field).merging(["name": "value"]) { $1 })
        }
        await record("send keys") {
            _ = try await send(.elementSendKeys, ["text": "typed"], id(field))
            return try await send(.getElementProperty, [:], id(field).merging(["name": "value"]) { $1 })
        }
        await record("option click") {
            _ = try await send(.elementClick, [:], id(option))
            return try await send(.isElementSelected, [:], id(option))
        }
        await record("active") { try await send(.getActiveElement) }
        await record("script 2") { try await driver.script(session, "return 2") }
        await record("script object") { try await driver.script(session, "return {a: [1, 'b', null]}") }
        await record("script element") { try await driver.script(session, "return document.getElementById('para')") }
        await record("script argument") {
            try await send(.executeScript, ["script": "return arguments[0].id",
                                            "args": [[ElementPage.elementKey: .string(title)]]])
        }
        await record("async script") {
            try await send(.executeAsyncScript, ["script": "arguments[0](3)", "args": []])
        }
        await record("screenshot") {
            let png = try await send(.takeElementScreenshot, [:], id(title))
            return .bool((png.stringValue?.count ?? 0) > 100)
        }
        await record("title") { try await send(.getTitle) }
        return out
    }

    // A command's answer with element and shadow references made comparable.
    static func shape(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            if members[ElementPage.elementKey] != nil { return "element" }
            if members[ElementPage.shadowKey] != nil { return "shadow" }
            return "{" + members.keys.sorted().map { "\($0): \(shape(members[$0]!))" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(shape).joined(separator: ", ") + "]"
        default: return "\(value)"
        }
    }
}
