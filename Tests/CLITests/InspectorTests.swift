import Foundation
import HeadwayTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `headway load --inspect PORT`: WebKit's inspector answers on the port with the page listed,
/// and Ctrl-C ends the run cleanly.
@Suite("Remote inspector", .serialized)
struct InspectorTests {
    @Test func theInspectorListsThePageUntilCtrlC() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let port = try NginxServer.freePort()
        let out = Pipe(), err = Pipe()
        let process = try CLI.start(["load", nginx.url.appendingPathComponent("index.html").absoluteString, "--inspect", "\(port)"],
                                    stdout: out, stderr: err)
        defer { if process.isRunning { process.terminate() } }
        // The run says where the inspector is once the page has loaded.
        var said = Data()
        let deadline = Date().addingTimeInterval(60)
        while !String(decoding: said, as: UTF8.self).contains("press Ctrl-C"), Date() < deadline {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        #expect(String(decoding: said, as: UTF8.self).contains("the inspector is on http://127.0.0.1:\(port)/"))
        let listing = try Curl.get(URL(string: "http://127.0.0.1:\(port)/")!)
        #expect(listing.status == 200)
        let page = String(decoding: listing.body, as: UTF8.self)
        #expect(page.contains("Inspectable targets"))
        #expect(page.contains(nginx.url.appendingPathComponent("index.html").absoluteString))
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let document = try JSONSerialization.jsonObject(with: out.fileHandleForReading.readDataToEndOfFile()) as? [String: Any]
        #expect((document?["loads"] as? [[String: Any]])?.first?["title"] as? String == "options")
    }

    @Test func aTakenPortIsRefused() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let taken = try #require(nginx.url.port)
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("index.html").absoluteString, "--inspect", "\(taken)"])
        #expect(output.status == 71)
        #expect(output.stderr.contains("the inspector cannot listen on 127.0.0.1:\(taken): the port is in use"))
        let bad = try CLI.run(["load", "http://127.0.0.1:9/", "--inspect", "70000"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("the inspector port must be 1 to 65535"))
    }
}
