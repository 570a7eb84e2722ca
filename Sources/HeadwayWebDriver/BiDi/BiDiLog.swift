import Foundation
import Headway

// The log module's entries (https://w3c.github.io/webdriver-bidi/#module-log): a console call or
// an uncaught error of a window's page, as `Page.events` reports them.
enum BiDiLog {
    static func console(_ message: ConsoleMessage, context: String, timestamp: JSONValue) -> JSONValue {
        // log.Level has debug, info, warn and error; console.log is info.
        let level = ["debug": "debug", "warn": "warn", "error": "error"][message.level] ?? "info"
        return [
            "type": "console", "method": .string(message.method), "level": .string(level),
            "text": .string(message.text), "timestamp": timestamp, "source": source(context),
            // The page reports no stack.
            "args": .array(message.arguments), "stackTrace": ["callFrames": []],
        ]
    }

    static func error(_ error: PageError, context: String, timestamp: JSONValue) -> JSONValue {
        var frames: [JSONValue] = []
        if !error.file.isEmpty || error.line > 0 {
            frames.append(["url": .string(error.file), "functionName": "",
                           "lineNumber": .number(Double(max(0, error.line - 1))),
                           "columnNumber": .number(Double(max(0, error.column - 1)))])
        }
        return [
            "type": "javascript", "level": "error", "text": .string(error.message), "timestamp": timestamp,
            "source": source(context), "stackTrace": ["callFrames": .array(frames)],
        ]
    }

    static func source(_ context: String) -> JSONValue {
        ["realm": .string(BiDiContexts.realm(of: context)), "context": .string(context), "userContext": "default"]
    }
}
