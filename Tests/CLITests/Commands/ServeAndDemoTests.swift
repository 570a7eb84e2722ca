import Foundation
import HeadwayTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("headway serve and demo", .serialized)
struct ServeAndDemoTests {
    @Test func serveAnswersWithEmulationLogsAndStopsOnCtrlC() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "<!doctype html><title>Served</title>".write(
            to: root.appendingPathComponent("index.html"),
            atomically: true,
            encoding: .utf8
        )
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["serve", root.path, "--port", "0", "--bandwidth", "1mbit", "--latency", "50ms", "--log"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let text = CLI.firstLine(of: out)
        #expect(text.contains("1.00 Mbit/s, 50 ms latency"))
        let base = try #require(text.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let (data, response) = try await URLSession.shared.data(from: URL(string: base)!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("Served"))
        let (_, missing) = try await URLSession.shared.data(from: URL(string: base + "nope")!)
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET / 200"))
        #expect(log.contains("GET /nope 404"))
    }

    @Test func serveRejectsBadInput() throws {
        let bad = try CLI.run(["serve", "/no/such/dir", "--port", "0"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("not a directory: /no/such/dir"))
        let rate = try CLI.run(["serve", "/tmp", "--bandwidth", "fast"])
        #expect(rate.status == 64)
        #expect(rate.stderr.contains("not a bandwidth"))
        let cases: [([String], String)] = [
            (["--port", "99999"], "--port must be between 0 and 65535"),
            (["--port", "-1"], "--port must be between 0 and 65535"),
            (["--latency", "1e300s"], "--latency must be at most 86400 seconds"),
            (["--latency", "infms"], "--latency must be at most 86400 seconds"),
            (["--latency", "-5ms"], "--latency must be at least 0"),
            (["--latency", "nans"], "--latency must be a number of seconds, not nan"),
            (["--bandwidth", "1e300mbit"], "--bandwidth must be at most 100gbit"),
            (["--bandwidth", "-1mbit"], "--bandwidth must be positive (0 means no cap)"),
            (["--bandwidth", "nanmbit"], "--bandwidth must be positive (0 means no cap)"),
        ]
        for (arguments, message) in cases {
            let output = try CLI.run(["serve", "/tmp"] + arguments)
            #expect(output.status == 64, "\(arguments)")
            #expect(output.stderr.hasPrefix("headway: error: \(message)"), "\(arguments): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(arguments): \(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
        let demo = try CLI.run(["demo", "--latency", "infs"])
        #expect(demo.status == 64)
        #expect(
            demo.stderr.split(separator: "\n") == ["headway: error: --latency must be at most 86400 seconds (one day)"]
        )
        let siteOnly = try CLI.run(["demo", "--write-site", "/tmp/never-written", "--report", "/tmp/r.html"])
        #expect(siteOnly.status == 64)
        #expect(siteOnly.stderr == "headway: error: --write-site only writes the site: it cannot be combined with "
                + "--report\n")
    }

    /// Ctrl-C right after the site was written (before the engine starts) and during a load
    /// (Xvfb and WebKit running): exit 130, the temporary site gone, no process left.
    @Test(arguments: ["wrote the demo site", "loading "])
    func demoRemovesItsSiteOnCtrlC(after progress: String) async throws {
        let tmp = FileManager.default.temporaryDirectory
            .appendingPathComponent("demo-tmp-\(getpid())-\(progress.count)")
        try? FileManager.default.removeItem(at: tmp)
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let err = Pipe()
        let process = try CLI.start(["demo"], environment: ["DISPLAY": nil, "TMPDIR": tmp.path], stderr: err)
        defer { if process.isRunning { process.terminate() } }
        let seen = await onOwnThread { () -> String in
            var text = ""
            while !(text.contains(progress) && text.hasSuffix("\n")),
                let chunk = try? err.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty
            {
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        #expect(
            seen.contains(
                "headway: wrote the demo site: 45 files in "
                    + "\(tmp.path)/headway-demo-\(process.processIdentifier)"
            )
        )
        let site = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        #expect(site == ["headway-demo-\(process.processIdentifier)"])
        let tree = Set(descendants(of: process.processIdentifier).keys)
        kill(process.processIdentifier, SIGINT)
        let exited = (try? await waitForExit(of: process, within: .seconds(30))) != nil
        #expect(exited, "demo did not exit within 30 s of Ctrl-C")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
        if progress == "loading " { #expect(!tree.isEmpty, "Xvfb and WebKit were running") }
        #expect(await stillRunning(Array(tree), after: 5).isEmpty, "left running: \(tree.filter(isRunning))")
    }

    @Test func demoComparesAColdArticleWithAPrefetchedOne() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(getpid()).html").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let output = try CLI.run(["demo", "--report", report], timeout: 240, environment: ["DISPLAY": nil])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("headway: wrote the report of its loads: \(report)"))
        #expect(output.stdout.contains("5.00 Mbit/s, 50 ms latency"))
        #expect(output.stdout.contains("articles/article-3.html, cold"))
        #expect(output.stdout.contains("articles/article-3.html, cold, browser-emulated"))
        #expect(output.stdout.contains("Emulated by the browser against a plain server"))
        #expect(output.stdout.contains("articles/article-3.html, after index, prefetched"))
        #expect(output.stdout.contains("The prefetched article's load event came at"))
        #expect(output.stdout.contains(#""scriptRan":true"#))
        #expect(output.stdout.contains(#""title":"Article 3""#))
        // The prefetched article made no request of its own to the server.
        let prefetchedRow = try #require(
            output.stdout.split(separator: "\n").first { $0.contains("prefetched") && $0.contains("200") }
        )
        #expect(prefetchedRow.hasSuffix(" 0"))
        // So did the prerendered one, shown from its hidden view.
        let prerenderedRow = try #require(
            output.stdout.split(separator: "\n").first { $0.contains("after index, prerendered") }
        )
        #expect(prerenderedRow.hasSuffix(" 0"))
        #expect(output.stdout.contains("index.html, booster + prerender"))
        #expect(output.stdout.contains("The prerendered article was shown "))
        // A second run on the first one's cache directory needs nothing from the server.
        #expect(output.stdout.contains("articles/article-3.html, first run, disk cache"))
        let secondRun = try #require(
            output.stdout.split(separator: "\n").first { $0.contains("second run, disk cache") }
        )
        #expect(secondRun.hasSuffix(" 0"))
        #expect(output.stdout.contains("The second run made 0 requests"))
        // The report shows each of its loads, the prerendered one without requests of its own.
        let (page, found) = try ReportCommandTests.inspect(report)
        #expect((page["errors"] as? [Any])?.isEmpty == true)
        #expect(found["timingRows"] as? Int == 10 && found["curves"] as? Int == 10)
        let waterfalls = try #require(found["waterfalls"] as? [[String: Int]])
        #expect(waterfalls.count == 10 && waterfalls.contains { $0["prefetched"] ?? 0 > 0 })
        #expect(found["requests"] as? Int == 0 && found["fits"] as? Bool == true)
    }
}
