import Foundation
import Headway
import HeadwayTestSupport
import Testing

// `acceleratedCompositing = false` draws pages in one software pass: what pages see changes as
// docs/performance.md says (no 3D transforms), and text, 2D canvas, WebGL and screenshots stay.
@Suite("Compositing off", .serialized)
@EngineActor
struct CompositingTests {
    static let probe = """
        const gl = document.createElement('canvas').getContext('webgl');
        const c = document.createElement('canvas'); c.width = c.height = 4;
        const g = c.getContext('2d'); g.fillStyle = '#f00'; g.fillRect(0, 0, 4, 4);
        return [gl !== null, matchMedia('(-webkit-transform-3d)').matches, g.getImageData(1, 1, 1, 1).data[0],
                document.getElementById('p').getBoundingClientRect().width > 0];
        """

    @Test func pagesSeeNo3DTransformsAndStillDrawEverythingElse() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/page.html", .html("<title>C</title><body style='background:#0a0'><p id=p>words</p>"))
        var configuration = Browser.Configuration()
        configuration.acceleratedCompositing = false
        let off = try await Browser.withPage(configuration: configuration) { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let seen = try await page.callAsyncFunction(Self.probe)
            let shot = try await page.screenshot()
            return (seen, shot)
        }
        let on = try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            return try await page.callAsyncFunction(Self.probe)
        }
        print("compositing on: \(on); off: \(off.0)")
        #expect(off.0 == [true, false, 255, true])
        #expect(on == [true, true, 255, true])
        // The screenshot is drawn: the page's green and its text, not a blank image.
        #expect(!off.1.isBlank && off.1.width == 1280)
    }
}
