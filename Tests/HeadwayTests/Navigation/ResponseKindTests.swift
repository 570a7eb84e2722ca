import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Responses that are not an ordinary page: an authentication challenge, no content, a download.
/// Each is reported at once with its status, never as a timeout.
@Suite("Responses that are not pages", .serialized)
@EngineActor
struct ResponseKindTests {
    @Test func anAuthenticationChallengeIsReportedAsItsStatus() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("private"), timeout: .seconds(20))
            #expect(result.status == 401)
            #expect(result.title == "Unauthorized")
            #expect(server.requestCount(path: "/private") == 1)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }

    struct NotAPage: Sendable, CustomTestStringConvertible {
        var path: String
        var status: Int
        var message: String
        var testDescription: String { path }
    }

    nonisolated static let notPages = [
        NotAPage(path: "/nocontent", status: 204, message: "the server answered 204 No Content for"),
        NotAPage(path: "/notmodified", status: 304, message: "the server answered 304 Not Modified for"),
        // Through the booster's scheme, WebKit drops the response's HTTP headers: the reason then
        // names the type only.
        NotAPage(path: "/file.zip", status: 200, message: "file.zip is a download (application/zip"),
        NotAPage(path: "/blob", status: 200, message: "blob is a download (application/octet-stream), not a page"),
    ]

    @Test(arguments: notPages, [false, true])
    func aResponseThatIsNoPageFailsWithWhatTheServerSent(_ item: NotAPage, boosted: Bool) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        let configuration = boosted ? BoosterSite.configuration() : Browser.Configuration()
        try await Browser.withPage(configuration: configuration, delegate: delegate) { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(
                    server.url.appendingPathComponent(String(item.path.dropFirst())),
                    timeout: .seconds(20)
                )
            }
            #expect(error?.code == .notAPage)
            #expect(error?.status == item.status)
            #expect(error?.message.contains(item.message) == true, "\(error?.message ?? "")")
            #expect(delegate.calls.contains("failed \(item.path)"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }
}
