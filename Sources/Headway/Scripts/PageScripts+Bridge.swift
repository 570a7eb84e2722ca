// The two halves of the isolated world's bridge to the page's world, which the web-process
// extension installs in every frame (Sources/HeadwayWebExtension/bridge.c).
extension PageScripts {
    // The isolated world `ScriptWorld.isolated` names.
    static let isolatedWorld = "headway-isolated"

    // Evaluated in the page's world when its global is made, before the page's scripts run: a
    // function `run(f, nodes, payload, mode, reply)` that the extension keeps out of the page's
    // reach. It calls `f` (the script, compiled by the extension) with the arguments in `payload`
    // ("KEY\nJSON", where `{KEY: i}` stands for `nodes[i]`) and, for mode "async", a resolve
    // callback last; waits for a returned promise; and calls `reply(ok, text, nodes)` once: the
    // result as "KEY\nJSON" (nodes and windows as markers) or an error message. It uses only the
    // built-ins it captured when it was made, so a page that replaces them changes nothing here.
    static let pageRunner = #"""
    (() => {
      'use strict';
      const W = window, O = Object, apply = Reflect.apply, keys = O.keys, define = O.defineProperty;
      const describe = O.getOwnPropertyDescriptor, protoOf = O.getPrototypeOf, isArray = Array.isArray;
      const stringify = JSON.stringify, parse = JSON.parse, text = String, finite = Number.isFinite, toNumber = Number;
      const tag = O.prototype.toString, indexOf = String.prototype.indexOf, slice = String.prototype.slice;
      const P = Promise, then = P.prototype.then, E = Error, min = Math.min;
      const S = Set, setAdd = S.prototype.add, setDelete = S.prototype.delete;
      const random = crypto.getRandomValues.bind(crypto), U32 = Uint32Array;
      const nodeType = describe(Node.prototype, 'nodeType').get;
      const topOf = (describe(W, 'top') ?? describe(protoOf(W), 'top')).get;
      const frameOf = (describe(W, 'frameElement') ?? describe(protoOf(W), 'frameElement'))?.get;
      const contentWindows = [describe(HTMLIFrameElement.prototype, 'contentWindow').get,
                              describe(HTMLFrameElement.prototype, 'contentWindow').get];
      const collections = ['[object Array]', '[object NodeList]', '[object HTMLCollection]', '[object Arguments]',
        '[object HTMLAllCollection]', '[object FileList]', '[object HTMLFormControlsCollection]',
        '[object HTMLOptionsCollection]', '[object DOMTokenList]'];
      // The promises of scripts still running: held here, so that WebKit cannot collect a call's
      // promise (and fail the call) while a script that never calls back waits out its timeout.
      const pending = new S();
      // The most items of a collection cloned, as the extension's bound on nodes.
      const most = 100000;
      const data = (o, k, v) => define(o, k, { value: v, writable: true, enumerable: true, configurable: true });
      const isNode = (v) => { try { return typeof apply(nodeType, v, []) === 'number'; } catch { return false; } };
      const isWindow = (v) => { try { apply(topOf, v, []); return true; } catch { return false; } };
      const message = (e) => {
        try {
          if (e instanceof E) return `${text(e.name)}: ${text(e.message)}`;
          return text(e);
        } catch { return 'the script threw a value that cannot be shown'; }
      };
      const isCollection = (v) => {
        if (isArray(v)) return true;
        const t = apply(tag, v, []);
        for (let i = 0; i < collections.length; i += 1) if (collections[i] === t) return true;
        return false;
      };
      const clone = (value, key, nodes, seen) => {
        const mark = (m) => '{' + stringify(key) + ':' + stringify(m) + '}';
        const node = (n) => { data(nodes, nodes.length, n); return mark(nodes.length - 1); };
        const go = (v) => {
          if (v === undefined || v === null) return 'null';
          const t = typeof v;
          if (t === 'boolean' || t === 'string') return stringify(v);
          if (t === 'number') return finite(v) ? stringify(v) : 'null';
          if (t === 'bigint') return stringify(toNumber(v));
          if (t === 'symbol') return 'null';
          if (isNode(v)) return node(v);
          if (isWindow(v)) {
            if (v === apply(topOf, W, [])) return mark('window');
            const element = frameOf ? apply(frameOf, v, []) : null;
            if (element) return mark('frame:' + (node(element), nodes.length - 1));
            throw new E('the script returned a window that is not this page\'s');
          }
          for (let i = 0; i < seen.length; i += 1) if (seen[i] === v) throw new E('cyclic object value');
          data(seen, seen.length, v);
          let out, toJSON;
          if (isCollection(v)) {
            out = '[';
            for (let i = 0, n = min(v.length, most); i < n; i += 1) out += (i ? ',' : '') + go(v[i]);
            out += ']';
          } else if (typeof (toJSON = v.toJSON) === 'function') {
            out = go(apply(toJSON, v, []));
          } else {
            out = '{';
            const names = keys(v);
            for (let i = 0; i < names.length; i += 1) {
              out += (i ? ',' : '') + stringify(names[i]) + ':' + go(v[names[i]]);
            }
            out += '}';
          }
          seen.length -= 1;
          return out;
        };
        return go(value);
      };
      return function run(f, nodes, payload, mode, reply) {
        let done = false;
        const answer = (ok, t, n) => { if (!done) { done = true; reply(ok, t, n); } };
        const fail = (e) => answer(false, message(e), []);
        const settle = (value) => {
          try {
            const out = [], bits = random(new U32(2)), key = 'headway-' + bits[0] + '-' + bits[1];
            const json = clone(value, key, out, []);
            answer(true, key + '\n' + json, out);
          } catch (e) { fail(e); }
        };
        let args;
        try {
          const at = apply(indexOf, payload, ['\n']), key = apply(slice, payload, [0, at]);
          args = parse(apply(slice, payload, [at + 1]), function (k, v) {
            if (v === null || typeof v !== 'object' || describe(v, key) === undefined) return v;
            const m = v[key];
            if (m === 'window') return apply(topOf, W, []);
            if (typeof m === 'string') {
              const frame = nodes[+apply(slice, m, [6])];
              for (let i = 0; frame && i < 2; i += 1) { try { return apply(contentWindows[i], frame, []); } catch {} }
              return null;
            }
            return nodes[m] ?? null;
          });
          if (!isArray(args)) args = [];
        } catch (e) { return fail(e); }
        const promise = new P((resolve, reject) => {
          try {
            if (mode === 'async') data(args, args.length, resolve);
            const result = apply(f, W, args);
            let thenable = false;
            try {
              thenable = result !== null && typeof result === 'object' && typeof result.then === 'function';
            } catch {}
            if (mode !== 'async' || thenable) resolve(result);
          } catch (e) { reject(e); }
        });
        // `then` asks the promise for its constructor, which the page may have replaced on
        // Promise.prototype: this one's own says none, which means the built-in.
        define(promise, 'constructor', { value: undefined });
        apply(setAdd, pending, [promise]);
        apply(then, promise, [settle, fail]);
        apply(then, promise, [() => apply(setDelete, pending, [promise]), () => apply(setDelete, pending, [promise])]);
      };
    })()
    """#

    // Evaluated in the isolated world when its global is made: given the extension's native
    // `call`, it defines `headwayPage.call(body, args, options)`, which runs the function body
    // `body` in the page's world with the arguments `args` (DOM nodes and windows anywhere in
    // them cross as the page's) and resolves with its JSON-cloned result (nodes and windows
    // crossing back), or rejects with an Error whose message is what the script threw; with
    // `options.timeout` (ms), one named "ScriptTimeout" once the script has not settled by then,
    // timed in the page from when its call arrived (not the time the call took to arrive); with
    // `options.sandbox` (a name), in that sandbox's world instead of the page's.
    static let isolatedBridge = #"""
    (call) => {
      'use strict';
      const isNode = (v) => v !== null && typeof v === 'object' && typeof v.nodeType === 'number'
        && 'ownerDocument' in v;
      const isWindow = (v) => v !== null && typeof v === 'object' && v.window === v && 'document' in v;
      const hex = () => Array.from(crypto.getRandomValues(new Uint8Array(8)),
                                   (b) => b.toString(16).padStart(2, '0')).join('');
      // The callbacks of calls not yet answered: the extension holds them only weakly, so that a
      // document's scripts never keep it alive; a call that timed out lets its callback go.
      const waiting = new Set();
      const callInPage = (body, args = [], options = {}) => new Promise((resolve, reject) => {
        const key = 'headway-' + hex(), nodes = [];
        const mark = (m) => ({ [key]: m });
        const json = JSON.stringify(args, (k, v) => {
          if (isWindow(v)) {
            if (v === window.top) return mark('window');
            if (!v.frameElement) throw new Error('a window that is not this page\'s cannot be an argument');
            nodes.push(v.frameElement);
            return mark('frame:' + (nodes.length - 1));
          }
          if (isNode(v)) { nodes.push(v); return mark(nodes.length - 1); }
          return v;
        });
        const done = (ok, text, back) => {
          waiting.delete(done);
          if (!ok) return reject(new Error(text));
          const at = text.indexOf('\n'), rkey = text.slice(0, at);
          try {
            resolve(JSON.parse(text.slice(at + 1), (k, v) => {
              if (v === null || typeof v !== 'object' || !Object.hasOwn(v, rkey)) return v;
              const m = v[rkey];
              if (m === 'window') return window.top;
              if (typeof m === 'string') return back[+m.slice(6)]?.contentWindow ?? null;
              return back[m] ?? null;
            }));
          } catch (e) { reject(e); }
        };
        waiting.add(done);
        const error = call(`(function() {\n${body}\n})`, nodes, key + '\n' + (json ?? '[]'),
                           options.async ? 'async' : 'sync', done,
                           typeof options.sandbox === 'string' ? options.sandbox : '');
        if (error !== null) {
          waiting.delete(done);
          return reject(new SyntaxError(error));
        }
        if (typeof options.timeout === 'number') {
          setTimeout(() => {
            waiting.delete(done);
            const late = new Error(`the script did not settle within ${options.timeout} ms`);
            late.name = 'ScriptTimeout';
            reject(late);
          }, options.timeout);
        }
      });
      Object.defineProperty(globalThis, 'headwayPage', { value: Object.freeze({ call: callInPage }) });
    }
    """#
}
