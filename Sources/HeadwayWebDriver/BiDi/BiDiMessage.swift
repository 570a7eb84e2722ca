import Foundation
import Headway

// WebDriver BiDi's messages (https://w3c.github.io/webdriver-bidi/#protocol): a command in,
// `{type: "success", id, result}` or `{type: "error", id, error, message}` back, and events
// `{type: "event", method, params}`.
struct BiDiCommand: Sendable {
    let id: Int
    let method: String
    // The parameters, read through the classic accessors ("invalid argument" when mistyped).
    let parameters: CommandRequest

    // Parses one message. Throws a BiDi error with the id when the message had a usable one.
    static func parse(_ text: String) throws(BiDiError) -> BiDiCommand {
        let value: JSONValue
        do { value = try JSONValue(json: text) } catch {
            throw BiDiError(id: nil, .invalidArgument, "the message is not JSON")
        }
        guard case .object(let object) = value else {
            throw BiDiError(id: nil, .invalidArgument, "a command must be a JSON object")
        }
        guard let id = object["id"]?.integer(in: 0...9_007_199_254_740_991) else {
            throw BiDiError(id: nil, .invalidArgument, "a command needs an \"id\": an integer from 0 to 2^53 - 1")
        }
        guard let method = object["method"]?.stringValue else {
            throw BiDiError(id: id, .invalidArgument, "a command needs a \"method\" string")
        }
        guard case .object(let params)? = object["params"] else {
            throw BiDiError(id: id, .invalidArgument, "a command needs a \"params\" object")
        }
        return BiDiCommand(id: id, method: method, parameters: CommandRequest(command: .status, body: params))
    }

    static func success(id: Int, _ result: JSONValue) -> String {
        JSONValue.object(["type": "success", "id": .number(Double(id)), "result": result]).jsonText
    }

    static func event(_ method: String, _ params: JSONValue) -> String {
        JSONValue.object(["type": "event", "method": .string(method), "params": params]).jsonText
    }
}

// A BiDi error: a code of https://w3c.github.io/webdriver-bidi/#errors and a message.
struct BiDiError: Error, Sendable {
    enum Code: String, Sendable {
        case invalidArgument = "invalid argument"
        case invalidSelector = "invalid selector"
        case invalidSessionID = "invalid session id"
        case moveTargetOutOfBounds = "move target out of bounds"
        case noSuchAlert = "no such alert"
        case noSuchElement = "no such element"
        case noSuchFrame = "no such frame"
        case noSuchHandle = "no such handle"
        case noSuchHistoryEntry = "no such history entry"
        case noSuchIntercept = "no such intercept"
        case noSuchRequest = "no such request"
        case noSuchNode = "no such node"
        case noSuchScript = "no such script"
        case noSuchUserContext = "no such user context"
        case noSuchClientWindow = "no such client window"
        case noSuchNetworkCollector = "no such network collector"
        case noSuchNetworkData = "no such network data"
        case unavailableNetworkData = "unavailable network data"
        case sessionNotCreated = "session not created"
        case unableToCaptureScreen = "unable to capture screen"
        case unableToSetCookie = "unable to set cookie"
        case unknownCommand = "unknown command"
        case unknownError = "unknown error"
        case unsupportedOperation = "unsupported operation"
    }

    var id: Int?
    let code: Code
    let message: String

    init(id: Int? = nil, _ code: Code, _ message: String) {
        self.id = id
        self.code = code
        self.message = message
    }

    // A classic command's error as BiDi names it.
    init(_ error: any Error) {
        if let error = error as? BiDiError {
            self = error
            return
        }
        let classic = WebDriverError.from(error)
        let code: Code =
            switch classic.code {
            case .invalidArgument, .invalidCookieDomain: .invalidArgument
            case .invalidSelector: .invalidSelector
            case .invalidSessionID: .invalidSessionID
            case .moveTargetOutOfBounds: .moveTargetOutOfBounds
            case .noSuchAlert: .noSuchAlert
            case .noSuchElement: .noSuchElement
            case .staleElementReference, .detachedShadowRoot, .noSuchShadowRoot: .noSuchNode
            case .noSuchFrame, .noSuchWindow: .noSuchFrame
            case .sessionNotCreated: .sessionNotCreated
            case .unableToCaptureScreen: .unableToCaptureScreen
            case .unableToSetCookie: .unableToSetCookie
            case .unknownCommand, .unknownMethod: .unknownCommand
            case .unsupportedOperation: .unsupportedOperation
            default: .unknownError
            }
        self.init(code, classic.code == .unknownError || code != .unknownError
                  ? classic.message : "\(classic.code.rawValue): \(classic.message)")
    }

    var text: String {
        JSONValue.object([
            "type": "error", "id": id.map { .number(Double($0)) } ?? .null,
            "error": .string(code.rawValue), "message": .string(message), "stacktrace": "",
        ]).jsonText
    }
}
