import Foundation
import Headway

// Remote and local values (https://w3c.github.io/webdriver-bidi/#data-types-protocolValue): the
// page-side serializer and deserializer, which run in the page's world with the user's script,
// and the Swift side that turns the classic element references they cross as into `sharedId`s.
enum BiDiRemoteValue {
    // The serializer of remote values, `serialize(value, depth, dom, shadow)`, with its helpers:
    // JavaScript statements for the page's world, shared by scripts and channels. It uses
    // the built-ins Headway captured before the page's scripts ran (`__headwayPristine`), plain
    // loops and `instanceof`, so a page that replaces `eval`, `Reflect.apply`, `Set`, `Map`,
    // `Array.prototype.push` or `Symbol.toStringTag` changes nothing here; its objects have no
    // prototype, so a `toJSON` or `then` on Object.prototype does not reach them. `NK` is the key
    // that marks a node, unknown to the page; at most `MOST` values are serialized.
    static let serializer = #"""
    const H = \#(PristineLookup.expression) || { eval: globalThis.eval,
      apply: Reflect.apply, Map: Map, Set: Set, Promise: Promise, Node: typeof Node === 'function' ? Node : null,
      WeakMap: WeakMap, weakGet: WeakMap.prototype.get, weakSet: WeakMap.prototype.set };
    const isArray = Array.isArray, MOST = 100000;
    // One serialization's state (`serialize` sets it): values counted, the objects met with their
    // remote values (a second meeting gets an `internalId`, as the spec says), maxDomDepth (null:
    // unlimited) and includeShadowTree.
    let counted = 0, known = null, ids = 0, DOM = 0, SHADOW = 'none';
    const isNode = (v) => { try { return H.Node !== null && v instanceof H.Node; } catch { return false; } };
    const isShadowRoot = (v) => v.nodeType === 11 && typeof ShadowRoot === 'function' && v instanceof ShadowRoot;
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
    // A node: its children while maxDomDepth allows (a shadow root's only as includeShadowTree
    // says), an element's attributes and open shadow root (closed ones are out of a script's reach).
    const serNode = (v, depth, dom) => {
      const value = { __proto__: null, nodeType: v.nodeType, childNodeCount: v.childNodes.length };
      if (v.nodeValue !== null) value.nodeValue = v.nodeValue;
      if (v.nodeType === 1 || v.nodeType === 2) {
        value.localName = v.localName;
        value.namespaceURI = v.namespaceURI;
      }
      const shadow = isShadowRoot(v);
      if (dom !== 0 && (!shadow || SHADOW === 'all' || (SHADOW === 'open' && v.mode === 'open'))) {
        const children = [], nodes = v.childNodes;
        for (let i = 0; i < nodes.length; i += 1) children[i] = ser(nodes[i], depth, dom === null ? null : dom - 1);
        value.children = children;
      }
      if (v.nodeType === 1) {
        value.attributes = { __proto__: null };
        const attributes = v.attributes;
        for (let i = 0; i < attributes.length; i += 1) value.attributes[attributes[i].name] = attributes[i].value;
        value.shadowRoot = v.shadowRoot ? ser(v.shadowRoot, depth, dom) : null;
      }
      if (shadow) value.mode = v.mode;
      const out = { __proto__: null, type: 'node', value };
      out[NK] = v;
      return out;
    };
    const ser = (v, depth, dom = DOM) => {
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
      if (isNode(v)) return serNode(v, depth, dom);
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
      const out = { __proto__: null, type };
      if (!nests) return out;
      // Met before (a cycle, or the same object twice): both get one internalId, this no value.
      const first = H.apply(H.weakGet, known, [v]);
      if (first !== undefined) {
        if (first.internalId === undefined) { ids += 1; first.internalId = `headway-internal-${ids}`; }
        out.internalId = first.internalId;
        return out;
      }
      H.apply(H.weakSet, known, [v, out]);
      if (depth === 0) return out;
      const inner = (x) => ser(x, depth - 1);
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
      out.value = value;
      return out;
    };
    // Serializes `v` to maxObjectDepth `depth` (64 at most), maxDomDepth `dom` and
    // includeShadowTree `shadow`; one started within another (a getter that calls a channel)
    // leaves the other's state as it was.
    const serialize = (v, depth, dom, shadow) => {
      const outer = { counted, known, DOM, SHADOW };
      counted = 0; known = new H.WeakMap(); DOM = dom; SHADOW = shadow;
      try { return ser(v, depth); }
      finally { counted = outer.counted; known = outer.known; DOM = outer.DOM; SHADOW = outer.SHADOW; }
    };
    """#

    // The function body run in the page's world (through the classic Execute Script path, so
    // nodes cross as element references) with one argument: {run: "evaluate" | "call",
    // expression, this, args, awaitPromise, depth, nodeKey, root}. It answers {ok: RemoteValue},
    // {thrown: RemoteValue, text} or {missing: handle id}; a node, in a RemoteValue or a local
    // value, is an object with the node under `nodeKey`; with `root`, an object result (or
    // exception) gets a `handle` in the document's table, which a local `{handle}` names again.
    // A call's function declaration replaces `\(FUNCTION)` ("null" for evaluate). It is compiled with
    // the body, as the classic runtime compiles scripts (out of reach of a page's CSP), in a scope of
    // its own: the body's names are those of an inner function, so none shadows the page's (called
    // directly with the payload and the callback: a page's Function.prototype.apply is not used).
    static let body = "const headwayUserFunction = (\\(FUNCTION)\n);\n(function () {\n"
        + "const P = arguments[0], NK = P.nodeKey;\n" + serializer + "\n" + #"""
    const MISSING = { __proto__: null };
    // A channel (checked by `local`: {channel, depth, dom, shadow, root}): a function that sends
    // its first argument, serialized as the channel says, as a script.message event.
    const channel = (c) => (value) => {
      try {
        // Found when sent: a page's odd `webkit` getter throws here, not in the call.
        const handler = window.webkit.messageHandlers.headway;
        const data = serialize(value, c.depth, c.dom, c.shadow);
        if (c.root && T && value !== null && (typeof value === 'object' || typeof value === 'function')) {
          const id = T.put(value);
          if (id !== null) data.handle = id;
        }
        const drop = (k, v) => (k === NK ? undefined : v);
        H.apply(handler.postMessage, handler, [(H.stringify || JSON.stringify)({ __proto__: null, kind: 'message',
          data: { __proto__: null, channel: c.channel, data } }, drop)]);
      } catch (_) {}
    };
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
        case 'channel': return channel(x);
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
      try { return { __proto__: null, thrown: held(serialize(e, 1, 0, 'none'), e), text: text(e) }; }
      catch { return { __proto__: null, thrown: { type: 'error' }, text: text(e) }; }
    };
    const done = (v) => {
      try { return { __proto__: null, ok: held(serialize(v, P.depth, P.dom, P.shadow), v) }; }
      catch (e) { return failed(e); }
    };
    let value;
    try {
      if (P.run === 'evaluate') {
        value = H.apply(H.eval, undefined, [P.expression]);
      } else {
        const f = headwayUserFunction;
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
    })(arguments[0], arguments[arguments.length - 1]);
    """#

    // A key no page can guess, for the nodes of one call.
    static func nodeKey() -> String { "headway-node-" + UUID().uuidString.lowercased() }

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
