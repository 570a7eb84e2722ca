import Foundation
import Headway

// The storage module's cookies (https://w3c.github.io/webdriver-bidi/#module-storage): each user
// context's browser has one cookie store, its partition; a `storageKey` partition names the user
// context ("default" when it names none), a `context` partition its window's, and narrows
// getCookies and deleteCookies to the cookies its document is sent.
@EngineActor
enum BiDiStorage {
    static let handlers: [String: BiDiHandler] = [
        "storage.getCookies": { call in
            let (browser, key) = try partition(call)
            let cookies = try await partitionCookies(call, browser).filter(try filter(call))
            return ["cookies": .array(cookies.map(json)), "partitionKey": key]
        },
        "storage.setCookie": { call in
            let (browser, key) = try partition(call)
            let fields = try call.parameters.object("cookie")
            let request = CommandRequest(command: .addCookie, body: fields)
            guard let name = fields["name"]?.stringValue, let domain = fields["domain"]?.stringValue,
                  case .object(let value)? = fields["value"], let given = value["value"]?.stringValue,
                  let text = value["type"] == "string" ? given
                      : value["type"] == "base64"
                          ? BiDiStorage.forgivingBase64(given).flatMap({ String(data: $0, encoding: .utf8) })
                      : nil else {
                throw BiDiError(.invalidArgument, "a cookie needs a \"name\", a \"domain\" and a \"value\" "
                    + "({\"type\": \"string\" or \"base64\" (of UTF-8 text), \"value\": ...})")
            }
            let sameSite = try request.optionalString("sameSite").map { name throws in
                guard let policy = ["strict": Cookie.SameSite.strict, "lax": .lax, "none": .none][name] else {
                    throw BiDiError(.invalidArgument, "\"sameSite\" must be strict, lax or none, not \(name)")
                }
                return policy
            }
            let expiry = try call.optionalInteger("expiry", in: 0...9_007_199_254_740_991, of: fields)
            let path = try request.optionalString("path") ?? "/"
            let cookie = Cookie(name: name, value: text, domain: domain, path: path,
                                secure: try request.optionalBool("secure") ?? false,
                                httpOnly: try request.optionalBool("httpOnly") ?? false,
                                expires: expiry.map { Date(timeIntervalSince1970: Double($0)) }, sameSite: sameSite)
            do { try await browser.addCookie(cookie) } catch let error as HeadwayError {
                throw BiDiError(.unableToSetCookie, error.message)
            }
            return ["partitionKey": key]
        },
        "storage.deleteCookies": { call in
            let (browser, key) = try partition(call)
            for cookie in try await partitionCookies(call, browser).filter(try filter(call)) {
                try await browser.deleteCookie(cookie)
            }
            return ["partitionKey": key]
        },
    ]

    // The spec's forgiving base64: white space ignored, the padding optional.
    static func forgivingBase64(_ text: String) -> Data? {
        var plain = text.filter { !" \t\n\r\u{0C}".contains($0) }
        if plain.count % 4 == 1 { return nil }
        while plain.count % 4 != 0 { plain += "=" }
        return Data(base64Encoded: plain)
    }

    static func json(_ cookie: Cookie) -> JSONValue {
        var json: [String: JSONValue] = [
            "name": .string(cookie.name), "value": ["type": "string", "value": .string(cookie.value)],
            "domain": .string(cookie.domain), "path": .string(cookie.path),
            "size": .number(Double(cookie.name.utf8.count + cookie.value.utf8.count)),
            "httpOnly": .bool(cookie.httpOnly), "secure": .bool(cookie.secure),
            "sameSite": .string(cookie.sameSite?.rawValue.lowercased() ?? "none"),
        ]
        if let expires = cookie.expires { json["expiry"] = .number(expires.timeIntervalSince1970.rounded(.down)) }
        return .object(json)
    }

    // The browser of `params.partition` and the partition key that names it. The partition is
    // checked whole first: `{"type": "context", "context": ID}` or `{"type": "storageKey"}`, its
    // `userContext` and `sourceOrigin` strings (Headway's partitions are user contexts: a source
    // origin narrows nothing).
    private static func partition(_ call: BiDiCall) throws -> (Browser, JSONValue) {
        var userContext = BiDiBrowser.defaultID
        if let value = call.parameters.body["partition"], value != .null {
            guard case .object(let partition) = value else {
                throw BiDiError(.invalidArgument, "\"partition\" must be an object")
            }
            switch partition["type"] {
            case "context":
                guard let id = partition["context"]?.stringValue else {
                    throw BiDiError(.invalidArgument, "a context partition's \"context\" must be a string")
                }
                // A frame's partition is its top-level context's.
                userContext = call.session.userContext(ofHandle: try call.anyContext(id).0.handle)
            case "storageKey":
                for key in ["userContext", "sourceOrigin"] where partition[key].map({ $0 != .null }) ?? false {
                    guard partition[key]?.stringValue != nil else {
                        throw BiDiError(.invalidArgument, "the partition's \"\(key)\" must be a string")
                    }
                }
                userContext = partition["userContext"]?.stringValue ?? userContext
            default:
                throw BiDiError(.invalidArgument, "the partition's \"type\" must be \"context\" or \"storageKey\"")
            }
        }
        return (try call.session.browser(ofUserContext: userContext), ["userContext": .string(userContext)])
    }

    // The partition's cookies: a context's document's, or every cookie of its browser.
    private static func partitionCookies(_ call: BiDiCall, _ browser: Browser) async throws -> [Cookie] {
        guard case .object(let partition)? = call.parameters.body["partition"], partition["type"] == "context" else {
            return try await browser.allCookies()
        }
        let (_, page) = try call.anyContext(partition["context"]?.stringValue ?? "")
        guard let url = page.url, ["http", "https"].contains(url.scheme ?? "") else { return [] }
        return try await browser.cookies(for: url)
    }

    // `params.filter` as a test: each field given must equal the cookie's. Its fields are checked
    // as the spec types them first; fields the spec does not name are ignored.
    private static func filter(_ call: BiDiCall) throws -> (Cookie) -> Bool {
        guard let value = call.parameters.body["filter"], value != .null else { return { _ in true } }
        guard case .object(let fields) = value else {
            throw BiDiError(.invalidArgument, "\"filter\" must be an object")
        }
        var tests: [(Cookie) -> Bool] = []
        for (key, wanted) in fields {
            switch key {
            case "name", "domain", "path", "sameSite":
                guard let text = wanted.stringValue else {
                    throw BiDiError(.invalidArgument, "the filter's \"\(key)\" must be a string")
                }
                if key == "sameSite", !["strict", "lax", "none"].contains(text) {
                    throw BiDiError(.invalidArgument, "the filter's \"sameSite\" must be strict, lax or none")
                }
                tests.append { json($0)[key] == .string(text) }
            case "size", "expiry":
                guard let number = wanted.integer(in: 0...9_007_199_254_740_991) else {
                    throw BiDiError(.invalidArgument, "the filter's \"\(key)\" must be an integer of at least 0")
                }
                tests.append { json($0)[key] == .number(Double(number)) }
            case "httpOnly", "secure":
                guard case .bool(let flag) = wanted else {
                    throw BiDiError(.invalidArgument, "the filter's \"\(key)\" must be a boolean")
                }
                tests.append { key == "secure" ? $0.secure == flag : $0.httpOnly == flag }
            case "value":
                let text = try bytesText(wanted)
                tests.append { $0.value == text }
            default:
                continue
            }
        }
        return { cookie in tests.allSatisfy { $0(cookie) } }
    }

    // A network.BytesValue as text: `{"type": "string" or "base64", "value": TEXT}` (nil: base64
    // that is no UTF-8 text, which no cookie's value is).
    private static func bytesText(_ value: JSONValue) throws -> String? {
        guard case .object(let fields) = value, let text = fields["value"]?.stringValue,
              fields["type"] == "string" || fields["type"] == "base64" else {
            throw BiDiError(.invalidArgument, "a value must be {\"type\": \"string\" or \"base64\", \"value\": TEXT}")
        }
        guard fields["type"] == "base64" else { return text }
        guard let data = forgivingBase64(text) else {
            throw BiDiError(.invalidArgument, "the value's base64 is not valid")
        }
        return String(data: data, encoding: .utf8)
    }
}

extension BiDiCall {
    func optionalInteger(_ key: String, in range: ClosedRange<Int>, of fields: [String: JSONValue]) throws -> Int? {
        try BiDiCall(session: session, events: events, parameters: CommandRequest(command: .status, body: fields))
            .optionalInteger(key, in: range)
    }
}
