import CHeadwayShims
import CWebKit

// Owns one reference to a GObject: refs (or sinks) in init, unrefs in deinit.
// Use only on the engine thread; the last reference may drop anywhere (see `releaseOnEngine`).
final class GObjectRef<T> {
    let pointer: UnsafeMutablePointer<T>

    // Takes over a reference the caller already owns (a `_new` result, full transfer).
    init(taking pointer: UnsafeMutablePointer<T>) {
        self.pointer = pointer
    }

    // Adds a reference of our own (transfer none).
    init(retaining pointer: UnsafeMutablePointer<T>) {
        self.pointer = pointer
        g_object_ref(UnsafeMutableRawPointer(pointer))
    }

    var object: UnsafeMutablePointer<GObject> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
    }

    deinit {
        releaseOnEngine(UnsafeMutableRawPointer(pointer))
    }
}

// Drops one GObject reference on the engine thread: at once when called there, otherwise as a
// GLib idle job. WebKit aborts when its objects are finalized on another thread, and an owner's
// last Swift reference can go away on any thread (a task's end, a plain async test).
func releaseOnEngine(_ object: UnsafeMutableRawPointer) {
    if EngineThread.isCurrent {
        g_object_unref(object)
    } else {
        hw_invoke({ object in g_object_unref(object) }, object)
    }
}


// `GObjectRef` for GObject types that C declares final, which Swift sees as `OpaquePointer`.
final class OpaqueGObjectRef {
    let pointer: OpaquePointer

    // Takes over a reference the caller already owns.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    init(retaining pointer: OpaquePointer) {
        self.pointer = pointer
        g_object_ref(UnsafeMutableRawPointer(pointer))
    }

    deinit {
        releaseOnEngine(UnsafeMutableRawPointer(pointer))
    }
}
