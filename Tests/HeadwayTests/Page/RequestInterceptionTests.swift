import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `Page.setRequestInterceptor`: requests held in the web process until the interceptor decides,
/// checked by what the page saw and what nginx received.
@Suite("Request interception", .serialized)
struct RequestInterceptionTests {
    @Test func anInterceptorChangesFailsAndAnswersRequests() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.allowsRequestInterception = true
        configuration.recordsResources = true
        let seen = Seen()
        let (result, page) = try await Browser.withPage(configuration: configuration) { page in
            try page.setRequestInterceptor { _, held in
                seen.add(held)
                switch held.url.path {
                case "/style.css":
                    return .change(url: nil, headers: held.headers + [.init(name: "X-Headway-Test", value: "held")])
                case "/analytics.js":
                    return .respond(HeldResponse(headers: [.init(name: "Content-Type", value: "text/javascript")],
                                                 body: Data("window.analyticsRan = 'provided';".utf8)))
                case "/data.json": return .fail
                default: return .proceed
                }
            }
            let result = try await page.load(nginx.url.appendingPathComponent("index.html"))
            // The page fetches /data.json 300 ms after its load event.
            try await Task.sleep(for: .milliseconds(800))
            return (result, try await page.evaluate("[String(window.analyticsRan), String(window.fetched)]"))
        }
        #expect(page == ["provided", "undefined"])
        let held = seen.all
        #expect(held.map(\.url.path).starts(with: ["/index.html"]))
        #expect(held.contains { $0.url.path == "/data.json" && $0.page?.path == "/index.html" })
        #expect(held.first?.headers.contains { $0.name == "Accept" } == true)
        let requests = nginx.waitForRequests(count: 2)
        #expect(requests.first { $0.path == "/style.css" }?.testHeader == "held")
        #expect(!requests.map(\.path).contains("/analytics.js"))
        #expect(!requests.map(\.path).contains("/data.json"))
        // The answered script is reported under the URL the page asked for.
        let urls = (result.resourceEntries ?? []).map(\.url.absoluteString)
        #expect(urls.contains { $0.hasSuffix("/analytics.js") })
        #expect(!urls.contains { $0.hasPrefix("headway-response:") })
    }

    @Test func interceptionMustBeAllowedByTheBrowser() async throws {
        try await Browser.withPage { page in
            #expect(throws: HeadwayError.self) { try page.setRequestInterceptor { _, _ in .proceed } }
        }
    }

    @Test func removingTheInterceptorLetsRequestsGo() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.allowsRequestInterception = true
        let seen = Seen()
        try await Browser.withPage(configuration: configuration) { page in
            try page.setRequestInterceptor { _, held in
                seen.add(held)
                return .proceed
            }
            try page.setRequestInterceptor(nil)
            try await page.load(nginx.url.appendingPathComponent("next.html"))
        }
        #expect(seen.all.isEmpty)
        #expect(nginx.waitForRequests(count: 1).contains { $0.path == "/next.html" })
    }

    @Test func anAuthenticationHandlerAnswersChallenges() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: .init(extra: OptionsSite.nginxExtra(root: root)))
        defer { nginx.stop() }
        let secret = nginx.url.appendingPathComponent("secret/index.html")
        var results: [(status: Int?, challenges: [AuthChallenge])] = []
        for answer in [AuthAnswer.credentials(user: "ada", password: "lovelace"), .withoutCredentials] {
            let challenges = Challenges()
            let status = try await Browser.withPage { page in
                try page.setAuthenticationHandler { _, challenge in
                    challenges.add(challenge)
                    return answer
                }
                return try await page.load(secret).status
            }
            results.append((status, challenges.all))
        }
        #expect(results.map(\.status) == [200, 401])
        for (_, challenges) in results {
            let first = try #require(challenges.first)
            #expect(challenges.count == 1)
            #expect(first.url == secret && first.scheme == "Basic" && first.realm == "headway")
            #expect(!first.isProxy && !first.isRetry)
        }
    }

    @Test func aChallengeWebKitGivesUpCancelsItsHandler() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: .init(extra: OptionsSite.nginxExtra(root: root)))
        defer { nginx.stop() }
        let cancelled = Challenges()
        let beforeClose = try await Browser.withPage { page in
            try page.setAuthenticationHandler { _, challenge in
                // Never answers: it waits until its task is cancelled.
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
                cancelled.add(challenge)
                return .default
            }
            let secret = nginx.url.appendingPathComponent("secret/index.html")
            _ = try? await page.load(secret, timeout: .milliseconds(500))
            // Another navigation gives the challenge up.
            try await page.load(nginx.url.appendingPathComponent("next.html"))
            for _ in 0..<100 where cancelled.all.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            // Seen before the page closes (closing cancels every task of the page anyway).
            return cancelled.all.map(\.url.lastPathComponent)
        }
        #expect(beforeClose == ["index.html"])
    }

    /// The challenges a handler saw.
    final class Challenges: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [AuthChallenge] = []
        func add(_ challenge: AuthChallenge) { lock.withLock { seen.append(challenge) } }
        var all: [AuthChallenge] { lock.withLock { seen } }
    }

    /// The requests an interceptor saw.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [HeldRequest] = []
        func add(_ request: HeldRequest) { lock.withLock { requests.append(request) } }
        var all: [HeldRequest] { lock.withLock { requests } }
    }
}
