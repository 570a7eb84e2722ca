import CWebKit
import Foundation

extension Page {
    // Builds the LoadResult of a finished navigation from the timing probe's answer.
    func collectResult(_ record: NavigationTracker.Record, probe page: JSONValue) throws -> LoadResult {
        let view = try liveView()
        let finalURL = record.finalURL ?? realURI(of: view) ?? URL(string: "about:blank")!
        if finalURL.absoluteString == "about:blank", let requested = record.requested,
           requested.absoluteString != "about:blank" {
            // WebKit ends a load it refuses (a blocked port, for one) on about:blank without an error.
            throw HeadwayError(
                .blockedURL,
                "WebKit refused to load \(requested.absoluteString) (blocked port or scheme); it ended on about:blank"
            )
        }
        var status: Int?
        if let resource = webkit_web_view_get_main_resource(view),
           let response = webkit_web_resource_get_response(resource) {
            let code = Int(webkit_uri_response_get_status_code(response))
            if code > 0, ["http", "https"].contains(finalURL.scheme?.lowercased()) { status = code }
        }
        let timing = Timing(
            started: record.started ?? .zero,
            committed: record.committed ?? .zero,
            finished: record.finished ?? .zero,
            responseStart: page["responseStart"]?.doubleValue ?? 0,
            domInteractive: page["domInteractive"]?.doubleValue ?? 0,
            domContentLoadedEventEnd: page["domContentLoadedEventEnd"]?.doubleValue ?? 0,
            loadEventEnd: page["loadEventEnd"]?.doubleValue ?? 0,
            firstContentfulPaint: page["fcp"]?.doubleValue)
        var resources = ResourceSummary(
            count: page["count"]?.intValue ?? 0,
            transferBytes: page["transferBytes"]?.intValue ?? 0,
            encodedBytes: page["encodedBytes"]?.intValue ?? 0,
            blocked: record.blocked)
        if page["bufferFull"]?.boolValue == true {
            // The page's Resource Timing buffer dropped entries: count what Headway saw start,
            // the document itself left out.
            resources.truncated = true
            resources.count = max(resources.count, network.startedCount - 1)
        }
        let title = page["title"]?.stringValue ?? webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
        let prefetch = booster?.prefetches == true ? pageBooster?.stats ?? PrefetchLoadStats() : nil
        if prefetch?.hit == true { booster?.countHit() }
        var result = LoadResult(url: record.requested ?? finalURL, finalURL: finalURL, status: status, title: title,
                                timing: timing, resources: resources, prefetch: prefetch, redirects: record.redirects,
                                dialogs: dialogs)
        result.startTime = .now(minus: record.origin.duration(to: Engine.now()))
        if network.recording {
            let phases: [JSONValue] = if case .array(let list)? = page["entries"] { list } else { [] }
            let entries = resourceEntries(phases: phases, view: view)
            if browser?.configuration.recordsResources == true { result.resourceEntries = entries }
            if pageBooster != nil { result.resources.handle(handledResources(entries, record: record)) }
        }
        return result
    }
}
