import Foundation
import Headway

// The live sessions, at most `maxSessions` of them.
@EngineActor
package final class SessionRegistry {
    package let maxSessions: Int
    package private(set) var sessions: [String: Session] = [:]
    // Sessions being created, counted against the maximum.
    private var starting = 0

    // Warm browsers for sessions of the default configuration: `warmBrowsers`, and up to twice
    // as many (at most `maxSessions`) while sessions come faster than the pool refills.
    package let pool: SessionPool

    // `acceleratedCompositing` is the sessions' default (headway:options "compositing" overrides it).
    package init(maxSessions: Int, warmBrowsers: Int = 0, acceleratedCompositing: Bool = true) {
        self.maxSessions = maxSessions
        var configuration = HeadwayOptions.sessionDefault
        configuration.acceleratedCompositing = acceleratedCompositing
        pool = SessionPool(size: min(warmBrowsers, maxSessions), ceiling: min(2 * warmBrowsers, maxSessions),
                           configuration: configuration)
        pool.isQuiet = { [weak self] in
            let now = ContinuousClock.now
            return self?.sessions.values.allSatisfy {
                !$0.queue.isBusy && $0.lastUsed.duration(to: now) >= SessionPool.quietGap
            } ?? true
        }
        pool.refill()
    }

    package var canCreate: Bool { sessions.count + starting < maxSessions }

    package func session(_ id: String) throws(WebDriverError) -> Session {
        guard let session = sessions[id] else {
            throw WebDriverError(.invalidSessionID, "no session has the id \(id): it ended or never began")
        }
        return session
    }

    package func create(_ requested: Capabilities) async throws -> Session {
        var capabilities = requested
        if capabilities.options.raw["compositing"] == nil {
            capabilities.options.configuration.acceleratedCompositing = pool.configuration.acceleratedCompositing
        }
        guard canCreate else {
            throw WebDriverError(.sessionNotCreated, "the server already runs its maximum of \(maxSessions) sessions "
                + "(--max-sessions); end one first")
        }
        starting += 1
        defer { starting -= 1 }
        let browser: Browser
        let page: Page
        if let warm = await pool.take(for: capabilities) {
            (browser, page) = warm
        } else {
            // A client that went away while it waited for a warm browser starts no fresh one.
            try Task.checkCancellation()
            do {
                (browser, page) = try await SessionPool.open(capabilities.configuration)
            } catch {
                throw WebDriverError(.sessionNotCreated, "the browser could not start: "
                    + "\((error as? HeadwayError)?.description ?? "\(error)")")
            }
        }
        let session = Session(browser: browser, page: page, capabilities: capabilities)
        sessions[session.id] = session
        return session
    }

    // Ends the session (its windows and browser); a later command on it is "invalid session id".
    package func delete(_ id: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        session.close()
    }

    // Ends every session and closes the warm browsers: the server is going away.
    package func deleteAll() {
        pool.close()
        for id in Array(sessions.keys) { delete(id) }
    }

    // The sessions no command has used for `timeout` and none is running.
    package func idle(for timeout: Duration) -> [Session] {
        let now = ContinuousClock.now
        // A session with a WebSocket open is in use: its client may be listening for events.
        return sessions.values.filter {
            !$0.queue.isBusy && $0.bidi?.isListening != true && $0.lastUsed.duration(to: now) >= timeout
        }
    }
}
