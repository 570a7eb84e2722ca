import Foundation
import Headway

// browsingContext.locateNodes and print: the first through a function in the page's world whose
// nodes come back serialized as script results are; the second as classic Print Page.
@EngineActor
enum BiDiLocate {
    static let handlers: [String: BiDiHandler] = [
        "browsingContext.locateNodes": { call in
            let (context, _) = try call.anyContext(try call.parameters.string("context"))
            let locator = try call.parameters.object("locator")
            guard let type = locator["type"]?.stringValue, ["css", "xpath", "innerText", "accessibility"].contains(type)
            else {
                throw BiDiError(.unsupportedOperation,
                                "headway locates nodes by css, xpath, innerText or accessibility")
            }
            let (value, role, name) = try locatorValue(locator, type: type)
            let most = try call.optionalInteger("maxNodeCount", in: 1...100_000) ?? 100_000
            let options: JSONValue = [
                "type": .string(type), "value": .string(value), "most": .number(Double(most)),
                "role": role.map(JSONValue.string) ?? .null, "name": name.map(JSONValue.string) ?? .null,
                "ignoreCase": .bool(locator["ignoreCase"]?.boolValue ?? false),
                "partial": .bool(locator["matchType"]?.stringValue == "partial"),
            ]
            let starts = call.parameters.body["startNodes"] ?? []
            let key = BiDiRemoteValue.nodeKey()
            let payload: [String: JSONValue] = [
                "run": "call", "this": .null, "nodeKey": .string(key),
                "args": [try BiDiRemoteValue.local(BiDiRemoteValue.plain(options), nodeKey: key),
                         try BiDiRemoteValue.local(starts.isArrayOrNull
                            ? ["type": "array", "value": starts == .null ? [] : starts] : starts, nodeKey: key)],
            ]
            var parameters = call.parameters.body
            parameters["target"] = ["context": .string(context.id)]
            parameters["awaitPromise"] = false
            _ = try SerializationOptions(call.parameters.body["serializationOptions"])
            guard case .object(var serialization) = call.parameters.body["serializationOptions"] ?? [:] else {
                throw BiDiError(.invalidArgument, "\"serializationOptions\" must be an object")
            }
            serialization["maxObjectDepth"] = 1
            parameters["serializationOptions"] = .object(serialization)
            let located = BiDiCall(session: call.session, events: call.events,
                                   parameters: CommandRequest(command: .status, body: parameters))
            let answer = try await BiDiScript.run(located, payload, function: locate)
            if answer["type"] == "exception" {
                let text = answer["exceptionDetails"]?["text"]?.stringValue ?? "the locator failed"
                throw BiDiError(.invalidSelector, text)
            }
            return ["nodes": answer["result"]?["value"] ?? []]
        },
        "browsingContext.print": { call in
            let (_, page) = try call.context(frameError: .unsupportedOperation)
            let options = try PDFOptions(webDriver: call.parameters.body)
            do {
                return ["data": .string(try await page.pdf(options).base64EncodedString())]
            } catch let error as HeadwayError where error.code == .invalidArgument {
                throw BiDiError(.invalidArgument, error.message)
            }
        },
    ]

    // The locator's value: a string, or for accessibility {role?, name?} with one at least.
    private static func locatorValue(_ locator: [String: JSONValue], type: String) throws
        -> (value: String, role: String?, name: String?) {
        guard type == "accessibility" else {
            guard let value = locator["value"]?.stringValue else {
                throw BiDiError(.invalidArgument, "the locator's \"value\" must be a string")
            }
            return (value, nil, nil)
        }
        guard case .object(let value)? = locator["value"] else {
            throw BiDiError(.invalidArgument, "an accessibility locator's \"value\" must be {role, name}")
        }
        var found: [String: String] = [:]
        for key in ["role", "name"] where value[key] != nil && value[key] != .undefined {
            guard let text = value[key]?.stringValue else {
                throw BiDiError(.invalidArgument, "an accessibility locator's \"\(key)\" must be a string")
            }
            found[key] = text
        }
        guard !found.isEmpty else {
            throw BiDiError(.invalidArgument, "an accessibility locator needs a \"role\" or a \"name\"")
        }
        return ("", found["role"], found["name"])
    }

    // Finds the nodes under the start nodes (the document when none): by CSS, XPath, the
    // elements whose innerText is (or holds) the text, innermost first, as the spec says, or the
    // elements of that computed role and accessible name (as Get Computed Role and Label say).
    static let locate = """
        function(o, starts) {
        \(SelectAllScript.source)          const roots = starts.length ? starts : [document];
          const a11y = function() {
        \(AccessibilityAtoms.common)
            return { role, name };
          }.call(window);
          const found = [], seen = new Set();
          const add = (n) => { if (found.length < o.most && !seen.has(n)) { seen.add(n); found.push(n); } };
          for (const root of roots) {
            if (o.type === 'css') {
              for (const n of selectAll(root, o.value)) add(n);
            } else if (o.type === 'xpath') {
              const r = document.evaluate(o.value, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
              for (let i = 0; i < r.snapshotLength; i += 1) add(r.snapshotItem(i));
            } else if (o.type === 'accessibility') {
              const walk = (el) => {
                const roleMatches = o.role === null || a11y.role(el) === o.role;
                if (roleMatches && (o.name === null || a11y.name(el, true) === o.name)) add(el);
                for (const child of el.children) walk(child);
              };
              if (root.documentElement) walk(root.documentElement); else for (const child of root.children) walk(child);
            } else {
              const norm = (t) => o.ignoreCase ? t.toLowerCase() : t;
              const wanted = norm(o.value);
              const walk = (el) => {
                let inner = false;
                for (const child of el.children) inner = walk(child) || inner;
                const text = norm(el.innerText ?? el.textContent ?? '');
                const hit = o.partial ? text.includes(wanted) : text === wanted;
                if (hit && !inner) add(el);
                return hit || inner;
              };
              walk(root.documentElement ?? root);
            }
          }
          return found;
        }
        """
}

extension BiDiRemoteValue {
    // A plain JSON value as a local value.
    static func plain(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .undefined: return ["type": "null"]
        case .bool(let flag): return ["type": "boolean", "value": .bool(flag)]
        case .number(let number): return ["type": "number", "value": .number(number)]
        case .string(let text): return ["type": "string", "value": .string(text)]
        case .array(let items): return ["type": "array", "value": .array(items.map(plain))]
        case .object(let object):
            return ["type": "object", "value": .array(object.map { [.string($0.key), plain($0.value)] })]
        }
    }
}

extension JSONValue {
    var isArrayOrNull: Bool {
        switch self {
        case .array, .null: true
        default: false
        }
    }
}
