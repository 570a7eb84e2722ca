import Foundation
import Headway

// A WebDriver error: its code (the spec's "error" string, which fixes the HTTP status), a message
// a person can act on, and optional data (the user prompt's text for "unexpected alert open").
package struct WebDriverError: Error, Sendable, Equatable {
    package var code: ErrorCode
    package var message: String
    package var data: JSONValue?

    package init(_ code: ErrorCode, _ message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    // The error response's body, as every WebDriver client reads it.
    package var body: JSONValue {
        var value: [String: JSONValue] = [
            "error": .string(code.rawValue), "message": .string(message), "stacktrace": "",
        ]
        if let data { value["data"] = data }
        return ["value": .object(value)]
    }
}

// Every error code of https://www.w3.org/TR/webdriver2/#errors with its HTTP status.
package enum ErrorCode: String, Sendable, CaseIterable {
    case detachedShadowRoot = "detached shadow root"
    case elementClickIntercepted = "element click intercepted"
    case elementNotInteractable = "element not interactable"
    case insecureCertificate = "insecure certificate"
    case invalidArgument = "invalid argument"
    case invalidCookieDomain = "invalid cookie domain"
    case invalidElementState = "invalid element state"
    case invalidSelector = "invalid selector"
    case invalidSessionID = "invalid session id"
    case javascriptError = "javascript error"
    case moveTargetOutOfBounds = "move target out of bounds"
    case noSuchAlert = "no such alert"
    case noSuchCookie = "no such cookie"
    case noSuchElement = "no such element"
    case noSuchFrame = "no such frame"
    case noSuchShadowRoot = "no such shadow root"
    case noSuchWindow = "no such window"
    case scriptTimeout = "script timeout"
    case sessionNotCreated = "session not created"
    case staleElementReference = "stale element reference"
    case timeout = "timeout"
    case unableToSetCookie = "unable to set cookie"
    case unableToCaptureScreen = "unable to capture screen"
    case unexpectedAlertOpen = "unexpected alert open"
    case unknownCommand = "unknown command"
    case unknownError = "unknown error"
    case unknownMethod = "unknown method"
    case unsupportedOperation = "unsupported operation"

    package var httpStatus: Int {
        switch self {
        case .elementClickIntercepted, .elementNotInteractable, .insecureCertificate, .invalidArgument,
             .invalidCookieDomain, .invalidElementState, .invalidSelector:
            400
        case .invalidSessionID, .noSuchAlert, .noSuchCookie, .noSuchElement, .noSuchFrame, .noSuchShadowRoot,
             .noSuchWindow, .staleElementReference, .unknownCommand, .detachedShadowRoot:
            404
        case .unknownMethod: 405
        case .javascriptError, .moveTargetOutOfBounds, .scriptTimeout, .sessionNotCreated, .timeout,
             .unableToSetCookie, .unableToCaptureScreen, .unexpectedAlertOpen, .unknownError,
             .unsupportedOperation:
            500
        }
    }
}

extension WebDriverError {
    // The library's error as the WebDriver error a client expects for it.
    package init(_ error: HeadwayError) {
        let code: ErrorCode =
            switch error.code {
            case .timeout: .timeout
            case .scriptTimeout: .scriptTimeout
            case .scriptError: .javascriptError
            case .invalidArgument: .invalidArgument
            case .closed: .noSuchWindow
            default: .unknownError
            }
        self.init(code, error.description)
    }

    // Any error thrown by a command, as a WebDriver error.
    package static func from(_ error: any Error) -> WebDriverError {
        switch error {
        case let error as WebDriverError: error
        case let error as HeadwayError: WebDriverError(error)
        case is CancellationError: WebDriverError(.unknownError, "the command was cancelled")
        default: WebDriverError(.unknownError, String(describing: error))
        }
    }
}
