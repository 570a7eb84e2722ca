import CWebKit
import Foundation

extension Page {
    /// A stream of state changes that starts with the current state, so nothing before the
    /// subscription is missed. It ends when the page closes.
    public func stateUpdates() -> AsyncStream<PageState> {
        let (stream, sink) = AsyncStream.makeStream(of: PageState.self)
        let id = UUID()
        sink.yield(state)
        if view == nil {
            sink.finish()
            return stream
        }
        stateSinks[id] = sink
        sink.onTermination = { _ in Task { @EngineActor [weak self] in self?.stateSinks[id] = nil } }
        return stream
    }

    // Whether the session history has an entry `delta` steps from the current one (negative: back),
    // so that a traversal by `delta` can be refused before it moves.
    package func hasHistoryEntry(_ delta: Int) -> Bool {
        guard let view = view?.pointer, let list = webkit_web_view_get_back_forward_list(view),
              let step = Int32(exactly: delta) else { return false }
        return webkit_back_forward_list_get_nth_item(list, step) != nil
    }

    func emit(_ event: PageEvent) {
        eventSink.yield(event)
    }

    func refreshState() {
        guard let view = view?.pointer else { return }
        let next = PageState(
            url: realURI(of: view),
            title: webkit_web_view_get_title(view).map { String(cString: $0) } ?? "",
            isLoading: webkit_web_view_is_loading(view) != 0,
            estimatedProgress: webkit_web_view_get_estimated_load_progress(view),
            canGoBack: webkit_web_view_can_go_back(view) != 0,
            canGoForward: webkit_web_view_can_go_forward(view) != 0)
        guard next != state else { return }
        let previous = state
        state = next
        if let url = next.url, url != previous.url { tracker.send(.urlChanged(url)) }
        if previous.isLoading, !next.isLoading { tracker.send(.loadingStopped(next.url)) }
        emit(.state(next))
        for sink in stateSinks.values { sink.yield(next) }
    }

    func received(message: String) {
        // Until the new document commits, messages come from the one being left.
        if let record = tracker.current, !record.isDone, record.committed == nil { return }
        guard let object = try? JSONValue(json: message), case .object = object else { return }
        switch object["kind"]?.stringValue {
        case "console":
            let level = object["level"]?.stringValue ?? "log"
            var arguments: [JSONValue] = []
            if case .array(let list)? = object["args"] { arguments = list }
            let entry = ConsoleMessage(level: level, text: object["text"]?.stringValue ?? "",
                                       method: object["method"]?.stringValue ?? level, arguments: arguments)
            consoleTotal += 1
            if console.count < Page.keptEntries { console.append(entry) }
            emit(.console(entry))
        case "message":
            chain.page(self, didPostMessage: object["data"] ?? .null)
        case "domContentLoaded":
            tracker.domContentLoaded()
            chain.page(self, didLoadDOMContent: state.url)
        case "error":
            let entry = PageError(
                message: object["message"]?.stringValue ?? "",
                file: object["file"]?.stringValue ?? "",
                line: object["line"]?.intValue ?? 0,
                column: object["column"]?.intValue ?? 0
            )
            errorsTotal += 1
            if errors.count < Page.keptEntries { errors.append(entry) }
            emit(.pageError(entry))
        default:
            break
        }
    }
}
