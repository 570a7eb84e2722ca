import Foundation

extension NavigationTracker {
    // The shell's handle on one load: its latest state (read through, as `record.finalURL`) and
    // whoever waits for it to complete. Loads are compared by this handle's identity.
    @dynamicMemberLookup
    @EngineActor final class Record {
        var load: NavigationLoad
        var waiters: [@EngineActor () -> Void] = []
        // A caller follows it to its result (`Page.finish`); else the page observes it alone.
        var isFollowed = false
        // The page observes it (`Page.observe`), once.
        var isObserved = false
        // Its main document was still arriving when its time ran out.
        var documentWasArriving = false

        init(_ load: NavigationLoad) {
            self.load = load
        }

        subscript<T>(dynamicMember path: KeyPath<NavigationLoad, T>) -> T {
            load[keyPath: path]
        }
    }
}
