import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Headway
import HeadwayTestSupport
import Testing

@Suite("HTTP server and network emulation", .serialized)
@EngineActor
struct ServerTests {
    private func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-site-\(getpid())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "<!doctype html><title>Index</title>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "body{}".write(to: root.appendingPathComponent("sub/a.css"), atomically: true, encoding: .utf8)
        try Data(repeating: 7, count: 200_000).write(to: root.appendingPathComponent("blob.bin"))
        return root
    }

    private func fetch(_ url: URL) async throws -> (Int, String, Data) {
        let (data, response) = try await URLSession.shared.data(from: url)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "", data)
    }

    @Test func servesFilesWithContentTypesAnd404s() async throws {
        let server = try HTTPServer(root: try site())
        defer { server.stop() }
        let (status, type, body) = try await fetch(server.url)
        #expect(status == 200 && type.hasPrefix("text/html") && String(decoding: body, as: UTF8.self).contains("Index"))
        let css = try await fetch(server.url.appendingPathComponent("sub/a.css"))
        #expect(css.0 == 200 && css.1.hasPrefix("text/css"))
        #expect(try await fetch(server.url.appendingPathComponent("nope.html")).0 == 404)
        #expect(try await fetch(URL(string: "\(server.url)sub/%2e%2e/%2e%2e/etc/passwd")!).0 == 404)
        #expect(server.requestCount(path: "/nope.html") == 1)
        #expect(server.requests.count == 4)
    }

    @Test func bandwidthAndLatencyAreApplied() async throws {
        let server = try HTTPServer(root: try site(), conditions: NetworkConditions(bytesPerSecond: 1_000_000, latency: 0.1))
        defer { server.stop() }
        let start = Date()
        let (status, _, body) = try await fetch(server.url.appendingPathComponent("blob.bin"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(status == 200)
        #expect(body == Data(repeating: 7, count: 200_000))
        // A lower bound only: emulation can never make it faster than N/B + L.
        #expect(elapsed >= 0.2 + 0.1 - 0.02)
    }

    @Test func conditionsParse() throws {
        #expect(try NetworkConditions.parseBandwidth("5mbit") == 625_000)
        #expect(try NetworkConditions.parseBandwidth("500kbit") == 62_500)
        #expect(try NetworkConditions.parseBandwidth("2MB") == 2_000_000)
        #expect(try NetworkConditions.parseBandwidth("0") == nil)
        #expect(try NetworkConditions.parseLatency("50ms") == 0.05)
        #expect(try NetworkConditions.parseLatency("0.2s") == 0.2)
        #expect(throws: HeadwayError.self) { try NetworkConditions.parseBandwidth("fast") }
        #expect(throws: HeadwayError.self) { try NetworkConditions.parseLatency("-5ms") }
        #expect(throws: HeadwayError.self) { try HTTPServer(root: URL(fileURLWithPath: "/no/such/dir")) }
    }

    @Test func jsonValueRoundTrips() throws {
        let value = try JSONValue(json: #"{"a":[1,2.5,"x",null,true],"b":{}}"#)
        #expect(value["a"]?[1] == .number(2.5))
        #expect(try JSONValue(json: value.jsonText) == value)
        #expect(try JSONValue(json: nil) == .undefined)
        #expect(JSONValue.undefined.jsonText == "null")
    }
}
