extension JSONValue {
    // `json` with every `\uXXXX` escape of a lone surrogate (one not in a high-low pair)
    // replaced by `\ufffd`. Escapes are read in order, so `\\ud800` (a backslash, then text) stays.
    static func replacingLoneSurrogates(in json: String) -> String {
        guard json.contains("\\u") else { return json }
        let bytes = Array(json.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                out.append(byte)
                index += 1
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "u"), let unit = codeUnit(bytes, at: index + 2) else {
                out += bytes[index...index + 1]
                index += 2
                continue
            }
            if (0xD800...0xDBFF).contains(unit), index + 12 <= bytes.count,
               bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
               let low = codeUnit(bytes, at: index + 8), (0xDC00...0xDFFF).contains(low) {
                out += bytes[index..<index + 12]
                index += 12
            } else if (0xD800...0xDFFF).contains(unit) {
                out += Array("\\ufffd".utf8)
                index += 6
            } else {
                out += bytes[index..<index + 6]
                index += 6
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // The four hex digits at `offset` as a UTF-16 code unit.
    private static func codeUnit(_ bytes: [UInt8], at offset: Int) -> UInt16? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
