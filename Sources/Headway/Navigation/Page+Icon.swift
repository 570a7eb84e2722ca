import Foundation

// WebKit asks for the page icon (`/favicon.ico` of an http(s) page, or its `<link rel=icon>`)
// as the load finishes. A browser left open lets that request end; a page closed or navigated
// right after its load cancels it, sometimes before it was sent. So a load that ends at the load
// event waits while its icon request is in flight (at most `NavigationTiming.iconWait`, within
// the load's deadline), and a server sees what a browser would ask for. The load's timings are
// not affected. The tracker ends the wait (`NavigationEvent.iconWaitBegan`): when the request
// ends, at its timer, or when the page navigates (its own load takes over) or closes.
extension Page {
    func letIconRequestEnd(of record: NavigationTracker.Record, probe: JSONValue?,
                           until deadline: ContinuousClock.Instant) async {
        guard waitsForPageIcon, !record.completesAtDOMContentLoaded, case .array(let list)? = probe?["icons"]
        else { return }
        let icons = Set(list.compactMap { item in
            item.stringValue.flatMap(URL.init(string:)).map { Self.iconKey(MirrorScheme.real($0)) }
        })
        guard view != nil, tracker.current === record, network.isLoading(anyOf: icons, key: Self.iconKey)
        else { return }
        _ = try? await EngineWait<Void>.run(
            timeout: Engine.now().duration(to: deadline).clamped,
            onTimeout: { [weak self] in
                self?.tracker.send(.iconWaitAbandoned)
                return .success(())
            },
            onCancel: { [weak self] in self?.tracker.send(.iconWaitAbandoned) }
        ) { wait in
            tracker.iconWaiters.append { wait.resume(.success(())) }
            tracker.send(.iconWaitBegan(load: record.id, icons: icons))
        }
    }

    // A request of the page ended: the icon wait is over when none of its icons is in flight.
    func iconRequestEnded() {
        guard let wait = tracker.state.iconWait, !network.isLoading(anyOf: wait.icons, key: Self.iconKey)
        else { return }
        tracker.send(.iconRequestsEnded)
    }

    // An icon URL as WebKit requests it: without its fragment.
    static func iconKey(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }
}
