import Foundation
import Headway
import HeadwayWebDriver

extension WebDriverDriver {
    // Navigates the session's current window to `path` on `server`.
    func navigate(_ session: String, _ server: HTTPServer, _ path: String) async throws -> JSONValue {
        try await send(.navigateTo, session, ["url": .string(server.url.appendingPathComponent(path).absoluteString)])
    }

    // Runs a script without arguments.
    func script(_ session: String, _ source: String) async throws -> JSONValue {
        try await send(.executeScript, session, ["script": .string(source), "args": []])
    }
}

// The WebDriver error code of a thrown error.
func code(_ error: any Error) -> ErrorCode? { (error as? WebDriverError)?.code }

// The Cookie headers of the requests for `path` once `server` logged `count` of them (it logs a
// request when its last byte is sent, which can be after the page loaded), waiting at most 5 s.
@EngineActor
func loggedCookies(_ server: HTTPServer, _ path: String, count: Int) async throws -> [String?] {
    for _ in 0..<500 where server.requests.filter({ $0.path == path }).count < count {
        try await Task.sleep(for: .milliseconds(10))
    }
    return server.requests.filter { $0.path == path }.map(\.cookie)
}
