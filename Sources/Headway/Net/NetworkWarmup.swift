import CWebKit
import Foundation

// GIO's proxy resolver and TLS certificate database are process-wide and set up on first use:
// loading the proxy module takes about 5 ms here and the system's CA certificates about 25 ms.
// WebKit's network process pays that in its own process; the booster's libsoup session runs on
// the engine thread, so its first request of a run would pay it there, in the middle of a load.
// Both getters are thread-safe, so this warms them once on a background thread when a booster
// is created, before the first navigation.
enum NetworkWarmup {
    private static let once: Void = {
        Thread.detachNewThread {
            let resolver = g_proxy_resolver_get_default()
            // The first lookup loads the resolver's configuration (libproxy's or GNOME's).
            if let proxies = g_proxy_resolver_lookup(resolver, "http://127.0.0.1/", nil, nil) { g_strfreev(proxies) }
            _ = g_tls_backend_get_default_database(g_tls_backend_get_default()).map { g_object_unref($0) }
        }
    }()

    static func start() { once }
}
