import Foundation
import Headway
import HeadwayWebDriver
import Testing

// Sends commands straight to a WebDriverService, without a socket, as the HTTP layer would.
@EngineActor
final class WebDriverDriver {
    let service: WebDriverService

    init(options: WebDriverService.Options = WebDriverService.Options()) {
        service = WebDriverService(options: options)
    }

    // Starts a session and returns its id.
    func newSession(_ capabilities: JSONValue = ["alwaysMatch": [:]]) async throws -> String {
        let created = try await send(.newSession, nil, ["capabilities": capabilities])
        return try #require(created["sessionId"]?.stringValue)
    }

    // Runs one command; a WebDriver error is thrown.
    func send(_ command: Command, _ session: String?, _ body: [String: JSONValue] = [:],
              parameters: [String: String] = [:]) async throws -> JSONValue {
        var parameters = parameters
        if let session { parameters["sessionId"] = session }
        return try await service.execute(CommandRequest(command: command, parameters: parameters, body: body)).get()
    }
}
