import Foundation
import Headway

// What a new session asked for, after https://www.w3.org/TR/webdriver2/#processing-capabilities:
// alwaysMatch merged with the first firstMatch entry that Headway can honour.
package struct Capabilities: Sendable {
    package enum PageLoadStrategy: String, Sendable { case normal, eager, none }

    package var acceptInsecureCerts = false
    package var pageLoadStrategy = PageLoadStrategy.normal
    package var timeouts = Timeouts()
    package var strictFileInteractability = false
    package var unhandledPromptBehavior = PromptBehavior.dismissAndNotify
    package var options = HeadwayOptions()
    // Whether the session speaks WebDriver BiDi too (its WebSocket URL is in New Session's answer).
    package var webSocketUrl = false

    package init() {}

    // Processes a New Session body. Throws "invalid argument" for malformed capabilities and
    // "session not created" when none of the firstMatch entries can be honoured.
    package init(newSessionBody body: [String: JSONValue]) throws(WebDriverError) {
        guard case .object(let requested)? = body["capabilities"] else {
            throw WebDriverError(.invalidArgument, "the body must have a \"capabilities\" object")
        }
        var always: [String: JSONValue] = [:]
        // null is not "undefined": a member that is there must be of its type.
        if let value = requested["alwaysMatch"] {
            guard case .object(let object) = value else {
                throw WebDriverError(.invalidArgument, "\"alwaysMatch\" must be an object")
            }
            always = object
        }
        var first: [[String: JSONValue]] = [[:]]
        if let value = requested["firstMatch"] {
            guard case .array(let entries) = value, !entries.isEmpty else {
                throw WebDriverError(.invalidArgument, "\"firstMatch\" must be a non-empty array")
            }
            first = try entries.map { entry throws(WebDriverError) in
                guard case .object(let object) = entry else {
                    throw WebDriverError(.invalidArgument, "each \"firstMatch\" entry must be an object")
                }
                return object
            }
        }
        // Every entry is validated before the first that matches is taken: an invalid one after
        // it is still "invalid argument".
        var lastMismatch = "no firstMatch entry could be honoured"
        var matched: Capabilities?
        for entry in first {
            if let shared = entry.keys.first(where: { always[$0] != nil }) {
                throw WebDriverError(.invalidArgument, "\"\(shared)\" is in both alwaysMatch and firstMatch")
            }
            let merged = always.merging(entry) { a, _ in a }
            do {
                let capabilities = try Capabilities(merged: merged)
                if matched == nil { matched = capabilities }
            } catch let error where error.code == .sessionNotCreated {
                lastMismatch = error.message
            }
        }
        guard let matched else { throw WebDriverError(.sessionNotCreated, lastMismatch) }
        self = matched
    }

    // Validates and matches one merged set of capabilities: every key is validated ("invalid
    // argument") before a mismatch ("session not created") is given, whatever the keys' order.
    private init(merged: [String: JSONValue]) throws(WebDriverError) {
        self.init()
        var mismatch: WebDriverError?
        for (key, value) in merged where value != .null {
            do {
                try apply(key, value)
            } catch where error.code == .sessionNotCreated {
                mismatch = mismatch ?? error
            }
        }
        if let mismatch { throw mismatch }
    }

    private mutating func apply(_ key: String, _ value: JSONValue) throws(WebDriverError) {
        switch key {
        case "browserName":
            guard let name = value.stringValue else { throw CommandRequest.wrongType(key, "a string") }
            guard name.lowercased() == "headway" else {
                throw WebDriverError(.sessionNotCreated, "this server runs headway, not \"\(name)\"")
            }
        case "browserVersion":
            guard let asked = value.stringValue else { throw CommandRequest.wrongType(key, "a string") }
            guard asked == Headway.version else {
                throw WebDriverError(.sessionNotCreated,
                                     "this server runs headway \(Headway.version), not \(asked)")
            }
        case "platformName":
            guard let platform = value.stringValue else { throw CommandRequest.wrongType(key, "a string") }
            guard ["linux", "any"].contains(platform.lowercased()) else {
                throw WebDriverError(.sessionNotCreated, "this server runs on linux, not \(platform)")
            }
        case "acceptInsecureCerts":
            guard let accept = value.boolValue else { throw CommandRequest.wrongType(key, "a boolean") }
            acceptInsecureCerts = accept
        case "pageLoadStrategy":
            guard let strategy = value.stringValue.flatMap(PageLoadStrategy.init(rawValue:)) else {
                throw WebDriverError(.invalidArgument, "\"pageLoadStrategy\" must be normal, eager or none")
            }
            pageLoadStrategy = strategy
        case "proxy":
            guard case .object(let proxy) = value else { throw CommandRequest.wrongType(key, "an object") }
            try options.apply(proxy: proxy)
        case "setWindowRect":
            guard value.boolValue != nil else { throw CommandRequest.wrongType(key, "a boolean") }
        case "strictFileInteractability":
            guard let strict = value.boolValue else { throw CommandRequest.wrongType(key, "a boolean") }
            strictFileInteractability = strict
        case "timeouts":
            guard case .object(let object) = value else { throw CommandRequest.wrongType(key, "an object") }
            timeouts = try Timeouts(parsing: object)
        case "unhandledPromptBehavior":
            unhandledPromptBehavior = try PromptBehavior(parsing: value)
        case "webSocketUrl":
            guard let bidi = value.boolValue else { throw CommandRequest.wrongType(key, "a boolean") }
            webSocketUrl = bidi
        case "headway:options":
            guard case .object(let object) = value else { throw CommandRequest.wrongType(key, "an object") }
            try options.apply(object)
        default:
            // Other vendors' extensions (goog:, moz:, se:, webkitgtk: ...) are not ours to judge.
            guard key.contains(":") else {
                throw WebDriverError(.invalidArgument, "\"\(key)\" is not a WebDriver capability")
            }
        }
    }

    // The capabilities a new session reports back.
    package var json: JSONValue {
        [
            "browserName": "headway", "browserVersion": .string(Headway.version), "platformName": "linux",
            "acceptInsecureCerts": .bool(acceptInsecureCerts), "pageLoadStrategy": .string(pageLoadStrategy.rawValue),
            "proxy": options.proxyJSON, "setWindowRect": true,
            "strictFileInteractability": .bool(strictFileInteractability),
            "timeouts": timeouts.json, "unhandledPromptBehavior": .string(unhandledPromptBehavior.rawValue),
            "headway:options": options.json,
        ]
    }

    // The browser configuration a session with these capabilities runs in.
    package var configuration: Browser.Configuration {
        var configuration = options.configuration
        configuration.ignoreTLSErrors = acceptInsecureCerts
        return configuration
    }
}
