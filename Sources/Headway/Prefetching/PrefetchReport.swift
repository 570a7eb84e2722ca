public import Foundation

/// One request the booster made ahead of a page, once it ended, as `Browser.prefetchReports()`
/// gives it. These requests are Headway's own: no page made them, so no `NavigationDelegate`
/// sees them.
public struct PrefetchReport: Sendable, Equatable {
    /// The URL fetched.
    public var url: URL
    /// The page whose links it was fetched for.
    public var page: URL
    /// Whether it was a linked page (or a subresource of one).
    public var isPage: Bool
    /// The response's status, or nil when none was kept (refused for a limit, failed, not storable).
    public var status: Int?
    /// The body's bytes kept in the cache, 0 without a response.
    public var bytes: Int
}

// Who listens to a browser's prefetch reports.
@EngineActor
final class PrefetchReporters {
    private var sinks: [UUID: AsyncStream<PrefetchReport>.Continuation] = [:]

    var isEmpty: Bool { sinks.isEmpty }

    private var finished = false

    func stream() -> AsyncStream<PrefetchReport> {
        // A listener that does not read keeps the latest 1000.
        let (stream, sink) = AsyncStream<PrefetchReport>.makeStream(bufferingPolicy: .bufferingNewest(1000))
        // The browser closed: nothing more comes.
        guard !finished else {
            sink.finish()
            return stream
        }
        let id = UUID()
        sinks[id] = sink
        sink.onTermination = { _ in Task { @EngineActor [weak self] in self?.sinks[id] = nil } }
        return stream
    }

    func report(_ report: PrefetchReport) {
        for sink in sinks.values { sink.yield(report) }
    }

    func finish() {
        finished = true
        for sink in sinks.values { sink.finish() }
        sinks.removeAll()
    }
}
