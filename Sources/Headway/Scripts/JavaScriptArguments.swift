import Foundation

// Binds JSON arguments for `callAsyncFunction`. WebKit passes string arguments as they are;
// any other JSON value goes as its JSON text under a private name and is parsed back by a
// one-line prelude, so arrays, objects, numbers, booleans and null arrive intact.
enum JavaScriptArguments {
    static func bind(_ arguments: [String: JSONValue]) throws -> (strings: [String: String], prelude: String) {
        var strings: [String: String] = [:]
        var prelude: [String] = []
        for (name, value) in arguments.sorted(by: { $0.key < $1.key }) {
            guard isIdentifier(name) else {
                throw HeadwayError(.invalidArgument, "argument name \"\(name)\" is not a JavaScript identifier")
            }
            if case .string(let text) = value {
                strings[name] = text
            } else {
                let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
                strings["__headwayJSON_\(name)"] = json
                // The JSON.parse of before the page's scripts ran (`PageScripts.pristine`).
                prelude.append("const \(name) = (\(PristineLookup.expression) ?? JSON).parse(__headwayJSON_\(name));")
            }
        }
        // One line, so the body's own line numbers stay as written.
        return (strings, prelude.isEmpty ? "" : prelude.joined(separator: " ") + " ")
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == "$" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
        }
    }
}
