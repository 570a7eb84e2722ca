import Foundation
import Headway

// Local values (https://w3c.github.io/webdriver-bidi/#data-types-protocolValue-LocalValue), checked
// before a script runs, so that a malformed one is `invalid argument`, and serialization options.
extension BiDiRemoteValue {
    // A local value as the page-side deserializer takes it: a `sharedId` becomes the classic
    // element reference (under `nodeKey`) that Headway's runtime revives into the node; a channel
    // carries its options, checked and with their defaults.
    static func local(_ value: JSONValue, nodeKey: String) throws -> JSONValue {
        guard case .object(let object) = value else { throw invalid("a local value must be an object") }
        if let shared = object["sharedId"] {
            guard let id = shared.stringValue else { throw invalid("\"sharedId\" must be a string") }
            return [nodeKey: [ScriptRuntime.nodeKey: .string(id)]]
        }
        if let handle = object["handle"] {
            // Found, or `no such handle`, in the page.
            guard let id = handle.stringValue else { throw invalid("\"handle\" must be a string") }
            return ["handle": .string(id)]
        }
        guard let type = object["type"]?.stringValue else {
            throw invalid("a local value needs a \"type\", a \"sharedId\" or a \"handle\"")
        }
        let inner = object["value"] ?? .undefined
        func needs(_ ok: Bool, _ what: String) throws {
            if !ok { throw invalid("a \(type)'s \"value\" must be \(what)") }
        }
        switch type {
        case "undefined", "null": return ["type": .string(type)]
        case "string", "date", "bigint": try needs(inner.stringValue != nil, "a string")
        case "boolean": try needs(inner.boolValue != nil, "a boolean")
        case "number":
            let special = ["NaN", "-0", "Infinity", "-Infinity"].contains(inner.stringValue ?? "")
            try needs(inner.doubleValue != nil || special, "a number, \"NaN\", \"-0\", \"Infinity\" or \"-Infinity\"")
        case "regexp":
            let flags = inner["flags"] ?? .undefined
            try needs(inner["pattern"]?.stringValue != nil && (flags == .undefined || flags.stringValue != nil),
                      "{pattern, flags}: strings")
        case "array", "set":
            guard case .array(let items) = inner else { throw invalid("a \(type)'s \"value\" must be an array") }
            return ["type": .string(type), "value": .array(try items.map { try local($0, nodeKey: nodeKey) })]
        case "object", "map":
            guard case .array(let entries) = inner else { throw invalid("a \(type)'s \"value\" must be an array") }
            return ["type": .string(type), "value": .array(try entries.map { entry in
                guard case .array(let pair) = entry, pair.count == 2 else {
                    throw invalid("each entry of a \(type) must be a [key, value] pair")
                }
                let key = pair[0].stringValue != nil ? pair[0] : try local(pair[0], nodeKey: nodeKey)
                return [key, try local(pair[1], nodeKey: nodeKey)]
            })]
        case "channel": return ["type": "channel", "value": try channel(inner)]
        default: throw invalid("\(type) is not a type of local value")
        }
        return ["type": .string(type), "value": inner]
    }

    // A channel's value: {channel: id, serializationOptions?, ownership?}.
    private static func channel(_ value: JSONValue) throws -> JSONValue {
        guard case .object(let channel) = value else { throw invalid("a channel's \"value\" must be an object") }
        guard let id = channel["channel"]?.stringValue else { throw invalid("a channel needs a string \"channel\"") }
        let options = try SerializationOptions(channel["serializationOptions"])
        let root: Bool
        switch channel["ownership"] {
        case nil, .undefined?, "none"?: root = false
        case "root"?: root = true
        default: throw invalid("a channel's \"ownership\" must be \"root\" or \"none\"")
        }
        return ["channel": .string(id), "depth": options.depth, "dom": options.dom, "shadow": options.shadow,
                "root": .bool(root)]
    }

    private static func invalid(_ message: String) -> BiDiError { BiDiError(.invalidArgument, message) }
}

// `serializationOptions`: maxObjectDepth (null, the default, is unlimited, held to 64 levels),
// maxDomDepth (0 by default, null unlimited) and includeShadowTree ("none" by default).
struct SerializationOptions {
    var depth: JSONValue = 64
    var dom: JSONValue = 0
    var shadow: JSONValue = "none"

    init(_ given: JSONValue?) throws {
        guard let given, given != .undefined else { return }
        guard case .object(let options) = given else {
            throw BiDiError(.invalidArgument, "\"serializationOptions\" must be an object")
        }
        if let dom = options["maxDomDepth"], dom != .undefined {
            guard dom == .null || dom.integer(in: 0...Int(Int32.max)) != nil else {
                throw BiDiError(.invalidArgument, "\"maxDomDepth\" must be an integer, 0 or more, or null")
            }
            self.dom = dom
        }
        if let shadow = options["includeShadowTree"], shadow != .undefined {
            guard ["none", "open", "all"].contains(shadow.stringValue ?? "") else {
                throw BiDiError(.invalidArgument, "\"includeShadowTree\" must be \"none\", \"open\" or \"all\"")
            }
            self.shadow = shadow
        }
        if let depth = options["maxObjectDepth"], depth != .null, depth != .undefined {
            guard let levels = depth.integer(in: 0...64) else {
                throw BiDiError(.invalidArgument, "\"maxObjectDepth\" must be an integer from 0 to 64, or null")
            }
            self.depth = .number(Double(levels))
        }
    }
}
