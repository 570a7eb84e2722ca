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
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"),
                                                withIntermediateDirectories: true)
        try "<!doctype html><title>Index</title>".write(to: root.appendingPathComponent("index.html"), atomically: true,
                                                        encoding: .utf8)
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

    @Test func symlinksOutOfTheRootAreRefusedAndThoseInsideItServed() async throws {
        let root = try site()
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("headway-outside-\(getpid())")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try "secret".write(to: outside.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let links = [("file-out", outside.appendingPathComponent("secret.txt").path), ("dir-out", outside.path),
                     ("passwd", "/etc/passwd"), ("etc", "/etc"), ("file-in", "sub/a.css"), ("dir-in", "sub")]
        for (name, target) in links {
            let link = root.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
        }
        // Served through a symlinked root too: the root's own real path is what counts.
        let rootLink = FileManager.default.temporaryDirectory.appendingPathComponent("headway-site-link-\(getpid())")
        try? FileManager.default.removeItem(at: rootLink)
        try FileManager.default.createSymbolicLink(atPath: rootLink.path, withDestinationPath: root.path)
        let server = try HTTPServer(root: rootLink)
        defer { server.stop() }
        for path in ["file-out", "dir-out/secret.txt", "passwd", "etc/passwd", "etc/shadow", "etc/"] {
            let (status, _, body) = try await fetch(server.url.appendingPathComponent(path))
            #expect(status == 404, "\(path)")
            let text = String(decoding: body, as: UTF8.self)
            #expect(!text.contains("secret") && !text.contains("root:"))
        }
        #expect(try await fetch(server.url.appendingPathComponent("file-in")).0 == 200)
        #expect(try await fetch(server.url.appendingPathComponent("dir-in/a.css")).0 == 200)
        #expect(try await fetch(server.url).0 == 200)
    }

    @Test func bandwidthAndLatencyAreApplied() async throws {
        let conditions = NetworkConditions(bytesPerSecond: 1_000_000, latency: .seconds(0.1))
        let server = try HTTPServer(root: try site(), conditions: conditions)
        defer { server.stop() }
        let start = Date()
        let (status, _, body) = try await fetch(server.url.appendingPathComponent("blob.bin"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(status == 200)
        #expect(body == Data(repeating: 7, count: 200_000))
        // A lower bound only: emulation can never make it faster than N/B + L.
        #expect(elapsed >= 0.2 + 0.1 - 0.02)
    }

    @Test func aMissingRootIsRefused() throws {
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
