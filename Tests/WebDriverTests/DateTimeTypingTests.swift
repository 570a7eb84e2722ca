import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Keys typed into date and time inputs fill WebKit's editable parts as a user's do: digits fill
// a part, a , - . / ; or : key (or ArrowRight) moves to the next one, and the parts follow the
// page's locale (`navigator.language`). WebKitWebDriver types the same keys; its MiniBrowser
// takes the process locale (C: 24-hour times), where Headway's pages ask for en-US (12-hour
// times with an AM/PM part) unless `headway:options` gives a locale.
@Suite("WebDriver date and time typing", .serialized)
@EngineActor
struct DateTimeTypingTests {
    typealias F = InteractionFixtures

    static let page = "<input id=date type=date><input id=month type=month><input id=time type=time>"
        + "<input id=local type=datetime-local>"

    func typed(_ cases: [(String, String)], locale: String? = nil) async throws -> [JSONValue] {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/dates.html", .html(Self.page))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let options: JSONValue = locale.map { ["locale": .string($0)] } ?? [:]
        let id = try await driver.newSession(["alwaysMatch": ["headway:options": options]])
        var values: [JSONValue] = []
        for (input, text) in cases {
            _ = try await driver.navigate(id, server, "dates.html")
            let element = try await F.element(driver, id, "#" + input)
            _ = try await driver.send(.elementSendKeys, id, ["text": .string(text)],
                                      parameters: ["elementId": F.elementID(element)])
            values.append(try await F.script(driver, id, "return document.getElementById('\(input)').value"))
        }
        return values
    }

    @Test func aUsersTypingInTheLocalesOrderGivesTheValue() async throws {
        let values = try await typed([
            ("date", "01/31/2024"), ("month", "01/2024"), ("time", "02:34:PM"), ("time", "02:34:AM"),
            ("local", "01/31/2024, 02:34:PM"),
            // No key reaches the AM/PM part: no time, as in WebKitWebDriver under an en-US locale.
            ("time", "02:34PM"), ("date", "2024-01-31"),
        ])
        #expect(values == ["2024-01-31", "2024-01", "14:34", "02:34", "2024-01-31T14:34", "", "0031-12-01"])
    }

    @Test func aTwentyFourHourLocaleTakesTheTimeAsTheReferenceDoes() async throws {
        // en-GB: 24-hour times, as WebKitWebDriver's C locale, and day/month/year dates.
        let values = try await typed([("time", "02:34PM"), ("date", "31/01/2024"), ("local", "31/01/2024, 14:34")],
                                     locale: "en-GB")
        #expect(values == ["02:34", "2024-01-31", "2024-01-31T14:34"])
    }
}
