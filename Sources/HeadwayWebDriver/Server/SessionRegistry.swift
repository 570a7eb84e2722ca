import Foundation
import Headway

// The live sessions, at most `maxSessions` of them.
@EngineActor
package final class SessionRegistry {
    package let maxSessions: Int
    package private(set) var sessions: [String: Session] = [:]
    // Sessions being created, counted against the maximum.
    private var starting = 0

    package init(maxSessions: Int) {
        self.maxSessions = maxSessions
    }

    package var canCreate: Bool { sessions.count + starting < maxSessions }

    package func session(_ id: String) throws(WebDriverError) -> Session {
        guard let session = sessions[id] else {
            throw WebDriverError(.invalidSessionID, "no session has the id \(id): it ended or never began")
        }
        return session
    }

    package func create(_ capabilities: Capabilities) async throws -> Session {
        guard canCreate else {
            throw WebDriverError(.sessionNotCreated, "the server already runs its maximum of \(maxSessions) sessions "
                + "(--max-sessions); end one first")
        }
        starting += 1
        defer { starting -= 1 }
        let browser: Browser
        do { browser = try Browser(configuration: capabilities.configuration) } catch let error as HeadwayError {
            throw WebDriverError(.sessionNotCreated, "the browser could not start: \(error.description)")
        }
        let page = try browser.newPage()
        let session = Session(browser: browser, page: page, capabilities: capabilities)
        sessions[session.id] = session
        return session
    }

    // Ends the session (its windows and browser); a later command on it is "invalid session id".
    package func delete(_ id: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        session.close()
    }

    package func deleteAll() {
        for id in Array(sessions.keys) { delete(id) }
    }
}
