import Foundation
import Headway

// One command as the handlers see it: its URI variables and its JSON body (an object; empty for
// GET and DELETE). The accessors turn a missing or mistyped field into "invalid argument".
package struct CommandRequest: Sendable {
    package var command: Command
    package var parameters: [String: String]
    package var body: [String: JSONValue]

    package init(command: Command, parameters: [String: String] = [:], body: [String: JSONValue] = [:]) {
        self.command = command
        self.parameters = parameters
        self.body = body
    }

    // A URI variable the route guarantees.
    package func parameter(_ name: String) -> String { parameters[name] ?? "" }

    package func string(_ key: String) throws(WebDriverError) -> String {
        guard let value = body[key]?.stringValue else { throw Self.wrongType(key, "a string") }
        return value
    }

    package func optionalString(_ key: String) throws(WebDriverError) -> String? {
        guard let value = body[key], value != .null else { return nil }
        guard let string = value.stringValue else { throw Self.wrongType(key, "a string") }
        return string
    }

    package func bool(_ key: String) throws(WebDriverError) -> Bool {
        guard let value = body[key]?.boolValue else { throw Self.wrongType(key, "a boolean") }
        return value
    }

    package func optionalBool(_ key: String) throws(WebDriverError) -> Bool? {
        guard let value = body[key], value != .null else { return nil }
        guard let bool = value.boolValue else { throw Self.wrongType(key, "a boolean") }
        return bool
    }

    // A finite number, or nil when absent or null.
    package func optionalNumber(_ key: String) throws(WebDriverError) -> Double? {
        guard let value = body[key], value != .null else { return nil }
        guard let number = value.doubleValue, number.isFinite else { throw Self.wrongType(key, "a number") }
        return number
    }

    package func array(_ key: String) throws(WebDriverError) -> [JSONValue] {
        guard case .array(let value)? = body[key] else { throw Self.wrongType(key, "an array") }
        return value
    }

    package func object(_ key: String) throws(WebDriverError) -> [String: JSONValue] {
        guard case .object(let value)? = body[key] else { throw Self.wrongType(key, "an object") }
        return value
    }

    static func wrongType(_ key: String, _ type: String) -> WebDriverError {
        WebDriverError(.invalidArgument, "\"\(key)\" must be \(type)")
    }
}

extension JSONValue {
    // An integer in `range`, or nil for any other value.
    package func integer(in range: ClosedRange<Int>) -> Int? {
        guard let number = doubleValue, number.isFinite, number == number.rounded(),
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else { return nil }
        return Int(exactly: number)
    }
}
