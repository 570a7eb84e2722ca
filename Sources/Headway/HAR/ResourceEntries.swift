import Foundation

// Joins what WebKit's UI process reported of a load's requests with the page's Resource Timing
// entries, into `ResourceEntry` values.
enum ResourceEntries {
    // `handlerWaits` are the booster's handler's own measures (the time to the response headers, by
    // URL): WebKit gives Resource Timing no phases or sizes for requests on the mirror schemes,
    // so those requests' timings come from the handler's clock and the UI process's (the end).
    static func join(_ requests: [NetworkActivity.Request], phases: [JSONValue], cacheHits: Set<URL>,
                     handlerWaits: [URL: Duration] = [:]) -> [ResourceEntry] {
        // Resource Timing names entries by the URL the page asked for; with the booster that is
        // the mirror URL. Each request takes the first unused entry of its URL.
        var byURL: [String: [JSONValue]] = [:]
        for entry in phases {
            guard let name = entry["name"]?.stringValue, let url = URL(string: name) else { continue }
            byURL[MirrorScheme.real(url).absoluteString, default: []].append(entry)
        }
        return requests.map { request in
            let key = request.url.absoluteString
            let phase: JSONValue? = byURL[key]?.isEmpty == false ? byURL[key]!.removeFirst() : nil
            func number(_ name: String) -> Double { phase?[name]?.doubleValue ?? 0 }
            func int(_ name: String) -> Int { phase?[name]?.intValue ?? 0 }
            if let wait = handlerWaits[request.url], number("responseStart") == 0 {
                return handled(request, wait: wait.milliseconds, fromCache: cacheHits.contains(request.url))
            }
            return ResourceEntry(
                url: request.url,
                method: request.method,
                startedDateTime: request.started,
                requestHeaders: request.requestHeaders,
                status: request.status,
                responseHeaders: request.responseHeaders,
                mimeType: request.mimeType,
                httpVersion: phase?["protocol"]?.stringValue ?? "",
                transferSize: int("transferSize"),
                encodedBodySize: int("encodedBodySize"),
                decodedBodySize: int("decodedBodySize"),
                timings: phase.map { _ in timings(number) },
                fromPrefetchCache: cacheHits.contains(request.url),
                failure: request.failure
            )
        }
    }

    // An entry for a request the booster's handler answered: `wait` from the handler's clock,
    // `receive` up to when WebKit reported the end, the size as WebKit knew it (or from
    // `Content-Length`).
    private static func handled(_ request: NetworkActivity.Request, wait: Double, fromCache: Bool) -> ResourceEntry {
        let total = request.ended.map { request.startedAt.duration(to: $0).milliseconds } ?? wait
        let length = request.contentLength > 0 ? request.contentLength
            : request.responseHeaders.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let timings = ResourceEntry.Timings(blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0,
                                           wait: max(0, wait), receive: max(0, total - wait))
        return ResourceEntry(url: request.url, method: request.method, startedDateTime: request.started,
                             requestHeaders: request.requestHeaders, status: request.status,
                             responseHeaders: request.responseHeaders, mimeType: request.mimeType,
                             encodedBodySize: length, decodedBodySize: length, timings: timings,
                             fromPrefetchCache: fromCache, failure: request.failure)
    }

    // HAR's phases from Resource Timing's marks (ms since the time origin): a phase whose marks
    // are missing (0) or out of order is -1, and `send` is 0 (the API has no request end).
    private static func timings(_ mark: (String) -> Double) -> ResourceEntry.Timings {
        func span(_ from: String, _ to: String) -> Double {
            let (start, end) = (mark(from), mark(to))
            return start > 0 && end >= start ? end - start : -1
        }
        let start = mark("startTime")
        let firstNetworkMark = ["domainLookupStart", "connectStart", "requestStart"].map(mark).first { $0 > 0 }
        let blocked = firstNetworkMark.map { $0 >= start ? $0 - start : -1 } ?? -1
        let dns = span("domainLookupStart", "domainLookupEnd")
        let connect = mark("connectEnd") > mark("connectStart") ? span("connectStart", "connectEnd") : -1
        let ssl = mark("secureConnectionStart") > 0 ? span("secureConnectionStart", "connectEnd") : -1
        var wait = span("requestStart", "responseStart")
        var receive = span("responseStart", "responseEnd")
        if wait < 0 && receive < 0 {
            // A cross-origin entry without Timing-Allow-Origin: only its start and end are known.
            let end = mark("responseEnd")
            wait = end >= start ? end - start : 0
            receive = 0
        }
        return ResourceEntry.Timings(blocked: blocked, dns: dns, connect: connect, ssl: ssl, send: 0,
                                     wait: max(wait, 0), receive: max(receive, 0))
    }
}
