import Foundation

/// The requests a page has in flight, as WebKit reports its resources starting and ending, and
/// when that last changed: what "network idle" is measured on.
@EngineActor
final class NetworkActivity {
    private var inFlight = Set<UInt>()
    /// Monotonic ms of the last request that started or ended.
    private(set) var lastChange = Engine.now()

    var requestsInFlight: Int { inFlight.count }

    func started(_ resource: UInt) {
        inFlight.insert(resource)
        lastChange = Engine.now()
    }

    func ended(_ resource: UInt) {
        guard inFlight.remove(resource) != nil else { return }
        lastChange = Engine.now()
    }

    /// A new navigation: requests of the page being left no longer count.
    func reset() {
        inFlight.removeAll()
        lastChange = Engine.now()
    }

    /// Milliseconds since the network was last busy, or nil while a request is in flight.
    var idleFor: Double? {
        inFlight.isEmpty ? Engine.now() - lastChange : nil
    }
}
