import Foundation
import Headway

// Remote and local values (https://w3c.github.io/webdriver-bidi/#data-types-protocolValue): the
// page-side serializer and deserializer, which run in the page's world with the user's script,
// and the Swift side that turns the classic element references they cross as into `sharedId`s.
enum BiDiRemoteValue {
    // The serializer of remote values, `ser(value, depth, seen)`, with its helpers: JavaScript
    // statements for the page's world, shared by scripts and preload scripts' channels.
    static let serializer = #"""
    const isArray = Array.isArray;
    const tagOf = (v) => Object.prototype.toString.call(v);
    const isNode = (v) => { try { return v instanceof Node; } catch { return false; } };
    const kind = (v) => {
      const t = tagOf(v).slice(8, -1);
      const known = { Map: 'map', Set: 'set', WeakMap: 'weakmap', WeakSet: 'weakset', ArrayBuffer: 'arraybuffer',
                      NodeList: 'nodelist', HTMLCollection: 'htmlcollection', Promise: 'promise', Proxy: 'proxy' };
      if (isArray(v)) return 'array';
      if (known[t]) return known[t];
      if (ArrayBuffer.isView(v)) return 'typedarray';
      if (v instanceof Error) return 'error';
      if (v instanceof RegExp) return 'regexp';
      if (v instanceof Date) return 'date';
      if (typeof v === 'function') return 'function';
      return 'object';
    };
    const ser = (v, depth, seen) => {
      const t = typeof v;
      if (v === undefined) return { type: 'undefined' };
      if (v === null) return { type: 'null' };
      if (t === 'string' || t === 'boolean') return { type: t, value: v };
      if (t === 'number') {
        const value = Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v === Infinity ? 'Infinity'
          : v === -Infinity ? '-Infinity' : v;
        return { type: 'number', value };
      }
      if (t === 'bigint') return { type: 'bigint', value: String(v) };
      if (t === 'symbol') return { type: 'symbol' };
      if (t === 'function') return { type: 'function' };
      if (isNode(v)) {
        const value = { nodeType: v.nodeType, childNodeCount: v.childNodes.length };
        if (v.nodeType === 1) {
          value.localName = v.localName;
          value.namespaceURI = v.namespaceURI;
          value.attributes = {};
          for (const a of v.attributes) value.attributes[a.name] = a.value;
          value.shadowRoot = null;
        } else if (v.nodeValue !== null) {
          value.nodeValue = v.nodeValue;
        }
        return { type: 'node', __node: v, value };
      }
      if (v === window.top) return { type: 'window', value: { context: '__top__' } };
      if (v === window || (v && v.window === v)) return { type: 'window' };
      const type = kind(v);
      if (type === 'regexp') return { type, value: { pattern: v.source, flags: v.flags } };
      if (type === 'date') return { type, value: Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString() };
      const nests = ['array', 'set', 'map', 'object', 'nodelist', 'htmlcollection'].includes(type);
      if (depth === 0 || seen.has(v) || !nests) {
        return { type };
      }
      seen.add(v);
      const inner = (x) => ser(x, depth - 1, seen);
      let value;
      if (type === 'map') {
        value = [];
        for (const [k, x] of v) value.push([typeof k === 'string' ? k : inner(k), inner(x)]);
      } else if (type === 'object') {
        value = [];
        for (const k of Object.keys(v)) value.push([k, inner(v[k])]);
      } else {
        value = [];
        for (const x of v) value.push(inner(x));
      }
      seen.delete(v);
      return { type, value };
    };
    """#

    // The function body run in the page's world (through the classic Execute Script path, so
    // nodes cross as element references) with one argument: {run: "evaluate" | "call",
    // expression, this, args, awaitPromise, depth}. It answers {ok: RemoteValue} or {thrown:
    // RemoteValue, text}; a node in a RemoteValue is {type: "node", __node: the node, value}.
    // `\(FUNCTION)` is replaced by the function declaration of a call.
    static let body = "const P = arguments[0], evaluate = globalThis.eval;\n" + serializer + "\n" + #"""
    const des = (v) => {
      if (v === null || typeof v !== 'object') throw new TypeError('a local value must be an object');
      if ('__node' in v) return v.__node;
      const x = v.value;
      switch (v.type) {
        case 'undefined': return undefined;
        case 'null': return null;
        case 'string': case 'boolean': return x;
        case 'number':
          return x === 'NaN' ? NaN : x === '-0' ? -0 : x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : x;
        case 'bigint': return BigInt(x);
        case 'array': { const out = []; for (let i = 0; i < x.length; i += 1) out.push(des(x[i])); return out; }
        case 'set': { const out = new Set(); for (let i = 0; i < x.length; i += 1) out.add(des(x[i])); return out; }
        case 'object': case 'map': {
          const out = v.type === 'map' ? new Map() : {};
          for (let i = 0; i < x.length; i += 1) {
            const k = typeof x[i][0] === 'string' ? x[i][0] : des(x[i][0]), val = des(x[i][1]);
            if (v.type === 'map') out.set(k, val); else out[k] = val;
          }
          return out;
        }
        case 'date': return new Date(x);
        case 'regexp': return new RegExp(x.pattern, x.flags ?? '');
        default: throw new TypeError(`a local value of type ${v.type} is not supported`);
      }
    };
    const text = (e) => {
      try { return e instanceof Error ? `${e.name}: ${e.message}` : String(e); } catch { return 'an exception' }
    };
    const done = (v) => ({ ok: ser(v, P.depth, new Set()) });
    const failed = (e) => ({ thrown: ser(e, 1, new Set()), text: text(e) });
    let value;
    try {
      if (P.run === 'evaluate') {
        value = (0, evaluate)(P.expression);
      } else {
        const f = (\(FUNCTION)
        );
        const args = [];
        for (let i = 0; i < P.args.length; i += 1) args.push(des(P.args[i]));
        value = f.apply(P.this === null ? undefined : des(P.this), args);
      }
    } catch (e) { return failed(e); }
    let thenable = false;
    try { thenable = value !== null && typeof value === 'object' && typeof value.then === 'function'; } catch {}
    if (P.awaitPromise && thenable) return Promise.resolve(value).then(done, failed);
    return done(value);
    """#

    // A local value as the page-side deserializer takes it: a `sharedId` becomes the classic
    // element reference that Headway's runtime revives into the node.
    static func local(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .object(let object):
            if let shared = object["sharedId"] {
                guard let id = shared.stringValue else {
                    throw BiDiError(.invalidArgument, "\"sharedId\" must be a string")
                }
                return ["__node": [ScriptRuntime.elementKey: .string(id)]]
            }
            if object["handle"] != nil {
                throw BiDiError(.noSuchHandle, "headway keeps no handles: pass values, or nodes by sharedId")
            }
            return .object(try object.mapValues(local))
        case .array(let items): return .array(try items.map(local))
        default: return value
        }
    }

    // A remote value from the page: each node's element reference becomes its `sharedId`, and the
    // top-level window its context.
    static func remote(_ value: JSONValue, context: String) -> JSONValue {
        switch value {
        case .object(var object):
            if let node = object.removeValue(forKey: "__node") {
                let id = node[ScriptRuntime.elementKey]?.stringValue ?? node[ScriptRuntime.shadowKey]?.stringValue
                if let id { object["sharedId"] = .string(id) }
            }
            if object["type"] == "window", object["value"]?["context"] == "__top__" {
                object["value"] = ["context": .string(context)]
            }
            return .object(object.mapValues { remote($0, context: context) })
        case .array(let items): return .array(items.map { remote($0, context: context) })
        default: return value
        }
    }
}
