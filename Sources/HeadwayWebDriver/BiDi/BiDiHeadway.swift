import Foundation
import Headway

// The vendor module `headway:` (named as the spec's extension modules are): what only Headway
// has, over BiDi. Commands: `headway:load.timing` (a context's latest navigation as `headway
// load` reports it: timing, resources, whether the booster prefetched or prerendered it) and
// `headway:booster.stats`. Events: `headway:load.measured`, that result for each navigation;
// `headway:booster.prefetched`, each request the booster made ahead of a page (Headway's own: no
// context made it, so it is no network event), with the context showing that page if any;
// `headway:booster.served`, each request of a context the booster answered from its cache (under
// the id of its network events); `headway:booster.prerendered`, each navigation of a context that
// showed a page the booster had prerendered.
@EngineActor
enum BiDiHeadway {
    static let handlers: [String: BiDiHandler] = [
        "headway:load.timing": { call in
            let (handle, page) = try call.context(frameError: .unsupportedOperation)
            guard let load = page.latestLoad,
                  load != call.session.windows.first(where: { $0.handle == handle })?.loadBefore else { return .null }
            return try await HeadwayJSON.value(of: load)
        },
        "headway:booster.stats": { call in
            guard let stats = call.session.browser.prefetchStats else { return .null }
            return try await HeadwayJSON.value(of: stats)
        },
    ]
}

extension BiDiEvents {
    // A navigation of the window `handle` measured: `headway:load.measured`.
    func loadMeasured(_ result: LoadResult, handle: String) {
        let navigation = navigations[handle]
        if result.prefetch?.prerendered == true, !result.isSameDocument {
            emit("headway:booster.prerendered", [
                "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null,
                "url": .string(result.url.absoluteString), "timestamp": Self.now,
            ], context: handle)
        }
        guard isSubscribed("headway:load.measured", context: handle) else { return }
        Task { @EngineActor [weak self] in
            guard let json = try? await HeadwayJSON.value(of: result) else { return }
            self?.emit("headway:load.measured", [
                "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null, "result": json,
            ], context: handle)
        }
    }

    // A navigation of the window `handle` recorded with "filmstrip": `headway:load.filmstrip`, its
    // visual metrics (the frames are at GET /session/{id}/headway/filmstrip).
    func filmstripRecorded(_ result: LoadResult, handle: String) {
        guard isSubscribed("headway:load.filmstrip", context: handle), let metrics = result.visualMetrics else {
            return
        }
        // The task keeps what the event says, not the frames.
        let navigation = navigations[handle], url = result.url.absoluteString
        let frames = result.filmstrip?.frames.count ?? 0
        Task { @EngineActor [weak self] in
            guard let json = try? await HeadwayJSON.value(of: metrics) else { return }
            self?.emit("headway:load.filmstrip", [
                "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null,
                "url": .string(url), "visualMetrics": json, "frames": .number(Double(frames)),
            ], context: handle)
        }
    }

    // A request of the window `handle` the booster answered from its cache.
    func served(_ request: ResourceRequest, id: String, handle: String, navigation: String?) {
        emit("headway:booster.served", [
            "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null,
            "request": .string(id), "url": .string(request.url.absoluteString),
            "status": request.response.map { .number(Double($0.status)) } ?? .null,
            "bytes": .number(Double(request.response?.contentLength ?? 0)), "timestamp": Self.now,
        ], context: handle)
    }

    // Reads the booster's reports while the session lives (a session without a booster has none).
    func watchBooster(_ session: Session) {
        guard boosterReader == nil, let reports = session.browser.prefetchReports() else { return }
        boosterReader = Task { @EngineActor [weak self, weak session] in
            for await report in reports {
                guard let self, let session else { return }
                let handle = session.windows.first { $0.page.url.map(Self.withoutFragment)
                    == Self.withoutFragment(report.page) }?.handle
                self.emit("headway:booster.prefetched", [
                    "context": handle.map(JSONValue.string) ?? .null, "url": .string(report.url.absoluteString),
                    "page": .string(report.page.absoluteString), "isPage": .bool(report.isPage),
                    "status": report.status.map { .number(Double($0)) } ?? .null,
                    "bytes": .number(Double(report.bytes)), "timestamp": Self.now,
                ], context: handle)
            }
        }
    }
}
