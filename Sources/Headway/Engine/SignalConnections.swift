import CHeadwayShims
import CWebKit

// Signal handlers attached to one GObject (and to objects it owns, such as a view's
// back/forward list). Each handler's Swift box is retained once and released by GLib's destroy
// notify, so disconnecting (or finalizing the object) frees it.
final class SignalConnections {
    private let instance: UnsafeMutableRawPointer
    private var ids: [(instance: UnsafeMutableRawPointer, id: gulong)] = []

    init(_ instance: UnsafeMutableRawPointer) {
        self.instance = instance
    }

    // Connects `handler` (a @convention(c) function cast to GCallback) with `box` as user data, on
    // the object, or on `owned`, an object it owns and outlives.
    func connect(_ signal: String, _ handler: GCallback, box: AnyObject, on owned: UnsafeMutableRawPointer? = nil) {
        let data = Unmanaged.passRetained(box).toOpaque()
        let target = owned ?? instance
        let id = hw_signal_connect(target, signal, handler, data) { data, _ in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        ids.append((target, id))
    }

    func disconnectAll() {
        for (target, id) in ids where g_signal_handler_is_connected(target, id) != 0 {
            g_signal_handler_disconnect(target, id)
        }
        ids.removeAll()
    }
}

// Recovers the box passed as signal user data without consuming its reference.
func unbox<T: AnyObject>(_ data: gpointer?, as: T.Type = T.self) -> T {
    Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! T
}
