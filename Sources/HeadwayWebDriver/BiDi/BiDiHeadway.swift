import Foundation
import Headway

// The vendor module `headway:` (named as the spec's extension modules are): what only Headway
// has, over BiDi. Commands: `headway:load.timing` (a context's latest navigation as `headway
// load` reports it: timing, resources, whether the booster prefetched or prerendered it) and
// `headway:booster.stats`. Event: `headway:load.measured`, that result for each navigation.
@EngineActor
enum BiDiHeadway {
    static let handlers: [String: BiDiHandler] = [
        "headway:load.timing": { call in
            let (handle, page) = try call.context()
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
        guard isSubscribed("headway:load.measured", context: handle) else { return }
        let navigation = navigations[handle]
        Task { @EngineActor [weak self] in
            guard let json = try? await HeadwayJSON.value(of: result) else { return }
            self?.emit("headway:load.measured", [
                "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null, "result": json,
            ], context: handle)
        }
    }
}
