import Foundation

/// A JavaScript value brought back from the page as JSON. `undefined` is kept apart from
/// `null` so that `void` results are values too; it encodes as JSON `null`.
public enum JSONValue: Sendable, Equatable, Codable, CustomStringConvertible {
    case undefined
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value; `null` becomes `.null`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try Self.attempt(Bool.self, container) {
            self = .bool(value)
        } else if let value = try Self.attempt(Double.self, container) {
            self = .number(value)
        } else if let value = try Self.attempt(String.self, container) {
            self = .string(value)
        } else if let value = try Self.attempt([JSONValue].self, container) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    // The value as `type`, or nil when it is not one. An error deeper in (an element of an array
    // or object) is thrown, not taken for "not an array": its message says what and where. A
    // number JSON allows but a Double cannot hold (1e400) is such an error; Foundation's
    // JSONDecoder reports it with an error of its own type, numberIsNotRepresentableInSwift.
    private static func attempt<T: Decodable>(
        _ type: T.Type, _ container: any SingleValueDecodingContainer
    ) throws -> T? {
        do {
            return try container.decode(type)
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                 .keyNotFound(_, let context):
                if context.codingPath.count > container.codingPath.count { throw error }
                return nil
            @unknown default:
                return nil
            }
        } catch where type == Double.self && "\(error)".contains("NotRepresentable") {
            let path = container.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let place = path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "the number\(place) is beyond a double's range (about ±1.8e308)"
            ))
        } catch {
            return nil
        }
    }

    /// Encodes the value as JSON; `.undefined` as `null`.
    public func encode(to encoder: Encoder) throws {
        if case .object(let value) = self {
            // Keys in sorted order, so the same value always encodes to the same text.
            var keyed = encoder.container(keyedBy: JSONKey.self)
            for key in value.keys.sorted() { try keyed.encode(value[key]!, forKey: JSONKey(key)) }
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .undefined, .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else if value.isFinite {
                try container.encode(value)
            } else {
                try container.encodeNil()
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object: break
        }
    }

    /// Parses JSON text; `nil` text means `undefined`. JavaScript strings may hold lone UTF-16
    /// surrogates, which `JSON.stringify` writes as `\udXXX` escapes that no Swift string can
    /// hold: each becomes U+FFFD.
    public init(json: String?) throws {
        guard let json else {
            self = .undefined
            return
        }
        self = try JSONDecoder().decode(JSONValue.self, from: Data(Self.replacingLoneSurrogates(in: json).utf8))
    }

    /// The value as compact JSON text.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The value as JSON text, or `undefined`.
    public var description: String { self == .undefined ? "undefined" : jsonText }

    /// The string, or nil for any other value.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The number, or nil for any other value.
    public var doubleValue: Double? { if case .number(let n) = self { n } else { nil } }
    /// The number rounded toward zero, when it is finite and within ±2^53 (pages can send anything).
    public var intValue: Int? {
        if case .number(let n) = self, n.isFinite, abs(n) <= 9_007_199_254_740_992 { Int(n) } else { nil }
    }
    /// The boolean, or nil for any other value.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// An object's member `key`, or nil (also for a value that is no object).
    public subscript(key: String) -> JSONValue? { if case .object(let o) = self { o[key] } else { nil } }
    /// An array's element at `index`, or nil (also out of range, or for a value that is no array).
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, a.indices.contains(index) { a[index] } else { nil }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// `.string(value)`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.number(value)`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// `.number(value)`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `.bool(value)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}

// A coding key for any string.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
