import Foundation
import Headway

// Remote and local values (https://w3c.github.io/webdriver-bidi/#data-types-protocolValue): the
// page-side serializer and deserializer, which run in the page's world with the user's script,
// and the Swift side that turns the classic element references they cross as into `sharedId`s.
enum BiDiRemoteValue {
    // The serializer of remote values, `ser(value, depth, seen)`, with its helpers: JavaScript
    // statements for the page's world, shared by scripts and preload scripts' channels. It uses
    // the built-ins Headway captured before the page's scripts ran (`__headwayPristine`), plain
    // loops and `instanceof`, so a page that replaces `eval`, `Reflect.apply`, `Set`, `Map`,
    // `Array.prototype.push` or `Symbol.toStringTag` changes nothing here; its objects have no
    // prototype, so a `toJSON` or `then` on Object.prototype does not reach them. `NK` is the key
    // that marks a node, unknown to the page; at most `MOST` values are serialized.
    static let serializer = #"""
    const H = \#(PristineLookup.expression) || { eval: globalThis.eval,
      apply: Reflect.apply, Map: Map, Set: Set, Promise: Promise, Node: typeof Node === 'function' ? Node : null };
    const isArray = Array.isArray, MOST = 100000;
    let counted = 0;
    const isNode = (v) => { try { return H.Node !== null && v instanceof H.Node; } catch { return false; } };
    const kind = (v) => {
      if (isArray(v)) return 'array';
      if (v instanceof H.Map) return 'map';
      if (v instanceof H.Set) return 'set';
      if (v instanceof WeakMap) return 'weakmap';
      if (v instanceof WeakSet) return 'weakset';
      if (v instanceof ArrayBuffer) return 'arraybuffer';
      if (ArrayBuffer.isView(v)) return 'typedarray';
      if (v instanceof NodeList) return 'nodelist';
      if (v instanceof HTMLCollection) return 'htmlcollection';
      if (v instanceof H.Promise) return 'promise';
      if (v instanceof Error) return 'error';
      if (v instanceof RegExp) return 'regexp';
      if (v instanceof Date) return 'date';
      if (typeof v === 'function') return 'function';
      return 'object';
    };
    const ser = (v, depth, seen) => {
      counted += 1;
      if (counted > MOST) throw new RangeError(`the value holds more than ${MOST} values to serialize`);
      const t = typeof v;
      if (v === undefined) return { __proto__: null, type: 'undefined' };
      if (v === null) return { __proto__: null, type: 'null' };
      if (t === 'string' || t === 'boolean') return { __proto__: null, type: t, value: v };
      if (t === 'number') {
        const value = v !== v ? 'NaN' : (v === 0 && 1 / v < 0) ? '-0' : v === Infinity ? 'Infinity'
          : v === -Infinity ? '-Infinity' : v;
        return { __proto__: null, type: 'number', value };
      }
      if (t === 'bigint') return { __proto__: null, type: 'bigint', value: '' + v };
      if (t === 'symbol') return { __proto__: null, type: 'symbol' };
      if (t === 'function') return { __proto__: null, type: 'function' };
      if (isNode(v)) {
        const value = { __proto__: null, nodeType: v.nodeType, childNodeCount: v.childNodes.length };
        if (v.nodeType === 1) {
          value.localName = v.localName;
          value.namespaceURI = v.namespaceURI;
          value.attributes = { __proto__: null };
          const attributes = v.attributes;
          for (let i = 0; i < attributes.length; i += 1) value.attributes[attributes[i].name] = attributes[i].value;
          value.shadowRoot = null;
        } else if (v.nodeValue !== null) {
          value.nodeValue = v.nodeValue;
        }
        const out = { __proto__: null, type: 'node', value };
        out[NK] = v;
        return out;
      }
      if (v === window.top) return { __proto__: null, type: 'window', value: { __proto__: null, context: '__top__' } };
      if (v === window) return { __proto__: null, type: 'window', value: { __proto__: null, context: '__self__' } };
      if (v && v.window === v) return { __proto__: null, type: 'window' };
      const type = kind(v);
      if (type === 'regexp') {
        return { __proto__: null, type, value: { __proto__: null, pattern: v.source, flags: v.flags } };
      }
      if (type === 'date') {
        return { __proto__: null, type, value: v.getTime() !== v.getTime() ? 'Invalid Date' : v.toISOString() };
      }
      const nests = type === 'array' || type === 'set' || type === 'map' || type === 'object' || type === 'nodelist'
        || type === 'htmlcollection';
      let cyclic = false;
      for (let i = 0; i < seen.length; i += 1) if (seen[i] === v) cyclic = true;
      if (depth === 0 || cyclic || !nests) return { __proto__: null, type };
      seen[seen.length] = v;
      const inner = (x) => ser(x, depth - 1, seen);
      const value = [];
      if (type === 'map') {
        for (const [k, x] of v) value[value.length] = [typeof k === 'string' ? k : inner(k), inner(x)];
      } else if (type === 'set') {
        for (const x of v) value[value.length] = inner(x);
      } else if (type === 'object') {
        const keys = Object.keys(v);
        for (let i = 0; i < keys.length; i += 1) value[value.length] = [keys[i], inner(v[keys[i]])];
      } else {
        for (let i = 0; i < v.length; i += 1) value[value.length] = inner(v[i]);
      }
      seen.length -= 1;
      return { __proto__: null, type, value };
    };
    """#

    // The function body run in the page's world (through the classic Execute Script path, so
    // nodes cross as element references) with one argument: {run: "evaluate" | "call",
    // expression, this, args, awaitPromise, depth, nodeKey, root}. It answers {ok: RemoteValue},
    // {thrown: RemoteValue, text} or {missing: handle id}; a node, in a RemoteValue or a local
    // value, is an object with the node under `nodeKey`; with `root`, an object result (or
    // exception) gets a `handle` in the document's table, which a local `{handle}` names again.
    // `\(FUNCTION)` is replaced by the function declaration of a call.
    static let body = "const P = arguments[0], NK = P.nodeKey;\n" + serializer + "\n" + #"""
    const MISSING = { __proto__: null };
    const T = typeof H.handles === 'function' ? H.handles(P.handleKey) : null;
    const des = (v) => {
      if (v === null || typeof v !== 'object') throw new TypeError('a local value must be an object');
      const node = Object.getOwnPropertyDescriptor(v, NK);
      if (node) return node.value;
      const handle = Object.getOwnPropertyDescriptor(v, 'handle');
      if (handle && typeof handle.value === 'string' && !Object.getOwnPropertyDescriptor(v, 'type')) {
        if (!T || !T.has(handle.value)) { MISSING.id = handle.value; throw MISSING; }
        return T.get(handle.value);
      }
      const x = v.value;
      switch (v.type) {
        case 'undefined': return undefined;
        case 'null': return null;
        case 'string': case 'boolean': return x;
        case 'number':
          return x === 'NaN' ? NaN : x === '-0' ? -0 : x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : x;
        case 'bigint': return BigInt(x);
        case 'array': { const out = []; for (let i = 0; i < x.length; i += 1) out[i] = des(x[i]); return out; }
        case 'set': { const out = new H.Set(); for (let i = 0; i < x.length; i += 1) out.add(des(x[i])); return out; }
        case 'object': case 'map': {
          const out = v.type === 'map' ? new H.Map() : {};
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
      try { return e instanceof Error ? `${e.name}: ${e.message}` : '' + e; } catch { return 'an exception'; }
    };
    // Results are objects of no prototype, so no `then` a page puts on Object.prototype makes them
    // look like promises; they go back through the runner's callback (the body runs in its
    // "async" mode), never as a returned promise, whose `then` the page could have replaced.
    const finish = arguments[arguments.length - 1];
    // An object kept for the client, when it asked for handles.
    const held = (r, v) => {
      if (P.root && T && v !== null && (typeof v === 'object' || typeof v === 'function')) {
        const id = T.put(v);
        if (id !== null) r.handle = id;
      }
      return r;
    };
    const failed = (e) => {
      counted = 0;
      try { return { __proto__: null, thrown: held(ser(e, 1, []), e), text: text(e) }; }
      catch { return { __proto__: null, thrown: { type: 'error' }, text: text(e) }; }
    };
    const done = (v) => {
      counted = 0;
      try { return { __proto__: null, ok: held(ser(v, P.depth, []), v) }; } catch (e) { return failed(e); }
    };
    let value;
    try {
      if (P.run === 'evaluate') {
        value = H.apply(H.eval, undefined, [P.expression]);
      } else {
        const f = (\(FUNCTION)
        );
        const args = [];
        let self;
        try {
          for (let i = 0; i < P.args.length; i += 1) args[i] = des(P.args[i]);
          self = P.this === null ? undefined : des(P.this);
        } catch (e) {
          if (e === MISSING) { finish({ __proto__: null, missing: MISSING.id }); return; }
          throw e;
        }
        value = H.apply(f, self, args);
      }
    } catch (e) { finish(failed(e)); return; }
    // As the spec says, only a promise is awaited (not any object with a `then`); `await` takes a
    // native promise without calling its `then`.
    if (!P.awaitPromise || !(value instanceof H.Promise)) { finish(done(value)); return; }
    (async () => {
      let result;
      try { result = done(await value); } catch (e) { result = failed(e); }
      finish(result);
    })();
    """#

    // A key no page can guess, for the nodes of one call.
    static func nodeKey() -> String { "headway-node-" + UUID().uuidString.lowercased() }

    // A local value as the page-side deserializer takes it: a `sharedId` becomes the classic
    // element reference (under `nodeKey`) that Headway's runtime revives into the node.
    static func local(_ value: JSONValue, nodeKey: String) throws -> JSONValue {
        switch value {
        case .object(let object):
            if let shared = object["sharedId"] {
                guard let id = shared.stringValue else {
                    throw BiDiError(.invalidArgument, "\"sharedId\" must be a string")
                }
                return [nodeKey: [ScriptRuntime.elementKey: .string(id)]]
            }
            if let handle = object["handle"] {
                // Found, or `no such handle`, in the page.
                guard let id = handle.stringValue else {
                    throw BiDiError(.invalidArgument, "\"handle\" must be a string")
                }
                return ["handle": .string(id)]
            }
            return .object(try object.mapValues { try local($0, nodeKey: nodeKey) })
        case .array(let items): return .array(try items.map { try local($0, nodeKey: nodeKey) })
        default: return value
        }
    }

    // A remote value from the page: each node's element reference (under `nodeKey`) becomes its
    // `sharedId` (with `sharedIds` off, as for what a page posts, the node has none), and the
    // top-level window its context.
    static func remote(_ value: JSONValue, context: ContextID, nodeKey: String, sharedIds: Bool = true) -> JSONValue {
        switch value {
        case .object(var object):
            if let node = object.removeValue(forKey: nodeKey), sharedIds {
                let id = node[ScriptRuntime.elementKey]?.stringValue ?? node[ScriptRuntime.shadowKey]?.stringValue
                if let id { object["sharedId"] = .string(id) }
            }
            if object["type"] == "window", object["value"]?["context"] == "__top__" {
                object["value"] = ["context": .string(context.handle)]
            } else if object["type"] == "window", object["value"]?["context"] == "__self__" {
                object["value"] = ["context": .string(context.id)]
            }
            return .object(object.mapValues { remote($0, context: context, nodeKey: nodeKey, sharedIds: sharedIds) })
        case .array(let items):
            return .array(items.map { remote($0, context: context, nodeKey: nodeKey, sharedIds: sharedIds) })
        default: return value
        }
    }
}
