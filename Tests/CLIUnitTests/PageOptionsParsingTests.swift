import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `load`'s page options: what each becomes in `Browser.Configuration`, and the one-line usage
/// error for each bad value. No browser starts.
@Suite("load's page options")
struct PageOptionsParsingTests {
    static let first = URL(string: "http://127.0.0.1:8080/a")!

    /// The configuration, checked in the order `load` checks it: the options' own values, then
    /// (with no URL argument) --cookie, then the files.
    static func configuration(_ arguments: [String], firstURL: URL? = first) throws -> Browser.Configuration {
        let options = try PageOptions.parse(arguments)
        try Browser.validate(try options.configuration(firstURL: firstURL, readingFiles: false))
        try options.check(firstURL: firstURL)
        return try options.configuration(firstURL: firstURL)
    }

    /// The message of the usage error the options give, or nil if they are fine.
    static func refusal(_ arguments: [String], firstURL: URL? = first) -> String? {
        do {
            _ = try configuration(arguments, firstURL: firstURL)
            return nil
        } catch let error as HeadwayError {
            #expect(error.code == .invalidArgument, "\(arguments): \(error)")
            return error.message
        } catch {
            return "not a HeadwayError: \(error)"
        }
    }

    @Test func defaultsAreTheLibrarysDefaults() throws {
        let configuration = try Self.configuration([])
        let library = Browser.Configuration()
        #expect(configuration.viewportWidth == library.viewportWidth)
        #expect(configuration.viewportHeight == library.viewportHeight)
        #expect(configuration.deviceScaleFactor == 1)
        #expect(configuration.userAgent == nil && configuration.locale == nil && configuration.proxy == nil)
        #expect(configuration.extraHeaders.isEmpty && configuration.cookies.isEmpty)
        #expect(configuration.networkConditions == nil)
        #expect(configuration.inspectorPort == nil && configuration.credentials == nil)
        #expect(!configuration.ignoreTLSErrors)
    }

    @Test func eachOptionReachesTheConfiguration() throws {
        let configuration = try Self.configuration([
            "--viewport", "800X600", "--device-scale-factor", "2", "--user-agent", "Probe/1 ✓",
            "--header", "X-A:  1 ", "--header", "X-B:", "--header", "X-C: a:b", "--cookie", "s=1=2",
            "--cookie", "t=", "--locale", "fr-FR", "--ignore-tls-errors", "--auth", "me:p:w", "--proxy",
            "socks5://127.0.0.1:1080", "--bandwidth", "5mbit", "--latency", "50ms", "--block", "*/ads/*",
            "--inspect", "9222", "--wait-for", "#ready", "--wait-until", "networkidle",
        ])
        #expect(configuration.viewportWidth == 800 && configuration.viewportHeight == 600)
        #expect(configuration.deviceScaleFactor == 2)
        #expect(configuration.userAgent == "Probe/1 ✓")
        #expect(configuration.extraHeaders.map { "\($0.0)=\($0.1)" } == ["X-A=1", "X-B=", "X-C=a:b"])
        #expect(configuration.cookies == [Cookie(name: "s", value: "1=2", domain: "127.0.0.1"),
                                          Cookie(name: "t", value: "", domain: "127.0.0.1")])
        #expect(configuration.locale == "fr-FR")
        #expect(configuration.ignoreTLSErrors)
        #expect(configuration.credentials == Browser.Credentials(user: "me", password: "p:w"))
        #expect(configuration.proxy == URL(string: "socks5://127.0.0.1:1080"))
        let conditions = NetworkConditions(bytesPerSecond: 625_000, latency: .milliseconds(50))
        #expect(configuration.networkConditions == conditions)
        #expect(configuration.blockedURLPatterns == ["*/ads/*"])
        #expect(configuration.inspectorPort == 9222)
        let options = try PageOptions.parse(["--wait-for", "#ready", "--wait-until", "domcontentloaded"])
        #expect(options.waitFor == "#ready" && options.waitUntil == .domcontentloaded)
        let waits = try PageOptions.parse(["--wait-for-text", "Done", "--wait-for-function", "window.ok",
                                           "--wait-for-network-idle", "750"]).waits
        #expect(waits.text == "Done" && waits.function == "window.ok" && waits.networkQuiet == .milliseconds(750))
        let none = try PageOptions.parse([]).waits
        #expect(waits.any && !none.any)
    }

    @Test func badValuesAreOneLineUsageErrors() {
        let bad: [([String], String)] = [
            (["--viewport", "800"], #"--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not "800""#),
            (["--viewport", "x"], #"--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not "x""#),
            (["--viewport", "1x2x3"], #"--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not "1x2x3""#),
            (["--viewport", " 8x6"], #"--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not " 8x6""#),
            (["--viewport", "99999999999999999999x1"],
             #"--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not "99999999999999999999x1""#),
            (["--viewport", "0x600"], "the viewport width must be 1 to 16384 CSS pixels, not 0"),
            (["--viewport=-5x600"], "the viewport width must be 1 to 16384 CSS pixels, not -5"),
            (["--viewport", "800x16385"], "the viewport height must be 1 to 16384 CSS pixels, not 16385"),
            (["--viewport", "9223372036854775807x1"],
             "the viewport width must be 1 to 16384 CSS pixels, not 9223372036854775807"),
            (["--device-scale-factor", "5"], "the device scale factor must be 1, 2, 3 or 4, not 5"),
            (["--device-scale-factor", "-9223372036854775808"],
             "the device scale factor must be 1, 2, 3 or 4, not -9223372036854775808"),
            (["--user-agent", ""], "the User-Agent must be one non-empty line"),
            (["--user-agent", "a\r\nX-Injected: 1"], "the User-Agent must be one non-empty line"),
            (["--header", "X-A"], #"--header must be "Name: value", not "X-A""#),
            (["--header", ": v"], #"not a header name: """#),
            (["--header", "X A: v"], #"not a header name: "X A""#),
            (["--header", "Ü: v"], #"not a header name: "Ü""#),
            (["--header", "X-A: 1\r\nX-Injected: 1"], "the value of header X-A has a control character"),
            (["--header", "X-A: \u{7F}"], "the value of header X-A has a control character"),
            (["--cookie", "novalue"], #"--cookie must be NAME=VALUE, not "novalue""#),
            (["--cookie", "=v"], #"--cookie must be NAME=VALUE, not "=v""#),
            (["--locale", "not a locale"], #"not a language tag: "not a locale" (for example fr, fr-FR or pt_BR)"#),
            (["--auth", "nocolon"], "--auth must be USER:PASS"),
            (["--auth", ":pass"], "the user name for authentication must be non-empty and have no colon"),
            (["--proxy", "ftp://127.0.0.1:21"],
             "the proxy must be an http, https or socks URL with a host: ftp://127.0.0.1:21"),
            (["--proxy", "http://"], "the proxy must be an http, https or socks URL with a host: http://"),
            (["--bandwidth", "fast"], "not a bandwidth: 'fast' (use for example 5mbit, 500kbit or 2MB)"),
            (["--latency", "-1s"], "--latency must be at least 0"),
            (["--block", ""], "a blocked URL pattern is empty"),
            (["--inspect", "0"], "the inspector port must be 1 to 65535, not 0"),
            (["--inspect", "65536"], "the inspector port must be 1 to 65535, not 65536"),
            (["--inspect", "-1"], "the inspector port must be 1 to 65535, not -1"),
            (["--wait-for", "  "], "--wait-for needs a CSS selector"),
            (["--wait-for-text", ""], "--wait-for-text needs some text"),
            (["--wait-for-function", " \n"], "--wait-for-function needs a JavaScript expression"),
            (["--wait-for-network-idle", "0"], "--wait-for-network-idle must be 1 to 86400000 ms, not 0"),
            (["--wait-for-network-idle", "-5"], "--wait-for-network-idle must be 1 to 86400000 ms, not -5"),
            (["--wait-for-network-idle", "86400001"],
             "--wait-for-network-idle must be 1 to 86400000 ms, not 86400001"),
        ]
        for (arguments, message) in bad {
            #expect(Self.refusal(arguments) == message, "\(arguments)")
        }
    }

    @Test func aCookieNeedsAURLArgumentsHost() {
        let message = "--cookie sets a cookie for the first URL argument's host, and there is none: "
            + "give a URL argument or use --cookies FILE"
        #expect(Self.refusal(["--cookie", "a=b"], firstURL: nil) == message)
        #expect(Self.refusal(["--cookie", "a=b"], firstURL: URL(string: "file:///tmp/a.html")) == message)
        #expect(throws: HeadwayError(.fileUnreadable, "cookies file not found: /no/such/cookies.txt")) {
            try Self.configuration(["--cookies", "/no/such/cookies.txt"], firstURL: nil)
        }
    }

    @Test func checkingReadsNoFiles() throws {
        let options = try PageOptions.parse(["--cookies", "/no/such/cookies.txt", "--init-script", "/no/such.js"])
        try options.check(firstURL: nil)
        #expect(throws: HeadwayError(.fileUnreadable, "cookies file not found: /no/such/cookies.txt")) {
            try options.configuration(firstURL: nil)
        }
    }

    @Test func filesAreReadWhenTheConfigurationIsMade() throws {
        let cookies = try TextFileTests.file("cookies.txt", Data(
            "# Netscape HTTP Cookie File\r\n.example.com\tTRUE\t/\tFALSE\t0\tsid\tabc\r\n\r\n".utf8))
        let script = try TextFileTests.file("init.js", Data("window.x = 1".utf8))
        let configuration = try Self.configuration(["--cookies", cookies, "--init-script", script,
                                                    "--init-script", script], firstURL: nil)
        #expect(configuration.cookies == [Cookie(name: "sid", value: "abc", domain: ".example.com")])
        // Each named by its path, for the errors it throws.
        #expect(configuration.initScripts == Array(repeating: "window.x = 1\n//# sourceURL=\(script)", count: 2))
    }

    @Test func optionsArgumentParserRefusesAreItsUsageErrors() {
        for arguments in [["--device-scale-factor", "two"], ["--inspect", "99999999999999999999"],
                          ["--wait-until", "idle"], ["--viewport"], ["--viewport", "-5x600"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try PageOptions.parse(arguments) }
        }
    }
}
