import Foundation

// WebKit asks for the page icon (`/favicon.ico` of an http(s) page, or its `<link rel=icon>`)
// as the load finishes. A browser left open lets that request end; a page closed or navigated
// right after its load cancels it, sometimes before it was sent. So a load that ends at the load
// event waits while its icon request is in flight (at most `NavigationTiming.iconWait`, within the load's
// deadline), and a server sees what a browser would ask for. The load's timings are not affected.
extension Page {
    func letIconRequestEnd(of record: NavigationTracker.Record, probe: JSONValue?, until deadline: Double) async {
        guard !record.completesAtDOMContentLoaded, case .array(let list)? = probe?["icons"] else { return }
        let icons = Set(list.compactMap { $0.stringValue.flatMap(URL.init(string:)).map { Self.iconKey(MirrorScheme.real($0)) } })
        let signals = tracker.navigationSignals
        let end = min(deadline, Engine.now() + NavigationTiming.iconWait * 1000)
        // A navigation the page starts meanwhile ends the wait: its own load takes over.
        while view != nil, tracker.current === record, tracker.navigationSignals == signals,
              network.isLoading(anyOf: icons, key: Self.iconKey), Engine.now() < end {
            guard (try? await Task.sleep(for: .milliseconds(5))) != nil else { return }
        }
    }

    // An icon URL as WebKit requests it: without its fragment.
    static func iconKey(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }
}
