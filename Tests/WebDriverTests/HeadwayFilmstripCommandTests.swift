import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// "headway:options": {"filmstrip": …}: Navigate To records the frames, /headway/timing has the
// visual metrics and /headway/filmstrip the frames; bad options and a session without them are
// refused with an error a client can act on.
@Suite("WebDriver filmstrip", .serialized)
@EngineActor
struct HeadwayFilmstripCommandTests {
    @Test func navigationsRecordFramesWhenTheSessionAsks() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/f.html", .html("""
            <title>F</title><p>text</p><div id=d></div><script>addEventListener('load', () => setTimeout(() => {
              d.style.cssText = 'width:300px;height:300px;background:#090'; }, 200));</script>
            """))
        let driver = HeadwayCommandTests.driver()
        defer { driver.service.shutdown() }
        let options: JSONValue = ["headway:options": ["filmstrip": ["framesPerSecond": 20]]]
        let id = try await driver.newSession(["alwaysMatch": options])
        #expect(try await driver.send(.headwayFilmstrip, id) == .null)
        let url = server.url.appendingPathComponent("f.html")
        _ = try await driver.send(.navigateTo, id, ["url": .string(url.absoluteString)])
        let timing = try await driver.send(.headwayTiming, id)
        let metrics = try JSONDecoder().decode(VisualMetrics.self, from: JSONEncoder().encode(timing["visualMetrics"]))
        #expect(metrics.recordingEnded == .stable && metrics.lastVisualChange > metrics.firstVisualChange)
        let film = try await driver.send(.headwayFilmstrip, id)
        guard case .array(let frames)? = film["frames"] else { Issue.record("no frames: \(film)"); return }
        #expect(frames.count == metrics.progress.count)
        #expect(frames.map { $0["time"]?.doubleValue.map(Int.init) } == metrics.progress.map(\.time))
        let png = try #require(frames.first?["png"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(png.starts(with: [0x89, 0x50, 0x4e, 0x47]))
        #expect(film["url"]?.stringValue == url.absoluteString)
    }

    @Test func aSessionWithoutItOrWithBadOptionsIsRefused() async throws {
        let driver = HeadwayCommandTests.driver()
        defer { driver.service.shutdown() }
        let plain = try await driver.newSession()
        let path = "/session/\(plain)/headway/filmstrip"
        let answer = await driver.service.handle(method: "GET", path: path, body: Data())
        #expect(answer.status == 500 && answer.body["value"]?["error"] == "unsupported operation")
        for bad: JSONValue in [["framesPerSecond": 0], ["framesPerSecond": 61], ["rate": 10], true] {
            let refused = await driver.service.handle(
                method: "POST", path: "/session",
                body: try JSONEncoder().encode(JSONValue.object(["capabilities": ["alwaysMatch": [
                    "headway:options": ["filmstrip": bad]]]])))
            #expect(refused.status == 400 && refused.body["value"]?["error"] == "invalid argument", "\(bad)")
        }
    }
}
