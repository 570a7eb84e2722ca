import CHeadwayShims
import CWebKit
import Foundation

// The id of the web process serving a view, which WebKit does not expose: the web-process
// extension reports it ("headway-pid") whenever a process creates the view's page, and it is
// kept on the view itself, so that a view the booster prerendered and a page adopted keeps it.
@EngineActor
enum WebProcessID {
    private static let key = "headway-web-process-id"

    // Listens for the extension's reports on `view` for as long as the view lives.
    static func record(on view: UnsafeMutablePointer<WebKitWebView>) {
        _ = hw_signal_connect(UnsafeMutableRawPointer(view), "user-message-received",
                              unsafeBitCast(onMessage as Received, to: GCallback.self), nil, nil)
    }

    static func of(_ view: UnsafeMutablePointer<WebKitWebView>) -> pid_t? {
        let value = Int(bitPattern: g_object_get_data(cast(view, to: GObject.self), key))
        return value > 0 ? pid_t(truncatingIfNeeded: value) : nil
    }

    // Forgets the id once its process is gone, so a later process given the same id is not taken
    // for it.
    static func forget(_ view: UnsafeMutablePointer<WebKitWebView>) {
        g_object_set_data(cast(view, to: GObject.self), key, nil)
    }

    // Whether `pid` is a child of this process: the id must name a process WebKit started here.
    fileprivate static func isOurChild(_ pid: Int32) -> Bool {
        guard pid > 0, let text = procFile("/proc/\(pid)/stat"), let end = text.lastIndex(of: ")") else { return false }
        let fields = text[text.index(after: end)...].split(separator: " ", maxSplits: 3)
        return fields.count > 2 && pid_t(fields[1]) == getpid()
    }

    fileprivate static func set(_ pid: Int32, on view: UnsafeMutablePointer<WebKitWebView>) {
        g_object_set_data(cast(view, to: GObject.self), key, UnsafeMutableRawPointer(bitPattern: Int(pid)))
    }
}

private typealias Received = @convention(c) (UnsafeMutablePointer<WebKitWebView>?,
                                             UnsafeMutablePointer<WebKitUserMessage>?, gpointer?) -> gboolean

private func onMessage(_ view: UnsafeMutablePointer<WebKitWebView>?,
                       _ message: UnsafeMutablePointer<WebKitUserMessage>?, _ data: gpointer?) -> gboolean {
    guard let view, let message, let name = webkit_user_message_get_name(message),
          String(cString: name) == "headway-pid",
          let parameters = webkit_user_message_get_parameters(message),
          g_variant_is_of_type(parameters, g_variant_type_checked_("i")) != 0 else { return 0 }
    let pid = g_variant_get_int32(parameters)
    nonisolated(unsafe) let borrowed = view
    EngineActor.assumeIsolated {
        if WebProcessID.isOurChild(pid) { WebProcessID.set(pid, on: borrowed) }
    }
    return 1
}
