import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver element interaction", .serialized)
@EngineActor
struct ElementInteractionTests {
    typealias F = InteractionFixtures

    let server: HTTPServer
    let driver = WebDriverDriver()

    init() throws {
        server = try HTTPServer()
        server.route("/click.html", .html(F.recorder + """
            <div style="height: 3000px">tall</div>
            <button id=far style="width: 100px; height: 40px">far</button>
            <div style="position: relative">
              <button id=covered style="width: 100px; height: 40px">covered</button>
              <div id=cover style="position: absolute; inset: 0; width: 200px; background: red"></div>
            </div>
            <button id=hidden style="display: none">hidden</button>
            <a id=link href="next.html">next</a>
            <select id=sel><option value=a>A</option><option id=optb value=b>B</option></select>
            <input id=after>
            <iframe id=f src="frame.html" style="border: 5px solid; padding: 7px"></iframe>
            """))
        server.route("/frame.html", .html("""
            <button id=b style="margin: 20px">in</button><input id=fi>
            <script>addEventListener('click', e => parent.events.push(`frame ${e.isTrusted} ${e.target.id}`))</script>
            """))
        server.route("/next.html", .html("<title>Next</title><p>next page"))
        server.route("/form.html", .html(F.recorder + """
            <form action="done.html"><input id=q name=q value="x"><textarea id=t readonly>r</textarea>
            <div id=d>plain</div><div id=ed contenteditable>edit me</div></form>
            <input id=file type=file>
            """))
        server.route("/done.html", .html("<title>Done</title>"))
    }

    func open(_ path: String) async throws -> String {
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent(path).absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        return id
    }

    func click(_ id: String, _ element: JSONValue) async throws {
        _ = try await driver.send(.elementClick, id, parameters: ["elementId": F.elementID(element)])
    }

    @Test func aClickScrollsTheElementIntoViewAndIsTrusted() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("click.html")
        try await click(id, try await F.element(driver, id, "#far"))
        #expect(try await F.script(driver, id, "return scrollY").doubleValue ?? 0 > 0)
        let events = try await F.events(driver, id, matching: ["mousedown", "mouseup", "click"])
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0.contains(" true ") })
        #expect(events.map { String($0.prefix { $0 != " " }) } == ["mousedown", "mouseup", "click"])
        let target = try await F.script(driver, id, "return window.events.length && document.elementFromPoint("
            + "...window.events.find(e => e.startsWith('click')).split(' ').at(-2).split(',').map(Number)).id")
        #expect(target == "far")
    }

    @Test func aCoveredElementIsInterceptedAndAHiddenOneNotInteractable() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("click.html")
        await #expect { try await click(id, try await F.element(driver, id, "#covered")) } throws: {
            let error = $0 as? WebDriverError
            return error?.code == .elementClickIntercepted && error?.message.contains("id=\"cover\"") == true
        }
        await #expect { try await click(id, try await F.element(driver, id, "#hidden")) } throws: {
            ($0 as? WebDriverError)?.code == .elementNotInteractable
        }
        #expect(try await F.events(driver, id, matching: ["click"]).isEmpty)
        // Under an implicit wait, a click waits for the element to show.
        _ = try await driver.send(.setTimeouts, id, ["implicit": 10_000])
        _ = try await F.script(driver, id,
                               "setTimeout(() => document.getElementById('hidden').style.display = '', 200)")
        try await click(id, try await F.element(driver, id, "#hidden"))
        #expect(try await F.events(driver, id, matching: ["click"]).count == 1)
    }

    @Test func aLinkClickWaitsForTheNextPage() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("click.html")
        try await click(id, try await F.element(driver, id, "#link"))
        #expect(try await driver.send(.getTitle, id) == "Next")
    }

    @Test func anOptionClickSelectsItAndFiresChange() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("click.html")
        try await click(id, try await F.element(driver, id, "#optb"))
        #expect(try await F.script(driver, id, "return document.getElementById('sel').value") == "b")
        #expect(try await F.events(driver, id, matching: ["change"]).count == 1)
        // No select popup was left open to take the keys (WebKit opens one on a mousedown).
        let after = try await F.element(driver, id, "#after")
        _ = try await driver.send(.elementSendKeys, id, ["text": "Ab"], parameters: ["elementId": F.elementID(after)])
        #expect(try await F.script(driver, id, "return document.getElementById('after').value") == "Ab")
    }

    @Test func aClickInAFrameLandsOnTheElementThroughTheFrameOffsets() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("click.html")
        _ = try await F.script(driver, id, "return new Promise(r => { const f = document.getElementById('f'); "
            + "if (f.contentDocument?.readyState === 'complete') r(); else f.onload = () => r(); })")
        let frame = try await F.element(driver, id, "#f")
        _ = try await driver.send(.switchToFrame, id, ["id": frame])
        let button = try await F.element(driver, id, "#b")
        try await click(id, button)
        _ = try await driver.send(.switchToParentFrame, id)
        let events = try await F.events(driver, id, matching: ["frame", "click", "mousedown"])
        #expect(events == ["frame true b"])
        // A cover over the frame element, in the parent document, intercepts the click.
        _ = try await F.script(driver, id, "const f = document.getElementById('f'), r = f.getBoundingClientRect(); "
            + "document.body.insertAdjacentHTML('beforeend', `<div id=lid style='position: absolute; left: "
            + "${r.left + scrollX}px; top: ${r.top + scrollY}px; width: ${r.width}px; height: ${r.height}px'></div>`)")
        _ = try await driver.send(.switchToFrame, id, ["id": frame])
        await #expect { try await click(id, button) } throws: {
            let error = $0 as? WebDriverError
            return error?.code == .elementClickIntercepted && error?.message.contains("id=\"lid\"") == true
        }
        // Keys reach a field in the frame.
        let field = try await F.element(driver, id, "#fi")
        _ = try await driver.send(.elementSendKeys, id, ["text": "Hi"], parameters: ["elementId": F.elementID(field)])
        #expect(try await F.script(driver, id, "return document.getElementById('fi').value") == "Hi")
    }

    @Test func sendKeysTypesTrustedKeysWithShiftAndEnterSubmits() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("form.html")
        let input = try await F.element(driver, id, "#q")
        _ = try await driver.send(.elementSendKeys, id, ["text": "aB\u{E008}c\u{E000}d"],
                                  parameters: ["elementId": F.elementID(input)])
        #expect(try await F.script(driver, id, "return document.getElementById('q').value") == "xaBCd")
        let keys = try await F.events(driver, id, matching: ["keydown"])
        #expect(keys.allSatisfy { $0.hasPrefix("keydown true") })
        #expect(keys.map { $0.split(separator: " ", omittingEmptySubsequences: false)[2] }
                == ["a", "Shift", "B", "Shift", "C", "d"])
        #expect(keys[4].contains(" S"))
        #expect(!keys[5].contains(" S"))
        _ = try await driver.send(.elementSendKeys, id, ["text": "\u{E007}"],
                                  parameters: ["elementId": F.elementID(input)])
        #expect(try await driver.send(.getTitle, id) == "Done")
        #expect(try await driver.send(.getCurrentURL, id).stringValue?.hasSuffix("done.html?q=xaBCd") == true)
    }

    // A modifier key given again releases it, as in WebKitWebDriver, chromedriver and geckodriver.
    @Test func sendKeysAModifierGivenAgainReleasesIt() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("form.html")
        let input = try await F.element(driver, id, "#q")
        _ = try await driver.send(.elementSendKeys, id, ["text": "\u{E008}ab\u{E008}c\u{E009}\u{E009}d"],
                                  parameters: ["elementId": F.elementID(input)])
        #expect(try await F.script(driver, id, "return document.getElementById('q').value") == "xABcd")
        let keys = try await F.events(driver, id, matching: ["keydown", "keyup"])
        #expect(keys.map { $0.split(separator: " ", omittingEmptySubsequences: false).prefix(3).joined(separator: " ") }
                == ["keydown true Shift", "keydown true A", "keyup true A", "keydown true B", "keyup true B",
                    "keyup true Shift", "keydown true c", "keyup true c", "keydown true Control",
                    "keyup true Control", "keydown true d", "keyup true d"])
    }

    @Test func clearEmptiesAFieldAndRefusesWhatIsNotEditable() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("form.html")
        let input = try await F.element(driver, id, "#q")
        _ = try await driver.send(.elementClear, id, parameters: ["elementId": F.elementID(input)])
        #expect(try await F.script(driver, id, "return document.getElementById('q').value") == "")
        #expect(try await F.events(driver, id, matching: ["input", "change"]).count == 2)
        let editable = try await F.element(driver, id, "#ed")
        _ = try await driver.send(.elementClear, id, parameters: ["elementId": F.elementID(editable)])
        #expect(try await F.script(driver, id, "return document.getElementById('ed').innerHTML") == "")
        for css in ["#t", "#d"] {
            let element = try await F.element(driver, id, css)
            await #expect { try await driver.send(.elementClear, id, parameters: ["elementId": F.elementID(element)]) }
                throws: { ($0 as? WebDriverError)?.code == .invalidElementState }
        }
    }

    @Test func sendKeysToAFileInputSetsItsFilesFromLocalPaths() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open("form.html")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-upload-\(UUID()).txt")
        try Data("hello file".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let input = try await F.element(driver, id, "#file")
        _ = try await driver.send(.elementSendKeys, id, ["text": .string(path.path)],
                                  parameters: ["elementId": F.elementID(input)])
        let text = try await F.script(driver, id, "return document.getElementById('file').files[0].text()")
        #expect(text == "hello file")
        #expect(try await F.events(driver, id, matching: ["change"]).count == 1)
        await #expect { try await driver.send(.elementSendKeys, id, ["text": "/nonexistent/a.txt"],
                                              parameters: ["elementId": F.elementID(input)]) }
            throws: { ($0 as? WebDriverError)?.code == .invalidArgument }
    }
}
