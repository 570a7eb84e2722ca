import Foundation
import Headway
import HeadwayWebDriver
import Testing

@Suite("WebDriver element finding", .serialized)
@EngineActor
struct ElementFindingTests {
    @Test func everyStrategyFindsFromTheDocument() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        #expect(try await page.idOf(page.find("css selector", "main > h1")) == "title")
        #expect(try await page.idOf(page.find("link text", "Link One")) == "l1")
        #expect(try await page.idOf(page.find("partial link text", "other li")) == "l2")
        #expect(try await page.idOf(page.find("tag name", "select")) == "sel")
        #expect(try await page.idOf(page.find("xpath", "//p[@id='p2']/a")) == "l2")
        #expect(try await page.findAll("css selector", ".para").count == 2)
        #expect(try await page.findAll("tag name", "H1").count == 1, "HTML tag names match in any case")
        #expect(try await page.findAll("xpath", "//nothing").isEmpty)
        await expectError(.noSuchElement) { try await page.find("css selector", "#nothing") }
    }

    @Test func findingFromAnElementAndFromAShadowRoot() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        let p2 = try await page.byID("p2")
        let inP2 = { (using: String, value: String) in
            try await page.findAll(using, value, from: .findElementsFromElement, ["elementId": p2])
        }
        #expect(try await inP2("css selector", "a").count == 1)
        #expect(try await inP2("tag name", "a").count == 1)
        #expect(try await inP2("link text", "Link One").isEmpty)
        #expect(try await inP2("partial link text", "link").count == 1)
        #expect(try await inP2("xpath", "./a").count == 1)
        #expect(try await inP2("xpath", "//a").count == 2, "an absolute path searches the whole document")

        let host = try await page.byID("host")
        let shadow = try await page.send(.getElementShadowRoot, [:], ["elementId": host])
        let shadowID = try #require(shadow[ElementPage.shadowKey]?.stringValue)
        let inShadow = { (using: String, value: String) in
            try await page.findAll(using, value, from: .findElementsFromShadowRoot, ["shadowId": shadowID])
        }
        #expect(try await inShadow("css selector", "p.para").count == 1)
        #expect(try await inShadow("tag name", "a").count == 1)
        #expect(try await inShadow("link text", "Shadow link").count == 1)
        #expect(try await inShadow("partial link text", "Shadow").count == 1)
        await expectError(.invalidSelector) { try await inShadow("xpath", ".//a") }
        #expect(try await page.findAll("css selector", "#sp").isEmpty, "the document does not see into shadows")
        let one = try await page.send(.findElementFromShadowRoot, ["using": "css selector", "value": "#sp"],
                                      ["shadowId": shadowID])
        #expect(try await page.idOf(one) == "sp")
        await expectError(.noSuchShadowRoot) {
            try await page.send(.getElementShadowRoot, [:], ["elementId": try await page.byID("closed")])
        }
    }

    @Test func badSelectorsAndArguments() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        await expectError(.invalidSelector) { try await page.find("css selector", "p[") }
        await expectError(.invalidSelector) { try await page.find("xpath", "//p[") }
        await expectError(.invalidSelector) { try await page.find("xpath", "//p/text()") }
        await expectError(.invalidArgument) { try await page.find("id", "p1") }
        await expectError(.invalidArgument) { try await page.send(.findElement, ["using": "css selector"]) }
        await expectError(.invalidArgument) {
            try await page.send(.findElement, ["using": "css selector", "value": 3])
        }
        await expectError(.noSuchElement) {
            try await page.send(.findElementsFromElement, ["using": "css selector", "value": "a"],
                                ["elementId": "nope"])
        }
    }

    @Test func theImplicitWaitFindsAnElementAddedLater() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        await expectError(.noSuchElement) { try await page.find("css selector", "#late") }
        _ = try await page.send(.setTimeouts, ["implicit": 10_000])
        _ = try await page.send(.executeScript, ["script": """
            setTimeout(() => { const d = document.createElement('div'); d.id = 'late'; document.body.append(d); }, 300)
            """, "args": []])
        #expect(try await page.idOf(page.find("css selector", "#late")) == "late")
    }

    @Test func referencesGoStaleAfterRemovalAndNavigation() async throws {
        let page = try await ElementPage()
        defer { page.stop() }
        let title = try await page.find("css selector", "#title")
        let p1 = try await page.find("css selector", "#p1")
        _ = try await page.send(.executeScript, ["script": "arguments[0].remove()", "args": [p1]])
        let p1ID = try #require(p1[ElementPage.elementKey]?.stringValue)
        await expectError(.staleElementReference) {
            try await page.send(.getElementTagName, [:], ["elementId": p1ID])
        }
        let titleID = try #require(title[ElementPage.elementKey]?.stringValue)
        #expect(try await page.send(.getElementTagName, [:], ["elementId": titleID]) == "h1")
        try await page.load("other.html")
        await expectError(.staleElementReference) {
            try await page.send(.getElementTagName, [:], ["elementId": titleID])
        }
    }
}
