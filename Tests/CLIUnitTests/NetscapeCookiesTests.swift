import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `--cookies FILE`: Netscape cookies.txt lines as curl and wget write them.
@Suite("Netscape cookies.txt")
struct NetscapeCookiesTests {
    static func line(_ fields: String...) -> String { fields.joined(separator: "\t") }

    @Test func curlsLinesAndItsHttpOnlyMark() throws {
        let text = ["# Netscape HTTP Cookie File", "", Self.line("example.com", "FALSE", "/", "FALSE", "0", "a", "1"),
                    Self.line("#HttpOnly_.example.com", "TRUE", "/app", "TRUE", "1700000000", "b", "x=y; z"),
                    Self.line("Sub.Example.COM", "TRUE", "", "false", "0", "c", ""), "   "].joined(separator: "\r\n")
        let cookies = try Cookie.parseNetscape(text)
        #expect(cookies == [
            Cookie(name: "a", value: "1", domain: "example.com"),
            Cookie(name: "b", value: "x=y; z", domain: ".example.com", path: "/app", secure: true, httpOnly: true,
                   expires: Date(timeIntervalSince1970: 1_700_000_000)),
            Cookie(name: "c", value: "", domain: ".sub.example.com"),
        ])
    }

    @Test func emptyFilesAndCommentsGiveNoCookies() throws {
        #expect(try Cookie.parseNetscape("").isEmpty)
        #expect(try Cookie.parseNetscape("\n\r\n\n").isEmpty)
        #expect(try Cookie.parseNetscape("# only a comment\n#another").isEmpty)
    }

    @Test func unicodeAndHugeExpiriesAreKeptAsGiven() throws {
        let text = Self.line("example.com", "FALSE", "/é", "FALSE", "9223372036854775807", "ñ", "✓ 𝄞")
        let cookie = try #require(try Cookie.parseNetscape(text).first)
        #expect(cookie.name == "ñ" && cookie.value == "✓ 𝄞" && cookie.path == "/é")
        #expect(cookie.expires == Date(timeIntervalSince1970: 9_223_372_036_854_775_807))
    }

    @Test func aLineItCannotReadIsAnErrorNamingTheFileAndLine() {
        let message = { (line: Int) in
            "cookies.txt line \(line) is not a Netscape cookie line "
                + "(domain, subdomains, path, secure, expiry, name, value, tab-separated)"
        }
        let bad = [
            Self.line("example.com", "FALSE", "/", "FALSE", "0", "a"),
            Self.line("example.com", "FALSE", "/", "FALSE", "0", "a", "1", "extra"),
            Self.line("", "FALSE", "/", "FALSE", "0", "a", "1"),
            Self.line("example.com", "FALSE", "/", "FALSE", "0", "", "1"),
            Self.line("example.com", "FALSE", "/", "FALSE", "-1", "a", "1"),
            Self.line("example.com", "FALSE", "/", "FALSE", "99999999999999999999", "a", "1"),
            Self.line("example.com", "FALSE", "/", "FALSE", "soon", "a", "1"),
            "example.com FALSE / FALSE 0 a 1",
        ]
        for line in bad {
            #expect(throws: HeadwayError(.invalidArgument, message(3)), "\(line.debugDescription)") {
                try Cookie.parseNetscape("# header\n\n" + line + "\n", source: "cookies.txt")
            }
        }
    }
}
