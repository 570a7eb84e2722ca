import Foundation
import HeadwayWebDriver
import Testing

// The request head parser and the Host check, without a socket.
@Suite("WebDriver HTTP request head")
struct HTTPRequestHeadTests {
    static func parse(_ text: String) throws -> HTTPRequestHead {
        try HTTPRequestHead.parse(ArraySlice(Array(text.utf8)))
    }

    @Test func bareLineFeedsLeadingBlankLinesAndAbsoluteTargetsAreAccepted() throws {
        let head = try Self.parse("\r\nPOST http://127.0.0.1:4444/session?x=1 HTTP/1.1\nHost: a\nContent-Length:  5 \n")
        #expect(head.method == "POST" && head.target == "/session?x=1" && head.version == "HTTP/1.1")
        #expect(head.header("host") == "a")
        #expect(try head.contentLength() == 5)
    }

    @Test func keepAliveFollowsTheVersionAndConnectionHeader() throws {
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: a\r\n").keepAlive)
        #expect(try !Self.parse("GET / HTTP/1.1\r\nConnection: close\r\n").keepAlive)
        #expect(try !Self.parse("GET / HTTP/1.0\r\n").keepAlive)
        #expect(try Self.parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n").keepAlive)
    }

    @Test func contentLengthsMustAgreeAndBeDecimal() throws {
        #expect(try Self.parse("POST / HTTP/1.1\r\nContent-Length: 7, 7\r\n").contentLength() == 7)
        for bad in ["7, 8", "+7", "0x10", "1e3", "99999999999999999999", ""] {
            #expect(throws: HTTPFailure.self, "\(bad)") {
                try Self.parse("POST / HTTP/1.1\r\nContent-Length: \(bad)\r\n").contentLength()
            }
        }
        #expect(throws: HTTPFailure(411, "chunked request bodies are not supported: send the body with a "
            + "Content-Length")) { try Self.parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n").contentLength() }
    }

    @Test func headerNamesAndValuesAreChecked() {
        for bad in ["GET / HTTP/1.1\r\nBad Name: x\r\n", "GET / HTTP/1.1\r\nNoColon\r\n", "GET / HTTP/1.1\r\n: x\r\n",
                    "GET / HTTP/1.1\r\n\tfolded\r\n", "GET  / HTTP/1.1\r\n", "G(T / HTTP/1.1\r\n"] {
            #expect(throws: HTTPFailure.self, "\(bad.debugDescription)") { try Self.parse(bad) }
        }
    }

    @Test func oneHostAndItMustBeTheAbsoluteTargetsAuthority() throws {
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: a\r\n").hostFailure == nil)
        #expect(try Self.parse("GET / HTTP/1.1\r\nHost: a\r\nHOST: a\r\n").hostFailure?.status == 400)
        let absolute = try Self.parse("GET http://u:p@Example.org:81/x HTTP/1.1\r\nHost: example.org:81\r\n")
        #expect(absolute.authority == "Example.org:81" && absolute.target == "/x")
        #expect(absolute.hostFailure == nil)
        #expect(try Self.parse("GET http://a/ HTTP/1.1\r\nHost: b\r\n").hostFailure?.status == 400)
        #expect(try Self.parse("GET http://a/ HTTP/1.1\r\n").hostFailure?.status == 400)
        // Even where the rebinding check does not apply.
        let everywhere = HostCheck(boundHost: "0.0.0.0")
        #expect(everywhere.refusal(for: try Self.parse("GET http://a/ HTTP/1.1\r\nHost: b\r\n"))?.status == 400)
    }

    @Test func theHostCheckAppliesOnLoopbackOnly() throws {
        let loopback = HostCheck(boundHost: "127.0.0.1")
        let named = HostCheck(boundHost: "localhost")
        let everywhere = HostCheck(boundHost: "0.0.0.0")
        let evil = try Self.parse("GET / HTTP/1.1\r\nHost: evil.example:4444\r\n")
        #expect(loopback.refusal(for: evil) != nil && named.refusal(for: evil) != nil)
        #expect(everywhere.refusal(for: evil) == nil)
        #expect(loopback.refusal(for: try Self.parse("GET / HTTP/1.1\r\nHost: localhost.:4444\r\n")) == nil)
        #expect(loopback.refusal(for: try Self.parse("GET / HTTP/1.0\r\n")) == nil)
    }
}
