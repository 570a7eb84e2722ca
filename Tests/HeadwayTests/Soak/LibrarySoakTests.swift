import Foundation
import Headway
import HeadwayTestSupport
import Testing

// What a long run keeps, counted by loads (memory is counted, not timed): over 500 loads in one
// page, the process tree's PSS floor in the last 100 stays within 15% of its floor at 50-150.
@Suite("Soak: the library", .serialized)
@EngineActor
struct LibrarySoakTests {
    @Test func fiveHundredLoadsInOnePageKeepNoDocument() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/soak.html", .html(soakPage))
        let total = 500
        let soak = try await Browser.withPage { page in
            var soak = SoakSamples(total: total)
            for load in 1...total {
                let result = try await page.load(try #require(URL(string: "\(server.url)soak.html?i=\(load)")))
                try #require(result.status == 200)
                // A call through the isolated world's bridge into the page, as WebDriver's commands make.
                let title = try await page.callAsyncFunction(
                    "return await headwayPage.call('return document.title', [])", in: .isolated)
                try #require(title == "Soak")
                await soak.loadDone(load, pid: getpid())
            }
            return soak
        }
        print(soak)
        #expect(soak.growth.ratio <= 0.15, "\(soak)")
    }
}
