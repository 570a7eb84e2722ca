import Foundation
import Headway
import NIOCore
import Synchronization

// The server's open connections, at most `limit`: each one's channel and, while it is idle (no
// request under way: before its first, or between two), since when. At the cap, a new connection
// closes the one idle longest, so that sockets that send nothing cannot lock clients out.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        let channel: any Channel
        var idleSince: NIODeadline?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var closed = false
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    // Adds `channel` (idle); false when the server stopped, or every connection is busy at the cap.
    func admit(_ channel: any Channel) -> Bool {
        let evicted = state.withLock { state -> (any Channel)?? in
            guard !state.closed else { return .none }
            var evicted: (any Channel)?
            if state.entries.count >= limit {
                let idle = state.entries.filter { $0.value.idleSince != nil }
                guard let oldest = idle.min(by: { $0.value.idleSince! < $1.value.idleSince! }) else { return .none }
                evicted = state.entries.removeValue(forKey: oldest.key)?.channel
            }
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now())
            return .some(evicted)
        }
        guard let evicted else { return false }
        evicted?.close(promise: nil)
        return true
    }

    func setIdle(_ channel: any Channel, _ idle: Bool) {
        state.withLock { state in
            guard state.entries[ObjectIdentifier(channel)] != nil else { return }
            state.entries[ObjectIdentifier(channel)]?.idleSince = idle ? .now() : nil
        }
    }

    func remove(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    // Admits no more and returns every open connection's channel.
    func closeAll() -> [any Channel] {
        state.withLock { state in
            state.closed = true
            defer { state.entries.removeAll() }
            return state.entries.values.map(\.channel)
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}

// The body bytes all connections hold, within `HTTPLimits.maxBufferedBodyBytes`: bytes that
// arrived, reserved as they arrive and released once their request was answered.
final class BodyBudget: Sendable {
    private let limit: Int
    private let held = Mutex(0)

    init(limit: Int) { self.limit = limit }

    func reserve(_ bytes: Int) -> Bool {
        held.withLock { held in
            guard bytes == 0 || held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    func release(_ bytes: Int) { held.withLock { $0 -= bytes } }

    var bytesHeld: Int { held.withLock { $0 } }
}
