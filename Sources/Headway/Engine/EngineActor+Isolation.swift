import Foundation

extension EngineActor {
    // Runs `operation` synchronously when already on the engine thread (GLib callbacks).
    static func assumeIsolated<T>(_ operation: @EngineActor () throws -> T) rethrows -> T {
        precondition(EngineThread.isCurrent, "GLib callback outside the Headway engine thread")
        return try withoutActuallyEscaping(operation) { fn in
            try unsafeBitCast(fn, to: (() throws -> T).self)()
        }
    }
}
