import Foundation

// The requests a page has in flight, as WebKit reports its resources starting and ending, and
// when that last changed (what "network idle" is measured on); with `recording` on, what each
// request and its response were, for the load's resource entries.
@EngineActor
final class NetworkActivity {
    // What WebKit reported of one request and its response.
    struct Request {
        var url: URL
        var method: String
        // When it started: by the wall clock for HAR's `startedDateTime`, and on Headway's clock.
        var started: Date
        var requestHeaders: [ResourceEntry.Header]
        var startedAt = Engine.now()
        var status = 0
        var responseHeaders: [ResourceEntry.Header] = []
        var mimeType = ""
        // The response body's length as WebKit knows it, or 0.
        var contentLength = 0
        var failure: String?
        // When WebKit reported it finished or failed.
        var ended: ContinuousClock.Instant?
    }

    // The most requests kept per load (and cache hits per view): a page that makes more keeps
    // the first ones, so long runs stay flat.
    nonisolated static let keptRecords = 10_000

    // The requests in flight, by resource, with their URLs.
    private var inFlight: [UInt: URL] = [:]
    // When a request last started or ended.
    private(set) var lastChange = Engine.now()
    // Keep `requests` (off unless the browser records resources).
    var recording = false
    // The current load's requests in the order they started.
    private(set) var requests: [Request] = []
    private var index: [UInt: Int] = [:]

    var requestsInFlight: Int { inFlight.count }
    // The requests started since the last reset, the document's own included.
    private(set) var startedCount = 0

    func started(_ resource: UInt, url: URL, _ request: @autoclosure () -> Request) {
        inFlight[resource] = url
        startedCount += 1
        lastChange = Engine.now()
        guard recording, requests.count < Self.keptRecords else { return }
        index[resource] = requests.count
        requests.append(request())
    }

    // `resource` ended with `response` (status, headers, MIME type, body length), or failed
    // with `failure`.
    func ended(_ resource: UInt, response: (Int, [ResourceEntry.Header], String, Int)?, failure: String?) {
        if let position = index.removeValue(forKey: resource) {
            if let (status, headers, mimeType, length) = response {
                requests[position].status = status
                requests[position].responseHeaders = headers
                requests[position].mimeType = mimeType
                requests[position].contentLength = length
            }
            requests[position].failure = failure
            requests[position].ended = Engine.now()
        }
        guard inFlight.removeValue(forKey: resource) != nil else { return }
        lastChange = Engine.now()
    }

    // A new navigation: requests of the page being left no longer count.
    func reset() {
        inFlight.removeAll()
        requests.removeAll()
        index.removeAll()
        startedCount = 0
        lastChange = Engine.now()
    }

    // Whether a request whose URL, as `key` gives it, is one of `keys` is in flight.
    func isLoading(anyOf keys: Set<String>, key: (URL) -> String) -> Bool {
        inFlight.values.contains { keys.contains(key($0)) }
    }

    // How long since the network was last busy, or nil while a request is in flight.
    var idleFor: Duration? {
        inFlight.isEmpty ? lastChange.duration(to: Engine.now()) : nil
    }
}
