import Foundation
import HeadwayTestSupport
import Testing

@Suite("headway serve: containment and descriptors", .serialized)
struct ServeRobustnessTests {
    private func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("serve-robust-\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"),
            withIntermediateDirectories: true
        )
        try "<!doctype html><title>Root</title>".write(
            to: root.appendingPathComponent("index.html"),
            atomically: true,
            encoding: .utf8
        )
        try "inside".write(to: root.appendingPathComponent("sub/inside.txt"), atomically: true, encoding: .utf8)
        return root
    }

    /// Each closed keep-alive connection used to keep its descriptor (libsoup 3.2), until file
    /// reads failed and every answer was a 403.
    @Test func fiveThousandConnectionsLeaveTheDescriptorCountFlat() async throws {
        let (process, base) = try CLI.serve(try site().path)
        defer { process.terminate(); process.waitUntilExit() }
        let port = try #require(base.port)
        #expect(try RawHTTP.get(port: port) == 200)
        let before = openDescriptorCount(process.processIdentifier)
        let started = Date()
        var statuses: [Int: Int] = [:]
        for index in 0..<5_000 {
            let status = try RawHTTP.get(
                port: port,
                path: index % 2 == 0 ? "/" : "/sub/inside.txt",
                keepAlive: index % 10 != 0
            )
            statuses[status, default: 0] += 1
        }
        #expect(Date().timeIntervalSince(started) < 60, "5,000 requests should take seconds")
        #expect(statuses == [200: 5_000])
        #expect(try RawHTTP.get(port: port) == 200)
        // The last connections may still be closing: give the server a moment to see them go.
        let after = try await waitFor("headway serve's descriptors back near \(before)", within: .seconds(5),
                                      every: .milliseconds(100), { openDescriptorCount(process.processIdentifier) },
                                      until: { $0 <= before + 10 })
        print("descriptors of headway serve: \(before) before, \(after) after 5,001 connections")
        #expect(after <= before + 10)
    }

    @Test func symlinksLeadingOutOfTheDirectoryAreNotServed() throws {
        let root = try site()
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd"
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("etc").path, withDestinationPath: "/etc"
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("inside-link").path, withDestinationPath: "sub/inside.txt"
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("sub-link").path, withDestinationPath: "sub"
        )
        let (process, base) = try CLI.serve(root.path)
        defer { process.terminate(); process.waitUntilExit() }
        let port = try #require(base.port)
        for path in ["/passwd", "/etc/passwd", "/etc/shadow", "/etc/hostname"] {
            #expect(try RawHTTP.get(port: port, path: path) == 404, "\(path)")
        }
        #expect(try RawHTTP.get(port: port, path: "/inside-link") == 200)
        #expect(try RawHTTP.get(port: port, path: "/sub-link/inside.txt") == 200)
    }
}
