import CWebKit
import Foundation

// Closes keep-alive connections whose client hung up between requests.
//
// libsoup before 3.3 (Debian bookworm ships 3.2.3) never closes such a connection: it reads the
// EOF where the next request would be, finishes that message with nobody to tell, and keeps the
// socket, so each one leaks a descriptor (fixed upstream in libsoup commit d20c6601). After each
// response on a connection that stays open, this watches its socket until the next request
// arrives; if the client has gone instead, it closes the socket.
@EngineActor
final class IdleConnectionReaper {
    // Whether this libsoup needs the workaround.
    static let isNeeded = soup_get_major_version() == 3 && soup_get_minor_version() < 3

    // Each GSource is ours (one reference from g_socket_create_source) and holds its socket.
    private var watches: [UnsafeMutableRawPointer: UnsafeMutablePointer<GSource>] = [:]

    // Starts watching `socket` after a response, unless it is closed or already watched.
    func watch(_ socket: UnsafeMutablePointer<GSocket>) {
        let key = UnsafeMutableRawPointer(socket)
        guard Self.isNeeded, watches[key] == nil, g_socket_is_closed(socket) == 0 else { return }
        let conditions = GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue)
        guard let source = g_socket_create_source(socket, conditions, nil) else { return }
        let box = Unmanaged.passRetained(ReaperTarget(self)).toOpaque()
        // Released by GLib's destroy notify when the source is destroyed.
        g_source_set_callback(source, unsafeBitCast(socketReady as SocketReady, to: GSourceFunc.self), box) {
            Unmanaged<ReaperTarget>.fromOpaque($0!).release()
        }
        g_source_attach(source, nil)
        watches[key] = source
    }

    // Stops every watch (server stop).
    func stopAll() {
        for source in watches.values {
            g_source_destroy(source)
            g_source_unref(source)
        }
        watches.removeAll()
    }

    // Returns whether to keep watching.
    fileprivate func ready(_ socket: UnsafeMutablePointer<GSocket>) -> Bool {
        if g_socket_is_closed(socket) == 0 {
            var byte: UInt8 = 0
            let peeked = recv(g_socket_get_fd(socket), &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
            if peeked < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            // Data is the next request, which libsoup reads; nothing (EOF) or an error means the
            // client is gone and libsoup will not close the socket itself.
            if peeked <= 0 { g_socket_close(socket, nil) }
        }
        if let source = watches.removeValue(forKey: UnsafeMutableRawPointer(socket)) { g_source_unref(source) }
        return false
    }
}

private typealias ReaperTarget = Weak<IdleConnectionReaper>

private typealias SocketReady = @convention(c) (UnsafeMutablePointer<GSocket>?, GIOCondition, gpointer?) -> gboolean

private func socketReady(
    _ socket: UnsafeMutablePointer<GSocket>?,
    _ condition: GIOCondition,
    _ data: gpointer?
) -> gboolean {
    guard let rawSocket = socket, let data else { return 0 }
    let target = Unmanaged<ReaperTarget>.fromOpaque(data).takeUnretainedValue()
    nonisolated(unsafe) let socket = rawSocket
    return EngineActor.assumeIsolated { target.object?.ready(socket) ?? false } ? 1 : 0
}
