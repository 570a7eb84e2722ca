import Foundation
import Headway
import HeadwayTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `headway load --inspect PORT`: WebKit's inspector answers on the port with the page listed,
/// and Ctrl-C or SIGTERM ends the run cleanly, leaving no process behind.
@Suite("Remote inspector", .serialized)
@EngineActor
struct InspectorTests {
    /// How the run is ended: a terminal's Ctrl-C reaches the whole foreground process group,
    /// `kill PID` only the process.
    nonisolated enum Ending: String, CaseIterable, Sendable { case ctrlCToTheGroup, sigtermToTheProcess }

    @Test(arguments: Ending.allCases) func theInspectorListsThePageUntilTheRunIsEnded(_ ending: Ending) async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let page = nginx.url.appendingPathComponent("index.html").absoluteString
        let port = try NginxServer.freePort()
        let (process, out, said) = try await Self.inspect(page, port: port)
        defer { if process.isRunning { process.terminate() } }
        #expect(said.contains("the inspector is on http://127.0.0.1:\(port)/"), "stderr: \(said)")
        let listing = try await onOwnThread { Result { try Curl.get(URL(string: "http://127.0.0.1:\(port)/")!) } }.get()
        #expect(listing.status == 200)
        let targets = String(decoding: listing.body, as: UTF8.self)
        #expect(targets.contains("Inspectable targets"))
        #expect(targets.contains(page))
        let tree = descendants(of: process.processIdentifier)
        #expect(tree.values.contains { $0.hasPrefix("WebKitWebProces") }, "\(tree)")
        switch ending {
        case .ctrlCToTheGroup:
            #expect(
                getpgid(process.processIdentifier) == process.processIdentifier,
                "the run leads its own process group"
            )
            kill(-process.processIdentifier, SIGINT)
        case .sigtermToTheProcess:
            kill(process.processIdentifier, SIGTERM)
        }
        let document = await onOwnThread { out.fileHandleForReading.readDataToEndOfFile() }
        await onOwnThread { process.waitUntilExit() }
        #expect(
            process.terminationReason == .exit && process.terminationStatus == 0,
            "status \(process.terminationStatus)"
        )
        let loads = (try JSONSerialization.jsonObject(with: document) as? [String: Any])?["loads"] as? [[String: Any]]
        #expect(loads?.first?["title"] as? String == "options")
        #expect(await stillRunning(Array(tree.keys), after: 5).isEmpty, "left running: \(tree)")
    }

    // A person's inspector still connected when the run ends leaves the port's connections in
    // TIME_WAIT for a minute; WebKit can listen again at once, so the run must not refuse it.
    @Test func aRunRightAfterAnInspectedOneGetsThePort() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/page.html", .html("<!doctype html><title>again</title><p>again"))
        let page = server.url.appendingPathComponent("page.html").absoluteString
        let port = try NginxServer.freePort()
        let (first, _, _) = try await Self.inspect(page, port: port)
        defer { if first.isRunning { first.terminate() } }
        let attached = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(attached) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(attached, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        kill(first.processIdentifier, SIGINT)
        await onOwnThread { first.waitUntilExit() }
        let (second, _, said) = try await Self.inspect(page, port: port)
        defer { if second.isRunning { second.terminate() } }
        #expect(said.contains("the inspector is on http://127.0.0.1:\(port)/"), "stderr: \(said)")
        let listing = try await onOwnThread { Result { try Curl.get(URL(string: "http://127.0.0.1:\(port)/")!) } }.get()
        #expect(String(decoding: listing.body, as: UTF8.self).contains(page))
        kill(second.processIdentifier, SIGINT)
        await onOwnThread { second.waitUntilExit() }
        #expect(second.terminationStatus == 0)
    }

    // "press Ctrl-C" is said only once the signals are caught: one sent at once is never lost
    // (ignored while the handler was not yet registered) nor fatal (before it was installed).
    @Test func ctrlCRightAfterTheMessageEndsTheRunCleanly() async throws {
        for _ in 0..<5 {
            let (process, out, _) = try await Self.inspect(
                "data:text/html,<title>soon</title>",
                port: try NginxServer.freePort()
            )
            kill(process.processIdentifier, SIGINT)
            let document = await onOwnThread { out.fileHandleForReading.readDataToEndOfFile() }
            let ended = (try? await waitForExit(of: process, within: .seconds(10))) != nil
            if !ended { process.terminate() }
            #expect(ended && process.terminationReason == .exit && process.terminationStatus == 0,
                    "status \(process.terminationStatus), reason \(process.terminationReason.rawValue)")
            #expect(String(decoding: document, as: UTF8.self).contains("\"title\":\"soon\""))
        }
    }

    @Test func aTakenPortIsRefused() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let taken = try #require(nginx.url.port)
        let output = try CLI.run([
            "load", nginx.url.appendingPathComponent("index.html").absoluteString, "--inspect", "\(taken)",
        ])
        #expect(output.status == 71)
        #expect(output.stderr.contains("the inspector cannot listen on 127.0.0.1:\(taken): the port is in use"))
        let bad = try CLI.run(["load", "http://127.0.0.1:9/", "--inspect", "70000"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("the inspector port must be 1 to 65535"))
    }

    /// Starts `headway load URL --inspect PORT` and returns once it says the page is open for
    /// the inspector (or has ended), with its stdout pipe and what it said on stderr.
    nonisolated static func inspect(_ url: String, port: Int) async throws -> (Process, Pipe, String) {
        let out = Pipe(), err = Pipe()
        let process = try CLI.start(["load", url, "--inspect", "\(port)"], stdout: out, stderr: err)
        let said = await onOwnThread {
            var said = Data()
            let deadline = Date().addingTimeInterval(60)
            while !String(decoding: said, as: UTF8.self).contains("press Ctrl-C"), Date() < deadline {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said.append(chunk)
            }
            return String(decoding: said, as: UTF8.self)
        }
        return (process, out, said)
    }
}
