import Foundation

/// Checks JSON against the subset of JSON Schema (2020-12) that `load-output.schema.json` uses:
/// `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`, `oneOf`, `minimum`
/// and local `$ref`s. Returns the problems found, each with its JSON path.
public struct JSONSchema: @unchecked Sendable {
    /// Never changed after `init`.
    let root: [String: Any]

    public init(contentsOf url: URL) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw CLIError("\(url.path) is not a JSON Schema object")
        }
        self.root = root
    }

    /// The schema of `headway load`'s output, from the CLI's sources.
    public static let loadOutput: JSONSchema = try! JSONSchema(contentsOf: CLI.packageRoot
        .appendingPathComponent("Sources/HeadwayCLI/Output/load-output.schema.json"))

    /// HAR 1.2, as its specification defines it.
    public static let har: JSONSchema = try! JSONSchema(contentsOf: CLI.packageRoot
        .appendingPathComponent("Tests/HeadwayTestSupport/har-1.2.schema.json"))

    /// Problems with `value` against the whole schema, or against `$defs/definition`.
    public func problems(_ value: Any, definition: String? = nil) -> [String] {
        let schema = definition.map { ["$ref": "#/$defs/\($0)"] } ?? root
        return check(value, schema, path: "$")
    }

    private func check(_ value: Any, _ schema: [String: Any], path: String) -> [String] {
        if let ref = schema["$ref"] as? String {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard let target = (root["$defs"] as? [String: Any])?[name] as? [String: Any] else { return ["\(path): "
                + "unknown $ref \(ref)"] }
            return check(value, target, path: path)
        }
        if let options = schema["oneOf"] as? [[String: Any]] {
            let matching = options.filter { check(value, $0, path: path).isEmpty }.count
            return matching == 1 ? [] : ["\(path): matches \(matching) of oneOf's schemas, not 1"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
            return ["\(path): \(value) is not one of \(allowed)"]
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            guard types.contains(where: { Self.isType(value, $0) }) else { return ["\(path): \(value) is not "
                + "\(types.joined(separator: " or "))"] }
        }
        if let minimum = schema["minimum"] as? Double, let number = value as? Double, number < minimum {
            return ["\(path): \(number) is below \(minimum)"]
        }
        var problems: [String] = []
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing \(key)")
            }
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    problems += check(member, property, path: "\(path).\(key)")
                } else if let extra = schema["additionalProperties"] {
                    if let extraSchema = extra as? [String: Any] {
                        problems += check(member, extraSchema, path: "\(path).\(key)")
                    } else if (extra as? Bool) == false {
                        problems.append("\(path): unexpected member \(key)")
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { problems += check(item, items, path: "\(path)[\(index)]") }
        }
        return problems
    }

    private static func isType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBoolean(value)
        case "number": return isNumber(value)
        case "integer":
            return isNumber(value) && (value as! NSNumber).doubleValue.rounded() == (value as! NSNumber).doubleValue
        default: return false
        }
    }

    private static func isNumber(_ value: Any) -> Bool { value is NSNumber && !isBoolean(value) }

    /// JSONSerialization gives booleans as NSNumbers of their own class.
    private static func isBoolean(_ value: Any) -> Bool {
        value is NSNumber && type(of: value as AnyObject) == type(of: NSNumber(value: true) as AnyObject)
    }
}
