import Foundation
import Headway

// Network data collectors (network.addDataCollector, getData, disownData, removeDataCollector):
// while a collector covers a window, the body of each response of its requests is read from
// WebKit as the request ends (`Page.responseBody`) and kept until every collector that took it
// lets it go, at most 64 MiB in all (the oldest go first, and are then `unavailable network
// data`), and at most 10,000 requests' (the oldest forgotten). WebKit keeps no body for fetch()
// and XMLHttpRequest responses; those are unavailable.
// Bodies are WebKit's decoded ones, and `maxEncodedDataSize` bounds that size.
@EngineActor
final class BiDiDataCollectors {
    struct Collector {
        let id: String
        let most: Int
        let contexts: Set<String>?
        let userContexts: Set<String>?
    }

    // A request's body: being read (`task`, which holds the request and its page until it ends),
    // then read (`body`; nil: WebKit had none, or it was dropped to keep the bound).
    private struct Entry {
        var collectors: Set<String>
        var task: Task<Void, Never>?
        var body: Data?
        var size = 0
    }

    static let mostCollectors = 100
    static let mostBytes = 64 << 20
    static let mostEntries = 10_000
    private(set) var collectors: [Collector] = []
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var bytes = 0

    func add(_ collector: Collector) throws {
        guard collectors.count < Self.mostCollectors else {
            throw BiDiError(.unsupportedOperation, "a session has at most \(Self.mostCollectors) data collectors")
        }
        collectors.append(collector)
    }

    func remove(_ id: String) throws {
        guard collectors.contains(where: { $0.id == id }) else {
            throw BiDiError(.noSuchNetworkCollector, "no data collector has the id \(id)")
        }
        collectors.removeAll { $0.id == id }
        var gone: Set<String> = []
        for (key, var entry) in entries where entry.collectors.remove(id) != nil {
            if entry.collectors.isEmpty {
                gone.insert(key)
                bytes -= entry.size
                entries[key] = nil
            } else {
                entries[key] = entry
            }
        }
        if !gone.isEmpty { order.removeAll { gone.contains($0) } }
    }

    // A request of the window `handle` ended with a response: its body is read for the
    // collectors that cover the window.
    func ended(_ request: ResourceRequest, id: String, page: Page, handle: String, userContext: String) {
        let covering = collectors.filter {
            ($0.contexts?.contains(handle) ?? true) && ($0.userContexts?.contains(userContext) ?? true)
        }
        guard !covering.isEmpty, entries[id] == nil else { return }
        if order.count >= Self.mostEntries, let oldest = order.first {
            bytes -= entries[oldest]?.size ?? 0
            entries[oldest] = nil
            order.removeFirst()
        }
        let task = Task { @EngineActor [weak self] in
            let body = try? await page.responseBody(of: request)
            self?.read(id, body, limits: covering)
        }
        entries[id] = Entry(collectors: Set(covering.map(\.id)), task: task)
        order.append(id)
    }

    func checkCollector(_ collector: String) throws {
        guard collectors.contains(where: { $0.id == collector }) else {
            throw BiDiError(.noSuchNetworkCollector, "no data collector has the id \(collector)")
        }
    }

    // Throws unless `collector` (or any) took the body of `request`.
    func check(_ request: String, collector: String?) throws {
        if let collector { try checkCollector(collector) }
        guard let entry = entries[request], collector.map(entry.collectors.contains) ?? true else {
            throw BiDiError(.noSuchNetworkData, "no collector took the response body of the request \(request)")
        }
    }

    // The body of `request` as `collector` (or any) took it, once read.
    func data(_ request: String, collector: String?) async throws -> Data {
        try check(request, collector: collector)
        if let task = entries[request]?.task { await task.value }
        // The read may have left the collector out (the body beyond its bound).
        try check(request, collector: collector)
        guard let body = entries[request]?.body else {
            throw BiDiError(.unavailableNetworkData, "the response body of the request \(request) is not available: "
                + "WebKit keeps none for fetch() and XMLHttpRequest responses, and the oldest go past 64 MiB")
        }
        return body
    }

    func disown(_ request: String, by collector: String) {
        guard var entry = entries[request], entry.collectors.remove(collector) != nil else { return }
        if entry.collectors.isEmpty {
            entries[request] = nil
            order.removeAll { $0 == request }
            bytes -= entry.size
        } else {
            entries[request] = entry
        }
    }

    // Keeps a body read for the collectors whose bound it fits, dropping the oldest past the total.
    private func read(_ id: String, _ body: Data?, limits: [Collector]) {
        guard var entry = entries[id] else { return }
        entry.task = nil
        let size = body?.count ?? 0
        entry.collectors.formIntersection(limits.filter { size <= $0.most }.map(\.id))
        guard !entry.collectors.isEmpty else {
            entries[id] = nil
            order.removeAll { $0 == id }
            return
        }
        entry.size = size
        entry.body = body
        entries[id] = entry
        bytes += size
        var index = 0
        while bytes > Self.mostBytes, index < order.count {
            let oldest = order[index]
            if var old = entries[oldest], old.body != nil, old.size > 0 {
                old.body = nil
                bytes -= old.size
                old.size = 0
                entries[oldest] = old
            }
            index += 1
        }
    }
}

extension BiDiDataCollectors {
    static let handlers: [String: BiDiHandler] = [
        "network.addDataCollector": { call in
            let types = try call.parameters.array("dataTypes").map { $0.stringValue ?? "" }
            guard !types.isEmpty, types.allSatisfy({ $0 == "response" || $0 == "request" }) else {
                throw BiDiError(.invalidArgument,
                                "\"dataTypes\" must be a non-empty list of \"response\" or \"request\"")
            }
            guard !types.contains("request") else {
                throw BiDiError(.unsupportedOperation, "headway collects response bodies: WebKit gives no request body")
            }
            guard let most = call.parameters.body["maxEncodedDataSize"]?.integer(in: 1...mostBytes) else {
                throw BiDiError(.invalidArgument, "\"maxEncodedDataSize\" must be an integer from 1 to \(mostBytes)")
            }
            if let type = try call.parameters.optionalString("collectorType"), type != "blob" {
                throw BiDiError(.invalidArgument, "\"collectorType\" must be \"blob\"")
            }
            let userContexts = try call.userContextList("userContexts")
            let contexts = try call.contextList()
            let id = UUID().uuidString.lowercased()
            try call.events.collectors.add(Collector(id: id, most: most, contexts: contexts,
                                                     userContexts: userContexts.map(Set.init)))
            return ["collector": .string(id)]
        },
        "network.removeDataCollector": { call in
            try call.events.collectors.remove(try call.parameters.string("collector"))
            return [:]
        },
        "network.getData": { call in
            try dataType(call)
            let request = try call.parameters.string("request")
            let collector = try call.parameters.optionalString("collector")
            let disown = try call.parameters.optionalBool("disown") ?? false
            if disown, collector == nil {
                throw BiDiError(.invalidArgument, "\"disown\": true needs the \"collector\" that lets the data go")
            }
            let body = try await call.events.collectors.data(request, collector: collector)
            if disown, let collector { call.events.collectors.disown(request, by: collector) }
            if let text = String(data: body, encoding: .utf8) {
                return ["bytes": ["type": "string", "value": .string(text)]]
            }
            return ["bytes": ["type": "base64", "value": .string(body.base64EncodedString())]]
        },
        "network.disownData": { call in
            try dataType(call)
            let request = try call.parameters.string("request")
            let collector = try call.parameters.string("collector")
            // As the spec says: an unknown collector is an error, data it did not take is not.
            try call.events.collectors.checkCollector(collector)
            call.events.collectors.disown(request, by: collector)
            return [:]
        },
    ]

    private static func dataType(_ call: BiDiCall) throws {
        let type = try call.parameters.string("dataType")
        guard type == "response" else {
            throw BiDiError(type == "request" ? .unsupportedOperation : .invalidArgument,
                            "headway collects \"response\" data only, not \"\(type)\"")
        }
    }
}
