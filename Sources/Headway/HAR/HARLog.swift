import CWebKit
import Foundation

/// A HAR 1.2 document (HTTP Archive) of loads recorded with
/// `Browser.Configuration.recordsResources`: one page per load, one entry per request. It opens
/// in HAR viewers (browser developer tools, har-viewers); encode it with any JSON encoder.
///
/// ```swift
/// let har = HARLog(loads: results)
/// try JSONEncoder().encode(har).write(to: URL(fileURLWithPath: "run.har"))
/// ```
public struct HARLog: Sendable, Encodable {
    /// The loads, in order; a load without `resourceEntries` becomes a page with no entries.
    public var loads: [LoadResult]

    /// A log of `loads`.
    public init(loads: [LoadResult]) {
        self.loads = loads
    }

    private enum Keys: String, CodingKey {
        case log, version, creator, name, pages, entries, startedDateTime, id, title, pageTimings, onContentLoad, onLoad
        case pageref, time, request, response, cache, timings, serverIPAddress, _fromCache
        case method, url, httpVersion, cookies, headers, queryString, headersSize, bodySize
        case status, statusText, content, size, mimeType, redirectURL, _transferSize, _error, value, comment
        case blocked, dns, connect, ssl, send, wait, receive
    }

    /// Writes `{"log": {...}}` as HAR 1.2 defines it. Sizes Headway cannot know are -1;
    /// `_fromCache` is "prefetch" on entries the booster answered from its cache.
    public func encode(to encoder: Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        var log = root.nestedContainer(keyedBy: Keys.self, forKey: .log)
        try log.encode("1.2", forKey: .version)
        var creator = log.nestedContainer(keyedBy: Keys.self, forKey: .creator)
        try creator.encode("Headway", forKey: .name)
        try creator.encode(Headway.version, forKey: .version)
        var pages = log.nestedUnkeyedContainer(forKey: .pages)
        for (index, load) in loads.enumerated() {
            var page = pages.nestedContainer(keyedBy: Keys.self)
            try page.encode(Self.date(load.resourceEntries?.first?.startedDateTime ?? Date()), forKey: .startedDateTime)
            try page.encode("page_\(index + 1)", forKey: .id)
            try page.encode(load.title, forKey: .title)
            var timings = page.nestedContainer(keyedBy: Keys.self, forKey: .pageTimings)
            try timings.encode(
                Self.ms(load.timing.domContentLoadedEventEnd > 0 ? load.timing.domContentLoadedEventEnd : -1),
                forKey: .onContentLoad
            )
            try timings.encode(Self.ms(load.timing.loadEventEnd > 0 ? load.timing.loadEventEnd : -1), forKey: .onLoad)
        }
        var entries = log.nestedUnkeyedContainer(forKey: .entries)
        for (index, load) in loads.enumerated() {
            for entry in load.resourceEntries ?? [] {
                try Self.encode(entry, page: "page_\(index + 1)", into: entries.nestedContainer(keyedBy: Keys.self))
            }
        }
    }

    // Milliseconds as the HAR file has them: rounded to three decimals.
    private static func ms(_ value: Double) -> Double { JSONMilliseconds.rounded(value) }

    private static func encode(
        _ entry: ResourceEntry,
        page: String,
        into container: KeyedEncodingContainer<Keys>
    ) throws {
        var c = container
        let timings =
            entry.timings
            ?? ResourceEntry.Timings(blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0)
        let version = entry.httpVersion.isEmpty ? "" : entry.httpVersion.uppercased()
        try c.encode(page, forKey: .pageref)
        try c.encode(date(entry.startedDateTime), forKey: .startedDateTime)
        try c.encode(ms(timings.total), forKey: .time)
        var request = c.nestedContainer(keyedBy: Keys.self, forKey: .request)
        try request.encode(entry.method, forKey: .method)
        try request.encode(entry.url.absoluteString, forKey: .url)
        try request.encode(version, forKey: .httpVersion)
        try request.encode([String](), forKey: .cookies)
        try encode(entry.requestHeaders, into: request.nestedUnkeyedContainer(forKey: .headers))
        var query = request.nestedUnkeyedContainer(forKey: .queryString)
        for item in URLComponents(url: entry.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            var pair = query.nestedContainer(keyedBy: Keys.self)
            try pair.encode(item.name, forKey: .name)
            try pair.encode(item.value ?? "", forKey: .value)
        }
        try request.encode(-1, forKey: .headersSize)
        try request.encode(entry.method == "GET" || entry.method == "HEAD" ? 0 : -1, forKey: .bodySize)
        var response = c.nestedContainer(keyedBy: Keys.self, forKey: .response)
        try response.encode(entry.status, forKey: .status)
        // libsoup's phrase for the status ("Not Found"): WebKit does not pass the server's own on.
        let phrase =
            entry.status > 0 ? soup_status_get_phrase(guint(entry.status)).map { String(cString: $0) } ?? "" : ""
        try response.encode(phrase, forKey: .statusText)
        try response.encode(version, forKey: .httpVersion)
        try response.encode([String](), forKey: .cookies)
        try encode(entry.responseHeaders, into: response.nestedUnkeyedContainer(forKey: .headers))
        var content = response.nestedContainer(keyedBy: Keys.self, forKey: .content)
        try content.encode(entry.decodedBodySize, forKey: .size)
        try content.encode(entry.mimeType, forKey: .mimeType)
        let location = entry.responseHeaders.first { $0.name.lowercased() == "location" }?.value ?? ""
        try response.encode(location, forKey: .redirectURL)
        try response.encode(-1, forKey: .headersSize)
        try response.encode(
            entry.encodedBodySize > 0 || entry.status == 0 ? entry.encodedBodySize : -1,
            forKey: .bodySize
        )
        try response.encode(entry.transferSize, forKey: ._transferSize)
        if let failure = entry.failure { try response.encode(failure, forKey: ._error) }
        _ = c.nestedContainer(keyedBy: Keys.self, forKey: .cache)
        var phases = c.nestedContainer(keyedBy: Keys.self, forKey: .timings)
        try phases.encode(ms(timings.blocked), forKey: .blocked)
        try phases.encode(ms(timings.dns), forKey: .dns)
        try phases.encode(ms(timings.connect), forKey: .connect)
        try phases.encode(ms(timings.ssl), forKey: .ssl)
        try phases.encode(ms(timings.send), forKey: .send)
        try phases.encode(ms(timings.wait), forKey: .wait)
        try phases.encode(ms(timings.receive), forKey: .receive)
        if entry.fromPrefetchCache { try c.encode("prefetch", forKey: ._fromCache) }
    }

    private static func encode(_ headers: [ResourceEntry.Header], into container: UnkeyedEncodingContainer) throws {
        var list = container
        for header in headers {
            var pair = list.nestedContainer(keyedBy: Keys.self)
            try pair.encode(header.name, forKey: .name)
            try pair.encode(header.value, forKey: .value)
        }
    }

    // ISO 8601 with milliseconds, as HAR wants: "2026-11-22T18:40:00.123Z".
    private static func date(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }
}
