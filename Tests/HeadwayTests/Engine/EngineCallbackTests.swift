import CWebKit
import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// `engineAsync`, the one bridge from a GAsyncReadyCallback to async/await, with real GIO calls:
/// each ends once (answer, deadline or cancellation) and its box is released once GIO calls back.
@Suite("Engine callback bridge", .serialized)
@EngineActor
struct EngineCallbackTests {
    /// Held only by a call's `finish`: it goes when the call's box does.
    final class Sentinel: Sendable {}

    /// What a pending call did: whether it started, and one entry per callback that reached
    /// `finish` (true when GIO reported the cancellation).
    @EngineActor
    final class Record {
        var started = false
        var callbacks: [Bool] = []
    }

    /// A loopback listener that nobody connects to: its accept stays pending until cancelled.
    @EngineActor
    final class Listener {
        let pointer = g_socket_listener_new()!
        init() throws {
            let address = g_inet_socket_address_new_from_string("127.0.0.1", 0)!
            defer { g_object_unref(UnsafeMutableRawPointer(address)) }
            var error: UnsafeMutablePointer<GError>?
            let added = g_socket_listener_add_address(pointer, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                                      nil, nil, &error)
            if let error { g_error_free(error) }
            try #require(added != 0, "could not listen on loopback")
        }
        isolated deinit {
            g_socket_listener_close(pointer)
            g_object_unref(UnsafeMutableRawPointer(pointer))
        }

        /// Accepts one connection, noting in `record` what happened.
        func accept(timeout: Duration? = nil, sentinel: Sentinel, record: Record) async throws {
            let listener = pointer
            try await engineAsync(timeout: timeout) { cancellable, callback, data in
                g_socket_listener_accept_async(listener, cancellable, callback, data)
                record.started = true
            } finish: { [sentinel] _, result in
                _ = sentinel
                var error: UnsafeMutablePointer<GError>?
                let connection = g_socket_listener_accept_finish(listener, result, nil, &error)
                let cancelled = error.map { $0.pointee.domain == g_io_error_quark()
                    && $0.pointee.code == G_IO_ERROR_CANCELLED.rawValue } ?? false
                if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
                record.callbacks.append(cancelled)
                if let error { throw HeadwayError.consuming(error, .engine, "accept failed") }
            }
        }
    }

    @Test func answersAFileReadAndReleasesItsBox() async throws {
        try await Engine.start()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-callback-\(UUID()).txt")
        try Data("hello from GIO".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let file = g_file_new_for_path(path.path)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var sentinel: Sentinel? = Sentinel()
        weak let watched = sentinel
        let text = try await engineAsync { cancellable, callback, data in
            g_file_load_contents_async(file, cancellable, callback, data)
        } finish: { [sentinel] _, result in
            _ = sentinel
            var contents: UnsafeMutablePointer<CChar>?
            var length: gsize = 0
            var error: UnsafeMutablePointer<GError>?
            guard g_file_load_contents_finish(file, result, &contents, &length, nil, &error) != 0, let contents else {
                throw HeadwayError.consuming(error, .engine, "the read failed")
            }
            defer { g_free(contents) }
            return String(decoding: UnsafeRawBufferPointer(start: contents, count: Int(length)), as: UTF8.self)
        }
        sentinel = nil
        #expect(text == "hello from GIO")
        try await waitFor("the call's box to be released") { watched == nil }
    }

    @Test func cancellingTheTaskEndsAPendingCallAndReleasesItsBox() async throws {
        try await Engine.start()
        let listener = try Listener()
        let record = Record()
        var sentinel: Sentinel? = Sentinel()
        weak let watched = sentinel
        let task = Task { @EngineActor [sentinel = sentinel!] in
            try await listener.accept(sentinel: sentinel, record: record)
        }
        sentinel = nil
        try await waitFor("the accept to start") { record.started }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // GIO calls back once, with the cancellation, which releases the box.
        try await waitFor("the cancelled call's box to be released") { watched == nil }
        #expect(record.callbacks == [true])
    }

    @Test func theDeadlineEndsAPendingCallAndReleasesItsBox() async throws {
        try await Engine.start()
        let listener = try Listener()
        let record = Record()
        var sentinel: Sentinel? = Sentinel()
        weak let watched = sentinel
        let error = await #expect(throws: HeadwayError.self) {
            try await listener.accept(timeout: .milliseconds(50), sentinel: sentinel!, record: record)
        }
        sentinel = nil
        #expect(error?.code == .timeout)
        try await waitFor("the timed-out call's box to be released") { watched == nil }
        #expect(record.callbacks == [true])
    }
}
