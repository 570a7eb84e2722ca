import Foundation
import Headway

/// The fixture server plus a page whose links go where no prefetch should wait: `/slow.html`
/// links, on a `MisbehavingServer` of the same host, one request that drips a byte every 10 s
/// (`/drip`) and five that are accepted and never answered (`/hang1`…`/hang5`), then the
/// fixture's `/second.html`.
public struct SlowSite: Sendable {
    public static let slow = ["/drip"] + (1...5).map { "/hang\($0)" }
    public let server: HTTPServer
    public let stalling: MisbehavingServer

    @EngineActor
    public init() throws {
        server = try Fixtures.server()
        stalling = try MisbehavingServer(dripInterval: 10, othersAreSilent: true)
        let links =
            Self.slow.map { stalling.url.appendingPathComponent(String($0.dropFirst())).absoluteString } + [
                "/second.html"
            ]
        server.route(
            "/slow.html",
            .html(
                "<!doctype html><title>Slow links</title>"
                    + links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: " ")
            )
        )
    }

    @EngineActor
    public var page: URL { server.url.appendingPathComponent("slow.html") }

    @EngineActor
    public func stop() {
        server.stop()
        stalling.stop()
    }
}
