import Foundation
import Headway
import HeadwayTestSupport
import Testing

// A load's filmstrip on real WebKit: the frames it keeps, their times on the page's own
// Navigation Timing clock, the recording's end, and its bounds; composited and with compositing off.
@Suite("Filmstrip", .serialized)
@EngineActor
struct FilmstripTests {
    // A white page that shows a red block 300 ms after its load event.
    static let latePaint = """
        <title>F</title><body style='margin:0;background:#fff'><p>text</p><div id=d></div>
        <script>addEventListener('load', () => setTimeout(() => {
          d.style.cssText = 'width:600px;height:400px;background:#c00'; }, 300));</script>
        """

    static func configuration(composited: Bool) -> Browser.Configuration {
        var configuration = Browser.Configuration()
        configuration.acceleratedCompositing = composited
        return configuration
    }

    @Test(arguments: [true, false])
    func framesFollowThePageUntilItIsStable(composited: Bool) async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/late.html", .html(Self.latePaint))
        let options = FilmstripOptions(framesPerSecond: 20, stableFor: .milliseconds(500))
        let result = try await Browser.withPage(configuration: Self.configuration(composited: composited)) { page in
            try await page.load(server.url.appendingPathComponent("late.html"), filmstrip: options)
        }
        let strip = try #require(result.filmstrip), metrics = try #require(result.visualMetrics)
        let times = strip.frames.map(\.time), loadEnd = Int(result.timing.loadEventEnd)
        print("compositing \(composited): frames at \(times), load event end \(loadEnd), metrics \(metrics)")
        #expect(times.first == 0 && times == times.sorted() && Set(times).count == times.count)
        #expect(strip.frames.count >= 3)  // the blank view, the text, the red block
        #expect(strip.frames.allSatisfy { $0.pngData.starts(with: [0x89, 0x50, 0x4e, 0x47]) })
        #expect(strip.width == 1280 && strip.height == 1024)
        // The block came 300 ms after the load event, on the same clock.
        #expect(metrics.lastVisualChange >= loadEnd + 250)
        #expect(metrics.firstVisualChange < metrics.lastVisualChange)
        #expect(metrics.progress.last?.percent == 100 && metrics.progress.first?.percent == 0)
        #expect(metrics.recordingEnded == .stable)
        #expect(metrics.speedIndex > 0 && metrics.speedIndex <= metrics.lastVisualChange)
    }

    @EngineActor
    final class FilmstripDelegate: NavigationDelegate {
        var recorded: [LoadResult] = []
        func page(_ page: Page, didRecordFilmstrip result: LoadResult) { recorded.append(result) }
    }

    @Test func theDelegateAndLatestLoadHearOfTheMetrics() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/late.html", .html(Self.latePaint))
        let delegate = FilmstripDelegate()
        let (result, latest) = try await Browser.withPage { page in
            page.delegate = delegate
            let url = server.url.appendingPathComponent("late.html")
            let result = try await page.load(url, filmstrip: FilmstripOptions())
            return (result, page.latestLoad)
        }
        #expect(delegate.recorded.count == 1)
        #expect(delegate.recorded.first?.visualMetrics == result.visualMetrics && result.visualMetrics != nil)
        #expect(delegate.recorded.first?.filmstrip?.frames.count == result.filmstrip?.frames.count)
        // The latest load has the metrics, not the frames.
        #expect(latest?.visualMetrics == result.visualMetrics && latest?.filmstrip == nil)
    }

    @Test func framesAreWrittenAsBrowsertimeNamesThem() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/late.html", .html(Self.latePaint))
        let result = try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("late.html"), filmstrip: FilmstripOptions())
        }
        let top = FileManager.default.temporaryDirectory.appendingPathComponent("headway-filmstrip-\(getpid())")
        let folder = top.appendingPathComponent("a/b")
        defer { try? FileManager.default.removeItem(at: top) }
        let strip = try #require(result.filmstrip)
        try strip.write(to: folder.path)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == strip.frames.map(\.fileName))
        #expect(names.first == "ms_000000.png")
        // A file where the directory should be: a clear error, nothing written.
        let blocked = folder.appendingPathComponent("ms_000000.png/x").path
        #expect(throws: HeadwayError.self) { try strip.write(to: blocked) }
    }

    @Test func aPageThatNeverStopsChangingEndsAtTheBound() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/spin.html", .html("""
            <body style='margin:0'><div id=d style='width:400px;height:400px'></div><script>
            let n = 0; (function f() { d.style.background = `rgb(${n++ % 256},0,0)`; requestAnimationFrame(f); })();
            </script>
            """))
        let options = FilmstripOptions(framesPerSecond: 20, afterLoadAtMost: .milliseconds(700))
        let result = try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("spin.html"), filmstrip: options)
        }
        let metrics = try #require(result.visualMetrics)
        #expect(metrics.recordingEnded == .bound)
        #expect(metrics.progress.count >= 3)
        // The frame limit ends a recording too.
        let capped = try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("spin.html"),
                                filmstrip: FilmstripOptions(framesPerSecond: 20, maxFrames: 3))
        }
        #expect(capped.visualMetrics?.recordingEnded == .frameLimit && capped.filmstrip?.frames.count ?? 0 <= 3)
    }

    @Test(arguments: [0, -1, 61, 10_000])
    func outOfBoundsRatesAreRefused(rate: Int) async throws {
        let error = await #expect(throws: HeadwayError.self) {
            try await Browser.withPage { page in
                try await page.load(URL(string: "about:blank")!, filmstrip: FilmstripOptions(framesPerSecond: rate))
            }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("1 to 60 frames a second") == true)
    }
}
