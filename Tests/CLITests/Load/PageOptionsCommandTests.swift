import Foundation
import HeadwayTestSupport
import Testing

/// `headway load`'s page options, each checked by what the page saw and what nginx received.
@Suite("headway load page options", .serialized)
struct PageOptionsCommandTests {
    @Test func everyPageOptionReachesThePageAndTheServer() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let look = try Fixtures.file("look.js", """
            ({ width: innerWidth, height: innerHeight, ratio: devicePixelRatio, agent: navigator.userAgent,
               language: navigator.language, initFirst: window.seen.initRanFirst, analytics: window.seen.analytics,
               late: document.querySelector('#late') !== null, fetched: window.fetched === true })
            """)
        let initScript = try Fixtures.file("init.js", "window.initRan = true;")
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("index.html").absoluteString,
                                  "--viewport", "800x600", "--device-scale-factor", "2", "--user-agent", "HeadwayCLI/2",
                                  "--header", "X-Headway-Test: from the CLI", "--cookie", "session=s1",
                                  "--locale", "de-DE",
                                  "--block", "*/analytics.js", "--init-script", initScript,
                                  "--wait-until", "networkidle", "--wait-for", "#late", "--script", look])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let value = try #require((load["scripts"] as? [[String: Any]])?.first?["value"] as? [String: Any])
        #expect(value["width"] as? Int == 800)
        #expect(value["height"] as? Int == 600)
        #expect(value["ratio"] as? Int == 2)
        #expect(value["agent"] as? String == "HeadwayCLI/2")
        #expect(value["language"] as? String == "de-DE")
        #expect(value["initFirst"] as? Bool == true)
        #expect(value["analytics"] as? Bool == false)
        #expect(value["late"] as? Bool == true)
        #expect(value["fetched"] as? Bool == true)
        #expect((load["resources"] as? [String: Any])?["blocked"] as? Int == 1)
        let requests = nginx.waitForRequests(count: 3)
        #expect(!requests.map(\.path).contains("/analytics.js"))
        let page = try #require(requests.first { $0.path == "/index.html" })
        #expect(page.userAgent == "HeadwayCLI/2")
        #expect(page.testHeader == "from the CLI")
        #expect(page.cookie == "session=s1")
    }

    @Test func anEmulatedNetworkSlowsAPlainServersPageToItsEmulatedTime() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        // 500,000 bytes of HTML, sent by nginx without compression, with no emulation of its own.
        let body = "<!doctype html><title>big</title><p>" + String(repeating: "x", count: 500_000 - 36)
        try body.write(to: root.appendingPathComponent("big.html"), atomically: true, encoding: .utf8)
        let nginx = try NginxServer(root: root, options: .init(extra: "gzip off;"))
        defer { nginx.stop() }
        let url = nginx.url.appendingPathComponent("big.html").absoluteString
        let output = try CLI.run(["load", url, "--bandwidth", "5mbit", "--latency", "50ms"])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let timing = try #require(load["timing"] as? [String: Any])
        // 500,000 bytes at 625,000 bytes/s take 800 ms, after 50 ms of latency: the emulation
        // cannot be faster than that (the benchmark measures how close it comes).
        #expect((timing["finished"] as? Double ?? 0) >= 0.95 * 850)
        #expect(load["prefetch"] == nil)
        #expect(nginx.waitForRequests(count: 1).contains { $0.path == "/big.html" && $0.bytesSent == 500_000 })
    }

    @Test func cookiesFileAuthAndTLSFlags() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: .init(extra: OptionsSite.nginxExtra(root: root)))
        defer { nginx.stop() }
        let cookies = try Fixtures.file("cookies.txt", """
            # Netscape HTTP Cookie File
            127.0.0.1\tFALSE\t/\tFALSE\t0\tfromfile\tyes
            #HttpOnly_127.0.0.1\tFALSE\t/secret\tFALSE\t0\thidden\tsure

            """)
        let secret = nginx.url.appendingPathComponent("secret/index.html").absoluteString
        let refused = try CLI.run(["load", secret])
        #expect(refused.status == 6)
        let answered = try CLI.run(["load", secret, "--auth", "ada:lovelace", "--cookies", cookies])
        #expect(answered.status == 0, "\(answered.stderr)")
        let sent = nginx.waitForRequests(count: 3).last { $0.path == "/secret/index.html" && $0.status == 200 }
        #expect(sent?.cookie?.contains("fromfile=yes") == true)
        #expect(sent?.cookie?.contains("hidden=sure") == true)

        let tls = try NginxServer(root: root, options: .init(tls: try OptionsSite.selfSigned(in: root)))
        defer { tls.stop() }
        let page = tls.url.appendingPathComponent("index.html").absoluteString
        let untrusted = try CLI.run(["load", page])
        #expect(untrusted.status == 3)
        #expect(untrusted.stderr.contains("headway: error:"))
        let trusted = try CLI.run(["load", page, "--ignore-tls-errors"])
        #expect(trusted.status == 0, "\(trusted.stderr)")
    }

    @Test(arguments: [
        (["--viewport", "big"], "--viewport must be WIDTHxHEIGHT"),
        (["--viewport", "0x600"], "viewport width must be 1 to 16384"),
        (["--device-scale-factor", "5"], "device scale factor must be 1, 2, 3 or 4"),
        (["--header", "no colon"], "--header must be \"Name: value\""),
        (["--header", "Bad Name: x"], "not a header name"),
        (["--cookie", "novalue"], "--cookie must be NAME=VALUE"),
        (["--auth", "nocolon"], "--auth must be USER:PASS"),
        (["--locale", "english please"], "not a language tag"),
        (["--proxy", "ftp://127.0.0.1:1"], "the proxy must be an http, https or socks URL"),
        (["--wait-until", "forever"], "wait-until"),
    ])
    func badPageOptionsAreRefusedWithOneLine(extra: [String], message: String) throws {
        let output = try CLI.run(["load", "http://127.0.0.1:9/"] + extra)
        #expect(output.status == 64)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
    }

    @Test func headersAndBlockingWithoutTheWebExtensionFailInsteadOfDoingNothing() throws {
        // A copy of the binary without the resources folder the build puts beside it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headway-bare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = folder.appendingPathComponent("headway")
        try FileManager.default.copyItem(at: try CLI.binary, to: bare)
        let page = "data:text/html,<title>bare</title>"
        for options in [["--block", "*.css"], ["--header", "X-Test: 1"]] {
            let output = try CLI.run(
                ["load"] + options + [page],
                environment: ["HEADWAY_WEB_EXTENSION": nil],
                executable: bare
            )
            #expect(output.status == 69, "\(options): \(output.stderr)")
            #expect(
                output.stderr.contains("need the web-process extension libHeadwayWebExtension.so, which was not found")
            )
        }
        // The booster alone still runs without it, with one warning.
        let boosted = try CLI.run(
            ["load", "--prefetch", page],
            environment: ["HEADWAY_WEB_EXTENSION": nil],
            executable: bare
        )
        #expect(boosted.status == 0, "\(boosted.stderr)")
        #expect(boosted.stderr.contains("warning: the booster's web-process extension"))
    }

    @Test func anExtensionBesideOtherFilesLoadsFromAPrivateFolderRemovedAtExit() throws {
        // HEADWAY_WEB_EXTENSION names a library in a folder that holds other files too: WebKit, which
        // loads every library of its folder, gets a private folder of the process's instead.
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("headway-ext-\(UUID().uuidString)")
        let shelf = tmp.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let library = try CLI.binary.deletingLastPathComponent()
            .appendingPathComponent("Headway_Headway.resources/libHeadwayWebExtension.so")
        try FileManager.default.copyItem(at: library, to: shelf.appendingPathComponent("libHeadwayWebExtension.so"))
        try Data("not a library".utf8).write(to: shelf.appendingPathComponent("notes.txt"))
        let named = shelf.appendingPathComponent("libHeadwayWebExtension.so").path
        let output = try CLI.run(["load", "--header", "X-Test: 1", "data:text/html,<title>shelf</title>"],
                                 environment: ["HEADWAY_WEB_EXTENSION": named, "TMPDIR": tmp.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path) == ["shelf"])
    }

    @Test func unreadableFilesAreInputErrors() throws {
        let missing = try CLI.run(["load", "http://127.0.0.1:9/", "--cookies", "/no/such/cookies.txt"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cookies file not found: /no/such/cookies.txt"))
        let bad = try CLI.run([
            "load", "http://127.0.0.1:9/", "--cookies", try Fixtures.file("bad-cookies.txt", "just one field\n"),
        ])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("line 1 is not a Netscape cookie line"))
        let script = try CLI.run(["load", "http://127.0.0.1:9/", "--init-script", "/no/such/init.js"])
        #expect(script.status == 66)
        #expect(script.stderr.contains("init script not found"))
        let noURL = try CLI.run([
            "load", "--urls", try Fixtures.file("list.txt", "http://127.0.0.1:9/\n"), "--cookie", "a=b",
        ])
        #expect(noURL.status == 64)
        #expect(noURL.stderr.contains("--cookie sets a cookie for the first URL argument's host"))
    }
}
