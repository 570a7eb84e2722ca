import Foundation
import HeadwayTestSupport
import Testing

/// `headway load --filmstrip DIR` behind nginx: the frames as browsertime names them, the visual
/// metrics in the JSON, a directory per load when there are several, and bad input refused
/// before any page loads.
@Suite("headway load --filmstrip", .serialized)
struct FilmstripCommandTests {
    static func site() throws -> (URL, NginxServer) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-film-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("""
            <!doctype html><title>late</title><body style='margin:0'><h1>Late</h1><div id=d></div>
            <script>addEventListener('load', () => setTimeout(() => {
              d.style.cssText = 'width:500px;height:300px;background:#06c'; }, 200));</script>
            """.utf8).write(to: root.appendingPathComponent("late.html"))
        return (root, try NginxServer(root: root))
    }

    @Test func framesAndMetricsOfOneLoad() throws {
        let (root, nginx) = try Self.site()
        defer { nginx.stop(); try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames/new").path
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("late.html").absoluteString,
                                  "--filmstrip", frames, "--frame-rate", "20"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(CLI.schemaProblems(output.stdout, jsonl: false).isEmpty)
        let load = try #require(CLI.loads(output, jsonl: false).first)
        #expect(load["filmstrip"] as? String == frames)
        let metrics = try #require(load["visualMetrics"] as? [String: Any])
        let progress = try #require(metrics["progress"] as? [[String: Int]])
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        // One file for each frame of the progress, named by its time.
        #expect(names == progress.map { String(format: "ms_%06d.png", $0["time"]!) })
        #expect(names.count >= 3 && names.first == "ms_000000.png")
        let loadEnd = try #require((load["timing"] as? [String: Any])?["loadEventEnd"] as? Double)
        #expect(try #require(metrics["lastVisualChange"] as? Int) >= Int(loadEnd) + 150)
        #expect(metrics["recordingEnded"] as? String == "stable")
    }

    @Test func severalLoadsEachHaveTheirOwnDirectory() throws {
        let (root, nginx) = try Self.site()
        defer { nginx.stop(); try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames").path
        let url = nginx.url.appendingPathComponent("late.html").absoluteString
        let output = try CLI.run(["load", url, "--repeat", "2", "--filmstrip", frames])
        #expect(output.status == 0, "\(output.stderr)")
        // --repeat summarises the visual metrics with the timing.
        let summary = try #require((try CLI.json(output)["summary"] as? [[String: Any]])?.first)
        let speedIndex = try #require((summary["metrics"] as? [String: Any])?["speedIndex"] as? [String: Double])
        #expect(speedIndex["median"] != nil && speedIndex["p95"] != nil)
        let folders = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(folders == ["load-1-run-1", "load-1-run-2"])
        for folder in folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: frames + "/" + folder)
            #expect(names.contains("ms_000000.png"))
        }
        // --visual-metrics alone reports the metrics and writes nothing.
        let metricsOnly = try CLI.run(["load", url, "--visual-metrics"])
        #expect(metricsOnly.status == 0, "\(metricsOnly.stderr)")
        let load = try #require(CLI.loads(metricsOnly, jsonl: false).first)
        #expect(load["visualMetrics"] != nil && load["filmstrip"] == nil)
    }

    @Test func aPageThatNeverSettlesEndsAtTheBoundAndSaysSo() throws {
        let (root, nginx) = try Self.site()
        defer { nginx.stop(); try? FileManager.default.removeItem(at: root) }
        try Data("""
            <body><div id=d style='width:300px;height:300px'></div><script>
            let n = 0; (function f() { d.style.background = `rgb(0,${n++ % 256},0)`; requestAnimationFrame(f); })();
            </script>
            """.utf8).write(to: root.appendingPathComponent("spin.html"))
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("spin.html").absoluteString,
                                  "--visual-metrics"])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require(CLI.loads(output, jsonl: false).first)
        #expect((load["visualMetrics"] as? [String: Any])?["recordingEnded"] as? String == "bound")
        #expect(output.stderr.contains("ended at its bound: the view still changed 5 s after the load"))
    }

    @Test func framesAreInDevicePixels() throws {
        let (root, nginx) = try Self.site()
        defer { nginx.stop(); try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames").path
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("late.html").absoluteString,
                                  "--viewport", "640x400", "--device-scale-factor", "2", "--filmstrip", frames])
        #expect(output.status == 0, "\(output.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names.count >= 2)
        for name in names {
            // A PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
            let png = try Data(contentsOf: URL(fileURLWithPath: frames + "/" + name))
            let size = [16, 20].map { png[$0..<$0 + 4].reduce(0) { $0 << 8 | Int($1) } }
            #expect(size == [1280, 800], "\(name) is \(size)")
        }
    }

    @Test(arguments: [
        (["--filmstrip", "/tmp", "--frame-rate", "0"], "--frame-rate must be 1 to 60 frames a second, not 0"),
        (["--filmstrip", "/tmp", "--frame-rate", "10000"], "--frame-rate must be 1 to 60 frames a second, not 10000"),
        (["--frame-rate", "10"], "--frame-rate needs --filmstrip, --visual-metrics or --report"),
        (["--filmstrip", "/proc/version/frames"], "/proc/version is not a directory"),
        (["--visual-metrics", "--viewport", "0x0"], "the viewport width must be 1 to 16384 CSS pixels, not 0"),
    ])
    func badInputIsRefusedBeforeAnyLoad(arguments: [String], message: String) throws {
        let output = try CLI.run(["load", "http://127.0.0.1:9/never.html"] + arguments)
        #expect(output.status == 64 || output.status == 73, "\(output.status) \(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }
}
