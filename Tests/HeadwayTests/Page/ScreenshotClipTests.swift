import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A clipped screenshot keeps one rectangle of the document, in document coordinates.
@Suite("Clipped screenshots", .serialized)
@EngineActor
struct ScreenshotClipTests {
    // Three boxes, the red one below the first viewport, so that the clip must come from the
    // document and not from what is on screen.
    static let boxes = """
        <!doctype html><title>Boxes</title><style>
        body { margin: 0; background: white; } div { position: absolute; width: 100px; height: 60px; }
        </style>
        <div style="left: 10px; top: 10px; background: rgb(0, 0, 255)"></div>
        <div style="left: 200px; top: 1500px; background: rgb(255, 0, 0)"></div>
        <div style="left: 0; top: 2000px; width: 10px; height: 10px; background: rgb(0, 128, 0)"></div>
        """

    @Test func theClipOfTheRedBoxIsAllRed() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/boxes.html", .html(Self.boxes))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("boxes.html"))
            let red = try await page.screenshot(clip: ScreenshotClip(x: 200, y: 1500, width: 100, height: 60))
            #expect(red.width == 100 && red.height == 60)
            #expect(red.isBlank)
            #expect(try await Self.colors(of: red, on: page) == ["255,0,0"])
            let blue = try await page.screenshot(clip: ScreenshotClip(x: 10, y: 10, width: 100, height: 60))
            #expect(try await Self.colors(of: blue, on: page) == ["0,0,255"])
            // Half on the red box, half on the white page around it.
            let half = try await page.screenshot(clip: ScreenshotClip(x: 250, y: 1500, width: 100, height: 60))
            #expect(half.distinctColors == 2)
        }
    }

    // Every colour of the image, each pixel read by the page's own PNG decoder.
    static func colors(of shot: Screenshot, on page: Page) async throws -> JSONValue {
        try await page.callAsyncFunction("""
            const image = new Image();
            image.src = 'data:image/png;base64,' + png;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.width;
            canvas.height = image.height;
            const context = canvas.getContext('2d');
            context.drawImage(image, 0, 0);
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            const seen = new Set();
            for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
            return [...seen].sort();
            """, arguments: ["png": .string(shot.pngData.base64EncodedString())])
    }

    @Test func badClipsAreRefused() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/boxes.html", .html(Self.boxes))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("boxes.html"))
            for clip in [ScreenshotClip(x: 0, y: 0, width: 0, height: 10),
                         ScreenshotClip(x: 0, y: 0, width: 10, height: -1),
                         ScreenshotClip(x: .nan, y: 0, width: 10, height: 10),
                         ScreenshotClip(x: 0, y: 0, width: 40_000, height: 10),
                         ScreenshotClip(x: 0, y: 90_000, width: 10, height: 10)] {
                let error = await #expect(throws: HeadwayError.self) { try await page.screenshot(clip: clip) }
                #expect(error?.code == .invalidArgument)
            }
        }
    }
}
