import Foundation
import Headway

// A BiDi session's subscriptions (https://w3c.github.io/webdriver-bidi/#subscriptions), and the
// log entries of windows no subscription covered when they came (the spec's event buffer: a
// later subscription to log.entryAdded that covers the window gets them first, once).
@EngineActor
final class BiDiSubscriptions {
    struct Subscription {
        let id: String
        let events: Set<String>
        // Top-level contexts (window handles); nil: every context.
        let contexts: Set<String>?
    }

    static let most = 1000
    // Entries kept for a window, and their bytes: the oldest go past either; a closed window's
    // go with it.
    static let bufferedPerWindow = 1000
    static let bufferedBytesPerWindow = 1 << 20
    static let bufferedEvent = "log.entryAdded"

    private(set) var list: [Subscription] = []
    private var buffered: [String: (texts: [String], bytes: Int)] = [:]

    // The window a context id belongs to: a frame's (ContextID) is its top-level context's.
    static func window(of context: String) -> String { ContextID(context)?.handle ?? context }

    func add(_ events: Set<String>, contexts: Set<String>?) throws(BiDiError) -> String {
        guard list.count < Self.most else {
            throw BiDiError(.invalidArgument, "the session has \(Self.most) subscriptions: end some first")
        }
        let id = UUID().uuidString.lowercased()
        list.append(Subscription(id: id, events: events, contexts: contexts))
        return id
    }

    // Removes the subscriptions with these ids; throws, and removes none, when one is unknown.
    func remove(ids: [String]) throws(BiDiError) {
        let known = Set(list.map(\.id))
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw BiDiError(.invalidArgument, "no subscription has the id \(unknown)")
        }
        list.removeAll { ids.contains($0.id) }
    }

    // The older form of session.unsubscribe: ends `events` globally. Each must be subscribed to
    // globally, else nothing changes. `contexts` (dropped from the spec; older clients and WPT's
    // 2024 fixtures send it): when each event is subscribed to for each of those windows, it ends
    // them there instead; otherwise the contexts are ignored, as the spec and chromedriver do now.
    // A subscription partly ended keeps the rest of it.
    func remove(events: Set<String>, contexts: Set<String>?) throws(BiDiError) {
        let byContext = contexts.flatMap { windows in
            events.allSatisfy { event in
                windows.allSatisfy { window in
                    list.contains { $0.events.contains(event) && $0.contexts?.contains(window) == true }
                }
            } ? windows : nil
        }
        if byContext == nil, let missing = events.sorted().first(where: { event in
            !list.contains { $0.contexts == nil && $0.events.contains(event) }
        }) {
            throw BiDiError(.invalidArgument, "no subscription to \(missing) for every context to end"
                + (contexts == nil ? "" : ", nor for each of the contexts named"))
        }
        let contexts = byContext
        list = list.flatMap { subscription -> [Subscription] in
            guard !subscription.events.isDisjoint(with: events) else { return [subscription] }
            guard let windows = contexts else {
                guard subscription.contexts == nil else { return [subscription] }
                let left = subscription.events.subtracting(events)
                return left.isEmpty ? [] : [Subscription(id: subscription.id, events: left, contexts: nil)]
            }
            guard let own = subscription.contexts, !own.isDisjoint(with: windows) else { return [subscription] }
            // What is left: its other events everywhere it was, these events where they stay.
            let others = subscription.events.subtracting(events), staying = own.subtracting(windows)
            return [Subscription(id: subscription.id, events: others, contexts: own),
                    Subscription(id: subscription.id, events: subscription.events.intersection(events),
                                 contexts: staying)]
                .filter { !$0.events.isEmpty && $0.contexts?.isEmpty != true }
        }
    }

    func covers(_ method: String, context: String?) -> Bool {
        let window = context.map(Self.window(of:))
        return list.contains { subscription in
            subscription.events.contains(method)
                && (subscription.contexts == nil || window.map { subscription.contexts!.contains($0) } == true)
        }
    }

    // An event no subscription took: a log entry is kept for its window.
    func missed(_ method: String, text: String, context: String?) {
        guard method == Self.bufferedEvent, let context else { return }
        // One entry over the bound is dropped alone.
        guard text.utf8.count <= Self.bufferedBytesPerWindow else { return }
        var kept = buffered[Self.window(of: context)] ?? ([], 0)
        kept.texts.append(text)
        kept.bytes += text.utf8.count
        while !kept.texts.isEmpty,
              kept.texts.count > Self.bufferedPerWindow || kept.bytes > Self.bufferedBytesPerWindow {
            kept.bytes -= kept.texts.removeFirst().utf8.count
        }
        buffered[Self.window(of: context)] = kept
    }

    // The entries kept for the windows a new subscription covers (`handles`: every window open),
    // in order; they are sent now and kept no more.
    func takeBuffered(for events: Set<String>, contexts: Set<String>?, handles: [String]) -> [String] {
        guard events.contains(Self.bufferedEvent) else { return [] }
        var texts: [String] = []
        for handle in handles where contexts?.contains(handle) ?? true {
            texts += buffered.removeValue(forKey: handle)?.texts ?? []
        }
        return texts
    }

    func forget(_ window: String) { buffered[window] = nil }
}
