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
