import Foundation

extension OrderedJSON {
    // What is wrong with text that is not one JSON value: what was found, and where.
    struct SyntaxError: Error, CustomStringConvertible {
        var problem: String
        // 1-based, in UTF-8 bytes from the start of the text.
        var column: Int
        var description: String { "\(problem) at column \(column)" }
    }

    // Parses one JSON value (RFC 8259), keeping each object's keys in their order, so that a
    // document `headway load` printed prints again unchanged (`text`).
    init(parsing text: String) throws(SyntaxError) {
        var parser = Parser(bytes: Array(text.utf8))
        self = try parser.document()
    }

    // The member `key` of an object (the first, if the key repeats); nil for other values.
    subscript(key: String) -> OrderedJSON? {
        if case .object(let pairs) = self { pairs.first { $0.0 == key }?.1 } else { nil }
    }

    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var keys: [String]? { if case .object(let pairs) = self { pairs.map(\.0) } else { nil } }
}

// A recursive-descent JSON parser over UTF-8 bytes.
private struct Parser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    // Deeper nesting is refused rather than risking the stack.
    static let deepest = 512

    mutating func document() throws(OrderedJSON.SyntaxError) -> OrderedJSON {
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw failure("text after the value") }
        return value
    }

    private mutating func value() throws(OrderedJSON.SyntaxError) -> OrderedJSON {
        skipSpace()
        guard index < bytes.count else { throw failure("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            return try object()
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected \(found)")
        }
    }

    // Steps into an object or array (past its bracket); the caller steps out.
    private mutating func enter() throws(OrderedJSON.SyntaxError) {
        guard depth < Self.deepest else { throw failure("nested more than \(Self.deepest) deep") }
        depth += 1
        index += 1
    }

    private mutating func object() throws(OrderedJSON.SyntaxError) -> OrderedJSON {
        var pairs: [(String, OrderedJSON)] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object(pairs) }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member "
                + "name, found \(found)") }
            let key = try string()
            skipSpace()
            guard take(UInt8(ascii: ":")) else { throw failure("expected ':', found \(found)") }
            pairs.append((key, try value()))
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}', found \(found)") }
        return .object(pairs)
    }

    private mutating func array() throws(OrderedJSON.SyntaxError) -> OrderedJSON {
        var items: [OrderedJSON] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return .array(items) }
        repeat {
            items.append(try value())
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']', found \(found)") }
        return .array(items)
    }

    private mutating func string() throws(OrderedJSON.SyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &out)
            case 0..<0x20: index -= 1; throw failure("a control character in a string")
            default: out.append(byte)
            }
        }
        throw failure("the text ends inside a string")
    }

    private mutating func escape(into out: inout [UInt8]) throws(OrderedJSON.SyntaxError) {
        guard index < bytes.count else { throw failure("the text ends inside a string") }
        let byte = bytes[index]
        index += 1
        let simple: [UInt8: UInt8] = [UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                                      UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
                                      UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09]
        if let plain = simple[byte] { out.append(plain); return }
        guard byte == UInt8(ascii: "u") else { index -= 1; throw failure("an unknown escape \\\(found)") }
        var scalar = try hex4()
        // A UTF-16 surrogate pair is one scalar; a lone surrogate becomes U+FFFD.
        if (0xD800..<0xDC00).contains(scalar), bytes[index...].starts(with: Array("\\u".utf8)) {
            let mark = index
            index += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                index = mark
            }
        }
        out += Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }

    private mutating func hex4() throws(OrderedJSON.SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count,
              bytes[index..<index + 4].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
              let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("\\u needs four hex digits")
        }
        index += 4
        return value
    }

    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(OrderedJSON.SyntaxError) -> OrderedJSON {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) { guard digits() else { throw failure("a malformed number") } }
        if take(UInt8(ascii: ".")) { guard digits() else { throw failure("a malformed number") } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { throw failure("a malformed number") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw failure("a malformed number")
        }
        return .number(value)
    }

    // Skips one or more digits; false if there were none.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: String) throws(OrderedJSON.SyntaxError) {
        guard bytes[index...].starts(with: Array(word.utf8)) else { throw failure("unexpected \(found)") }
        index += word.utf8.count
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private var found: String {
        guard index < bytes.count else { return "the end of the text" }
        let byte = bytes[index]
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'"
            : String(format: "byte 0x%02X", byte)
    }

    private func failure(_ problem: String) -> OrderedJSON.SyntaxError {
        OrderedJSON.SyntaxError(problem: problem, column: index + 1)
    }
}
