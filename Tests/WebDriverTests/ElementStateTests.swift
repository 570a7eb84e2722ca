import Foundation
import Headway
import HeadwayWebDriver
import Testing

@Suite("WebDriver element state", .serialized)
@EngineActor
struct ElementStateTests {
    @Test func attributesAndPropertiesDiffer() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        _ = try await page.send(.executeScript, ["script": """
            document.getElementById('name').value = 'Bob'; document.getElementById('box1').checked = false;
            document.getElementById('box2').checked = true
            """, "args": []])
        #expect(try await page.on(.getElementAttribute, "name", ["name": "value"]) == "Ann")
        #expect(try await page.on(.getElementProperty, "name", ["name": "value"]) == "Bob")
        #expect(try await page.on(.getElementAttribute, "box1", ["name": "checked"]) == "true")
        #expect(try await page.on(.getElementProperty, "box1", ["name": "checked"]) == false)
        #expect(try await page.on(.getElementAttribute, "box2", ["name": "checked"]) == .null)
        #expect(try await page.on(.isElementSelected, "box2") == true)
        #expect(try await page.on(.isElementSelected, "box1") == false)
        #expect(try await page.on(.isElementSelected, "o2") == true)
        #expect(try await page.on(.getElementAttribute, "name", ["name": "nothing"]) == .null)
        #expect(try await page.on(.getElementProperty, "name", ["name": "nothing"]) == .null)
        #expect(try await page.on(.getElementProperty, "name", ["name": "tabIndex"]) == 0)
    }

    @Test func textTagNameCSSRectAndEnabled() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        #expect(try await page.on(.getElementText, "title") == "Hello world")
        #expect(try await page.on(.getElementText, "gone") == "")
        #expect(try await page.on(.getElementText, "p1") == "First Link One")
        #expect(try await page.on(.getElementTagName, "title") == "h1")
        #expect(try await page.on(.getElementCSSValue, "gone", ["propertyName": "display"]) == "none")
        #expect(try await page.on(.getElementRect, "box") == ["x": 30, "y": 1000, "width": 40, "height": 10])
        _ = try await page.send(.executeScript, ["script": "window.scrollTo(0, 500)", "args": []])
        #expect(try await page.on(.getElementRect, "box")["y"] == 1000, "the rect is relative to the document")
        #expect(try await page.on(.isElementEnabled, "name") == true)
        #expect(try await page.on(.isElementEnabled, "infield") == false)
        #expect(try await page.on(.isElementEnabled, "title") == true)
        let active = try await page.send(.getActiveElement)
        #expect(try await page.idOf(active) == "")
        _ = try await page.send(.executeScript, ["script": "document.getElementById('name').focus()", "args": []])
        #expect(try await page.idOf(page.send(.getActiveElement)) == "name")
    }

    @Test func hiddenElementsAreNotDisplayed() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        for id in ["title", "name", "box1", "o1", "in", "l1", "box", "sum"] {
            #expect(try await page.on(.isElementDisplayed, id) == true, "\(id)")
        }
        for id in ["gone", "ghost", "clear", "hid", "out", "detp"] {
            #expect(try await page.on(.isElementDisplayed, id) == false, "\(id)")
        }
    }

    @Test func rolesAndLabels() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        let expected: [(String, String, String)] = [
            ("title", "heading", "Hello world"), ("l1", "link", "Link One"), ("name", "textbox", "Your name"),
            ("box1", "checkbox", ""), ("sel", "combobox", ""), ("btn", "button", "Send it"),
            ("sub", "button", "Submit"), ("pic", "image", "A cat"), ("nav", "navigation", "Site"),
            ("custom", "button", "Labelled twice"), ("main", "main", ""), ("p1", "paragraph", ""),
            ("sum", "generic", "More"),
        ]
        for (id, role, label) in expected {
            #expect(try await page.on(.getComputedRole, id) == .string(role), "\(id)")
            #expect(try await page.on(.getComputedLabel, id) == .string(label), "\(id)")
        }
    }
}
