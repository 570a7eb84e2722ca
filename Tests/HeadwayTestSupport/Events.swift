import Foundation
import Headway

/// The first of `page`'s events (buffered from its creation on) that `predicate` accepts, or nil
/// when none comes within `seconds`, a hang bound. Consumes the events it reads; use one call at
/// a time per page.
public func firstEvent(of page: Page, within seconds: Double,
                       where predicate: @escaping @Sendable (PageEvent) -> Bool) async -> PageEvent? {
    let events = page.events
    return await withTaskGroup(of: PageEvent?.self) { group in
        group.addTask {
            for await event in events where predicate(event) { return event }
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

extension PageEvent {
    /// The reason, when this is `.webProcessTerminated`.
    public var terminationReason: WebProcessTermination? {
        if case .webProcessTerminated(let reason) = self { return reason }
        return nil
    }
}
