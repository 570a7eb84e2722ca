import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver screenshots and print", .serialized)
@EngineActor
struct ScreenshotCommandTests {
    // The bytes of a base64 answer.
    func decoded(_ value: JSONValue) throws -> Data {
        try #require(value.stringValue.flatMap { Data(base64Encoded: $0) })
    }

    // A PNG's width and height, from its header.
    func pngSize(_ data: Data) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](data)
        try #require(bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let int = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16), int(20))
    }

    // The PNG Take Element Screenshot gives for the element with `elementID` in the current frame.
    func elementShot(_ driver: WebDriverDriver, _ id: String, _ elementID: String) async throws -> Data {
        let element = try await driver.script(id, "return document.getElementById('\(elementID)')")
        let reference = try #require(element["element-6066-11e4-a52e-4f735466cecf"]?.stringValue)
        return try decoded(try await driver.send(.takeElementScreenshot, id, parameters: ["elementId": reference]))
    }

    @Test func theScreenshotIsTheViewportAndAnElementsIsItsBox() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/long.html", .html("""
            <body style="margin:0"><div style="height:3000px"></div>
            <div id=red style="width:50px;height:30px;background:red"></div>
            <div id=blue style="width:50px;height:30px;background:blue"></div>
            <iframe style="border:3px solid black;padding:5px"
              srcdoc="<div id=g style='width:20px;height:10px;background:green'></div>"></iframe>
            <div style="height:3000px"></div>
            """))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "long.html")
        let rect = try await driver.send(.getWindowRect, id)
        let top = try decoded(try await driver.send(.takeScreenshot, id))
        let shot = try pngSize(top)
        #expect(Double(shot.width) == rect["width"]?.doubleValue && Double(shot.height) == rect["height"]?.doubleValue)
        let redShot = try await elementShot(driver, id, "red")
        let blueShot = try await elementShot(driver, id, "blue")
        #expect(try pngSize(redShot) == (50, 30) && pngSize(blueShot) == (50, 30))
        #expect(redShot != blueShot)
        // Scrolled into view, as the spec says.
        let scrolled = try await driver.send(.executeScript, id, ["script": "return scrollY", "args": []])
        #expect((scrolled.doubleValue ?? 0) > 2000)
        // The viewport screenshot follows the scroll: it now shows red and blue, no longer the white top.
        let lower = try decoded(try await driver.send(.takeScreenshot, id))
        #expect(try pngSize(lower) == shot && lower != top)
        _ = try await driver.send(.switchToFrame, id, ["id": 0])
        let greenShot = try await elementShot(driver, id, "g")
        #expect(try pngSize(greenShot) == (20, 10))
    }

    @Test func aShortOrBlankPageStillGivesTheWholeViewport() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/short.html", .html("<p>short</p>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let rect = try await driver.send(.getWindowRect, id)
        let viewport = (Int(rect["width"]?.doubleValue ?? 0), Int(rect["height"]?.doubleValue ?? 0))
        #expect(try pngSize(try decoded(try await driver.send(.takeScreenshot, id))) == viewport)
        _ = try await driver.navigate(id, server, "short.html")
        #expect(try pngSize(try decoded(try await driver.send(.takeScreenshot, id))) == viewport)
    }

    @Test func printGivesAPDFOfTheRangesAskedAndRefusesBadOptions() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/pages.html", .html("<p>one</p><div style='height:60cm'></div><p>end</p>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "pages.html")
        let pageCount = { (pdf: Data) -> Int in
            let text = String(decoding: pdf, as: UTF8.self)
            return text.matches(of: /\/Type\s*\/Page[^s]/).count
        }
        let all = try decoded(try await driver.send(.printPage, id))
        #expect(all.starts(with: Data("%PDF-".utf8)))
        #expect(pageCount(all) >= 3)
        let first = try decoded(try await driver.send(.printPage, id, [
            "pageRanges": [1], "orientation": "landscape", "scale": 0.5, "background": true,
            "page": ["width": 10, "height": 20], "margin": ["top": 0, "bottom": 0, "left": 0.5, "right": 0.5],
        ]))
        #expect(pageCount(first) == 1)
        // "-" is the whole document; page 0 is no page, beside others; a number may repeat a range.
        #expect(pageCount(try decoded(try await driver.send(.printPage, id, ["pageRanges": ["-"]]))) == pageCount(all))
        let rest = try decoded(try await driver.send(.printPage, id, ["pageRanges": [0, " 2 - ", 3]]))
        #expect(pageCount(rest) == pageCount(all) - 1)
        let bad: [[String: JSONValue]] = [
            ["scale": 3], ["scale": "1"], ["orientation": "up"], ["background": 1], ["page": ["width": 0]],
            ["margin": ["top": -1]], ["pageRanges": ["x"]], ["pageRanges": "1"], ["margin": ["left": 15, "right": 15]],
            ["pageRanges": ["3-2"]], ["pageRanges": ["a-2"]], ["pageRanges": ["1:2"]], ["pageRanges": ["1-2-3"]],
            ["pageRanges": [.null]], ["pageRanges": ["1-2", [:]]], ["pageRanges": [-1]], ["pageRanges": [1.5]],
            ["pageRanges": [""]], ["pageRanges": ["+1"]], ["pageRanges": [0]], ["pageRanges": ["99-"]],
        ]
        for body in bad {
            await #expect { try await driver.send(.printPage, id, body) } throws: { code($0) == .invalidArgument }
        }
    }
}
