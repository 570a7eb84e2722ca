import Foundation
import Headway

// Headway's extensions under /session/{id}/headway/:
// - timing: the last navigation's LoadResult as `headway load` prints it (url, finalURL, status,
//   title, timing, resources, prefetch, redirects, dialogs), or null before the first navigation;
// - booster: the booster's PrefetchRunStats so far, or null when the session has no booster;
// - har: a HAR 1.2 log of the session's navigations; needs "headway:options": {"har": true}.
extension Handlers {
    static let headway: [Command: Handler] = [
        .headwayTiming: { session, _ in
            guard let load = session.lastLoad else { return .null }
            return try await HeadwayJSON.value(of: load)
        },
        .headwayBoosterStats: { session, _ in
            guard let stats = session.browser.prefetchStats else { return .null }
            return try await HeadwayJSON.value(of: stats)
        },
        .headwayHAR: { session, _ in
            guard session.browser.configuration.recordsResources else {
                throw WebDriverError(.unsupportedOperation, "this session records no requests: start it with "
                    + "\"headway:options\": {\"har\": true} to export a HAR log")
            }
            try await session.refreshLastLoadEntries()
            return try await HeadwayJSON.value(of: HARLog(loads: session.loads))
        },
        .headwayFilmstrip: { session, _ in
            guard session.capabilities.options.filmstrip != nil else {
                throw WebDriverError(.unsupportedOperation, "this session records no frames: start it with "
                    + "\"headway:options\": {\"filmstrip\": {\"framesPerSecond\": 10}}")
            }
            guard let (handle, url, strip, metrics) = session.lastFilmstrip else { return .null }
            // The frames' base64 is made off the engine thread: a filmstrip can be tens of MB.
            let frames = await Task.detached {
                strip.frames.map { JSONValue.object(["time": .number(Double($0.time)),
                                                     "png": .string($0.pngData.base64EncodedString())]) }
            }.value
            return ["context": .string(handle), "url": .string(url.absoluteString),
                    "visualMetrics": try await HeadwayJSON.value(of: metrics),
                    "width": .number(Double(strip.width)), "height": .number(Double(strip.height)),
                    "frames": .array(frames)]
        },
    ]
}

extension Session {
    // The requests the current page's scripts made after its load belong to that load's HAR page:
    // taken again while the window still shows the document the last navigation loaded.
    func refreshLastLoadEntries() async throws {
        guard var last = loads.last, let page = try? currentPage(), page.url == last.finalURL else { return }
        guard let entries = try? await page.resourceEntries(), entries.count >= (last.resourceEntries?.count ?? 0)
        else { return }
        last.resourceEntries = entries
        loads[loads.count - 1] = last
    }
}

// The library's Codable results as the JSON values commands answer: one encoder for all of them,
// off the engine thread (a session's HAR may hold thousands of requests).
enum HeadwayJSON {
    static func value(of value: some Encodable & Sendable) async throws -> JSONValue {
        try await Task.detached {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
        }.value
    }
}
