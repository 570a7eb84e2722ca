import Foundation

extension NavigationTracker {
    // The shell's handle on one load: its latest state (read through, as `record.finalURL`) and
    // whoever waits for it to complete. Loads are compared by this handle's identity.
    @dynamicMemberLookup
    final class Record {
        var load: NavigationLoad
        var waiters: [@EngineActor () -> Void] = []

        init(_ load: NavigationLoad) {
            self.load = load
        }

        subscript<T>(dynamicMember path: KeyPath<NavigationLoad, T>) -> T {
            load[keyPath: path]
        }
    }
}
