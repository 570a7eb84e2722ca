import CHeadwayShims
import CWebKit
import Foundation

// One response in flight: waits out the emulated latency, then writes the body at the emulated
// bandwidth. Once libsoup reports the message finished or disconnected, nothing touches it again.
@EngineActor
final class Transfer {
    private weak var server: HTTPServer?
    private let message: OpaqueGObjectRef
    private let method: String
    private let path: String
    private let started = Engine.now()
    private var signals: SignalConnections?
    private var isPaused = false
    private var isOver = false
    private var status = 0
    private var bytes = 0
    private let cookie: String?
    private let purpose: String?

    init(server: HTTPServer, message: OpaquePointer, method: String, path: String) {
        self.server = server
        self.message = OpaqueGObjectRef(retaining: message)
        self.method = method
        self.path = path
        let headers = soup_server_message_get_request_headers(message)
        cookie = soup_message_headers_get_one(headers, "Cookie").map { String(cString: $0) }
        purpose = soup_message_headers_get_one(headers, "Sec-Purpose").map { String(cString: $0) }
        let signals = SignalConnections(UnsafeMutableRawPointer(message))
        let target = TransferTarget(self)
        signals.connect("finished", unsafeBitCast(transferOver as TransferOver, to: GCallback.self), box: target)
        signals.connect("disconnected", unsafeBitCast(transferOver as TransferOver, to: GCallback.self), box: target)
        self.signals = signals
    }

    func respond(_ response: HTTPResponse) {
        pause()
        if response.hangs { return }
        let conditions = server?.conditions ?? .none
        Task { @EngineActor in
            if conditions.latency > .zero {
                try? await Task.sleep(for: conditions.latency.clamped)
            }
            await self.send(response, bytesPerSecond: conditions.bytesPerSecond)
        }
    }

    func respondWithFile(_ file: URL) {
        pause()
        Task { @EngineActor in
            // Read off the engine thread: a large file must not stall the GLib loop.
            let data = await Task.detached { try? Data(contentsOf: file, options: .mappedIfSafe) }.value
            guard let data else {
                self.respond(.html("<!doctype html><title>Forbidden</title><h1>403 Forbidden</h1>", status: 403))
                return
            }
            self.respond(HTTPResponse(status: 200, headers: [("Content-Type", ContentType.of(file.path))], body: data))
        }
    }

    // Ends the transfer from our side (server stop).
    func cancel() {
        guard !isOver else { return }
        over()
    }

    private func send(_ response: HTTPResponse, bytesPerSecond: Double?) async {
        guard !isOver else { return }
        let msg = message.pointer
        status = response.status
        soup_server_message_set_status(msg, guint(response.status), nil)
        let headers = soup_server_message_get_response_headers(msg)
        for (name, value) in response.headers { soup_message_headers_replace(headers, name, value) }
        // No cap, or one that is not a positive number of bytes per second.
        guard let rate = bytesPerSecond, rate > 0, !response.body.isEmpty, method != "HEAD" else {
            response.body.withUnsafeBytes { raw in
                soup_message_body_append(soup_server_message_get_response_body(msg), SOUP_MEMORY_COPY,
                                         raw.baseAddress, gsize(raw.count))
            }
            soup_message_body_complete(soup_server_message_get_response_body(msg))
            bytes = method == "HEAD" ? 0 : response.body.count
            unpause()
            return
        }
        soup_message_headers_set_encoding(headers, SOUP_ENCODING_CONTENT_LENGTH)
        soup_message_headers_set_content_length(headers, goffset(response.body.count))
        let body = soup_server_message_get_response_body(msg)
        let begin = Engine.now()
        var sent = 0
        while sent < response.body.count {
            let allowed = Int(min(Double(response.body.count), rate * begin.duration(to: Engine.now()).seconds))
            if allowed > sent {
                response.body[sent..<allowed].withUnsafeBytes { raw in
                    soup_message_body_append(body, SOUP_MEMORY_COPY, raw.baseAddress, gsize(raw.count))
                }
                sent = allowed
                bytes = sent
                // libsoup pauses the message again whenever the body runs dry.
                isPaused = true
                unpause()
            }
            if sent < response.body.count {
                try? await Task.sleep(for: .milliseconds(5))
                if isOver { return }
            }
        }
        soup_message_body_complete(body)
        unpause()
    }

    private func pause() {
        guard !isPaused, !isOver else { return }
        isPaused = true
        soup_server_message_pause(message.pointer)
    }

    private func unpause() {
        guard isPaused, !isOver else { return }
        isPaused = false
        soup_server_message_unpause(message.pointer)
    }

    fileprivate func over() {
        guard !isOver else { return }
        isOver = true
        signals?.disconnectAll()
        signals = nil
        let record = status == 0 ? nil : ServedRequest(method: method, path: path, status: status, bytes: bytes,
                                                        duration: started.duration(to: Engine.now()),
                                                        cookie: cookie, purpose: purpose)
        server?.finished(self, record, socket: soup_server_message_get_socket(message.pointer))
    }
}

private typealias TransferTarget = Weak<Transfer>

private typealias TransferOver = @convention(c) (OpaquePointer?, gpointer?) -> Void

private func transferOver(_ message: OpaquePointer?, _ data: gpointer?) {
    let target = unbox(data, as: TransferTarget.self)
    EngineActor.assumeIsolated { target.object?.over() }
}
