import CHeadwayShims
import CWebKit

// Signal handlers attached to one GObject. Each handler's Swift box is retained once and
// released by GLib's destroy notify, so disconnecting (or finalizing the object) frees it.
final class SignalConnections {
    private let instance: UnsafeMutableRawPointer
    private var ids: [gulong] = []

    init(_ instance: UnsafeMutableRawPointer) {
        self.instance = instance
    }

    // Connects `handler` (a @convention(c) function cast to GCallback) with `box` as user data.
    func connect(_ signal: String, _ handler: GCallback, box: AnyObject) {
        let data = Unmanaged.passRetained(box).toOpaque()
        let id = hw_signal_connect(instance, signal, handler, data) { data, _ in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        ids.append(id)
    }

    func disconnectAll() {
        for id in ids where g_signal_handler_is_connected(instance, id) != 0 {
            g_signal_handler_disconnect(instance, id)
        }
        ids.removeAll()
    }
}

// Recovers the box passed as signal user data without consuming its reference.
func unbox<T: AnyObject>(_ data: gpointer?, as: T.Type = T.self) -> T {
    Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! T
}
