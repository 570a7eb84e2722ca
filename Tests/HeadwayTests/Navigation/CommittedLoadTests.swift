import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// `LoadCondition.committed` (WebDriver's page load strategy "none"): a load returns once its
/// navigation committed, without waiting for the document.
@Suite("Loads done at commit", .serialized)
@EngineActor
struct CommittedLoadTests {
    @Test func aLoadUntilCommitCompletesAtCommit() {
        let a = URL(string: "http://site.test/a")!
        var state = NavigationState()
        var completed: [NavigationLoad] = []
        var now = ContinuousClock.now
        for event: NavigationEvent in [.requested(a, completesAtDOMContentLoaded: false, completesAtCommit: true),
                                       .started(a)] {
            now += .milliseconds(10)
            let (next, effects) = NavigationTransition.transition(state, event, at: now)
            state = next
            for case .complete(let load) in effects { completed.append(load) }
        }
        #expect(completed.isEmpty)
        let (_, effects) = NavigationTransition.transition(state, .committed(a), at: now + .milliseconds(10))
        for case .complete(let load) in effects { completed.append(load) }
        #expect(completed.count == 1)
        #expect(completed.first?.error == nil)
        #expect(completed.first?.committed != nil)
        #expect(completed.first?.finished == nil)
    }

    @Test func aPageWhoseScriptNeverArrivesIsReturnedAtCommit() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/never.js", .hang)
        server.route("/stuck.html", .html("""
            <!doctype html><title>Stuck</title><p>before</p><script src="/never.js"></script><p>after</p>
            """))
        try await Browser.withPage { page in
            let url = server.url.appendingPathComponent("stuck.html")
            let result = try await page.load(url, until: .committed, timeout: .seconds(20))
            #expect(result.finalURL == url)
            #expect(result.status == 200)
            // The parser still waits for the script: no load event, no DOMContentLoaded.
            #expect(try await page.evaluate("document.readyState") == "loading")
            #expect(page.isLoading)
            // The page goes on to the next navigation as usual.
            let next = try await page.load(server.url.appendingPathComponent("second.html"), until: .committed)
            #expect(next.finalURL.lastPathComponent == "second.html")
            let full = try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(full.title == Fixtures.pageTitle)
        }
    }
}
