// The script that reports what the page logs and throws.
extension PageScripts {
    // Injected at document start in the main frame: forwards console calls, uncaught errors and
    // unhandled rejections to the `headway` script message handler.
    static let instrumentation = #"""
    (() => {
      if (window.__headwayInstrumented) return;
      Object.defineProperty(window, '__headwayInstrumented', { value: true });
      const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.headway;
      if (!handler) return;
      // Taken before the page's scripts run, which may replace them.
      const stringify = JSON.stringify, apply = Reflect.apply, postMessage = handler.postMessage;
      const ErrorType = Error, ErrorEventType = ErrorEvent, text = String;
      const attribute = Element.prototype.getAttribute;
      const currentScript = Object.getOwnPropertyDescriptor(Document.prototype, 'currentScript').get;
      // An init script's fallback user script fails to start, masked, after its inline run.
      let skipMasked = false;
      Object.defineProperty(window, '__headwayInitGate', {
        value: Object.freeze({ skipMaskedError: (on) => { skipMasked = on; } }),
      });
      // Every object posted has no prototype (a page's Object.prototype.toJSON or an index setter
      // on Array.prototype cannot reach it) and is cloned into a plain one by `rec`.
      const create = Object.create, assign = Object.assign, orphan = Object.setPrototypeOf;
      const rec = (o) => assign(create(null), o);
      const list = () => orphan([], null);
      const post = (m) => { try { apply(postMessage, handler, [stringify(rec(m))]); } catch (_) {} };
      const show = (a) => {
        try {
          if (typeof a === 'string') return a;
          if (a instanceof ErrorType) return text(a);
          const s = stringify(a);
          return s === undefined ? text(a) : s;
        } catch (_) {
          try { return text(a); } catch (_) { return '[unprintable]'; }
        }
      };
      const isArray = Array.isArray, keys = Object.keys, clock = Performance.prototype.now, timing = performance;
      const elapsed = () => apply(clock, timing, []);
      const tagOf = Object.prototype.toString, slice = String.prototype.slice, isView = ArrayBuffer.isView;
      const getter = (type, name) => Object.getOwnPropertyDescriptor(type.prototype, name).get;
      const source = getter(RegExp, 'source'), flags = getter(RegExp, 'flags'), iso = Date.prototype.toISOString;
      const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
      const mapNext = Object.getPrototypeOf(new Map().entries()).next;
      const setNext = Object.getPrototypeOf(new Set().values()).next;
      const NodeType = Node, PromiseType = Promise, top = window;
      // Bounds of one call's arguments: entries of one object, values in all, characters of a string.
      const most = 100, budget = 256, longest = 1024;
      let left = 0;
      const each = (iterator, next, visit) => {
        let n = 0;
        for (let r = apply(next, iterator, []); !r.done && n < most; r = apply(next, iterator, []), n++) visit(r.value);
      };
      const pair = (a, b) => { const p = list(); p[0] = a; p[1] = b; return p; };
      // An argument as a WebDriver BiDi remote value: primitives with their value, and objects two
      // levels deep (arrays, plain objects, maps and sets with their entries; regexps and dates).
      const remote = (a, depth = 0) => {
        left -= 1;
        if (a === null) return rec({ type: 'null' });
        switch (typeof a) {
          case 'string':
            return rec({ type: 'string', value: a.length > longest ? apply(slice, a, [0, longest]) : a });
          case 'boolean': return rec({ type: 'boolean', value: a });
          case 'undefined': return rec({ type: 'undefined' });
          case 'bigint': return rec({ type: 'bigint', value: text(a) });
          case 'symbol': case 'function': return rec({ type: typeof a });
          case 'number':
            return rec({ type: 'number', value: a !== a ? 'NaN' : a === 1 / 0 ? 'Infinity' : a === -1 / 0 ? '-Infinity'
              : a === 0 && 1 / a < 0 ? '-0' : a });
        }
        try {
          const deep = depth < 2 && left > 0, value = list();
          const add = (v) => { if (left > 0) value[value.length] = v; };
          if (isArray(a)) {
            if (deep) for (let i = 0; i < a.length && i < most; i++) add(remote(a[i], depth + 1));
            return rec(deep ? { type: 'array', value } : { type: 'array' });
          }
          if (a === top) return rec({ type: 'window' });
          if (a instanceof NodeType) return rec({ type: 'node' });
          if (a instanceof ErrorType) return rec({ type: 'error' });
          if (a instanceof PromiseType) return rec({ type: 'promise' });
          if (isView(a)) return rec({ type: 'typedarray' });
          const tag = apply(slice, apply(tagOf, a, []), [8, -1]);
          switch (tag) {
            case 'RegExp':
              return rec({ type: 'regexp',
                           value: rec({ pattern: apply(source, a, []), flags: apply(flags, a, []) }) });
            case 'Date':
              try {
                return rec({ type: 'date', value: apply(iso, a, []) });
              } catch (_) {
                return rec({ type: 'date' });
              }
            case 'WeakMap': return rec({ type: 'weakmap' });
            case 'WeakSet': return rec({ type: 'weakset' });
            case 'ArrayBuffer': return rec({ type: 'arraybuffer' });
            case 'Map':
              // Entries are read by index: the page may have replaced arrays' iterator.
              if (deep) {
                each(apply(mapEntries, a, []), mapNext, (entry) => {
                  const k = entry[0], v = entry[1];
                  add(pair(typeof k === 'string' ? k : remote(k, depth + 1), remote(v, depth + 1)));
                });
              }
              return rec(deep ? { type: 'map', value } : { type: 'map' });
            case 'Set':
              if (deep) each(apply(setValues, a, []), setNext, (v) => add(remote(v, depth + 1)));
              return rec(deep ? { type: 'set', value } : { type: 'set' });
          }
          if (!deep) return rec({ type: 'object' });
          const names = keys(a);
          for (let i = 0; i < names.length && i < most; i++) add(pair(names[i], remote(a[names[i]], depth + 1)));
          return rec({ type: 'object', value });
        } catch (_) {
          return rec({ type: 'object' });
        }
      };
      // `shown` gives the arguments a call shows (null: none, for an assert that held). A console
      // call made while one is being reported (a getter that logs) is passed on unreported.
      let reporting = false;
      const wrap = (method, level, shown) => {
        const original = console[method];
        if (typeof original !== 'function') return;
        console[method] = function (...args) {
          if (!reporting) {
            reporting = true;
            try {
              const given = shown ? shown(args) : args;
              if (given) {
                let line = '';
                const values = list();
                left = budget;
                for (let i = 0; i < given.length; i++) {
                  line += (i ? ' ' : '') + show(given[i]);
                  values[i] = remote(given[i]);
                }
                post({ kind: 'console', level, method, text: line, args: values });
              }
            } catch (_) {
            } finally {
              reporting = false;
            }
          }
          return apply(original, this, args);
        };
      };
      for (const level of ['log', 'info', 'warn', 'error', 'debug']) wrap(level, level);
      wrap('trace', 'debug');
      for (const method of ['table', 'dir', 'dirxml']) wrap(method, 'log');
      wrap('assert', 'error', (args) => {
        if (args[0]) return null;
        const rest = list();
        for (let i = 1; i < args.length; i++) rest[i - 1] = args[i];
        return rest.length ? rest : ['Assertion failed'];
      });
      // Counters and timers by label, kept apart from the page's own objects.
      const counts = create(null), timers = create(null);
      const label = (args) => (args.length && args[0] !== undefined ? text(args[0]) : 'default');
      wrap('count', 'log', (args) => {
        const l = label(args);
        counts[l] = (counts[l] || 0) + 1;
        return [`${l}: ${counts[l]}`];
      });
      wrap('countReset', 'log', (args) => { counts[label(args)] = 0; return null; });
      wrap('time', 'log', (args) => {
        const l = label(args);
        if (timers[l] === undefined) timers[l] = elapsed();
        return null;
      });
      for (const method of ['timeLog', 'timeEnd']) {
        wrap(method, 'log', (args) => {
          const l = label(args), start = timers[l];
          if (start === undefined) return null;
          if (method === 'timeEnd') delete timers[l];
          return [`${l}: ${elapsed() - start} ms`];
        });
      }
      addEventListener('error', (e) => {
        if (!(e instanceof ErrorEventType)) return;
        // An init script runs as an inline script that names it (PageScripts+InitScripts.swift).
        let script = null;
        try { script = apply(currentScript, document, []); } catch (_) {}
        const init = script ? apply(attribute, script, ['data-headway-init']) : null;
        if (skipMasked && init === null && !e.filename && e.message === 'Script error.') return;
        post({ kind: 'error', message: show(e.message), file: init !== null ? show(init) : show(e.filename || ''),
               line: e.lineno | 0, column: e.colno | 0 });
      }, true);
      document.addEventListener('DOMContentLoaded', () => post({ kind: 'domContentLoaded' }), { once: true });
      addEventListener('unhandledrejection', (e) => {
        const r = e.reason;
        const message = r instanceof ErrorType ? `${show(r.name)}: ${show(r.message)}` : show(r);
        post({ kind: 'error', message: `Unhandled rejection: ${message}`, file: show((r && r.sourceURL) || ''),
               line: (r && r.line) | 0, column: (r && r.column) | 0 });
      });
    })();
    """#
}
