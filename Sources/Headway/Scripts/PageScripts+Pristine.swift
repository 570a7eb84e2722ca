// Headway's code that must run in the page's own world (snippets, `callAsyncFunction`, console
// capture) uses copies of the built-ins it needs taken before the page's scripts run, so that a
// page replacing `JSON.stringify`, `Promise` or `Function.prototype.call` cannot break it. The
// copies are held by a frozen object on a property the page can neither replace nor shadow.
// Headway's other scripts (timing, links, selector waits) run in an isolated world, whose
// globals the page cannot reach at all.
// A JavaScript expression: the document's `__headwayPristine`, or null. Where the document-start
// script made none (a frame, an isolated world, a sandbox), the name can still find an element
// whose `id` or `name` it is (the window's named properties): such an element has no `parse`.
package enum PristineLookup {
    package static let expression = "(typeof __headwayPristine === 'object' && __headwayPristine !== null "
        + "&& typeof __headwayPristine.parse === 'function' ? __headwayPristine : null)"
}

// The key that opens a document's handle table (`PageScripts.handleTable`): made once per
// process, handed only to Headway's own calls.
package enum HandleTable {
    package static let key = (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 16) }.joined()
}

extension PageScripts {
    // The isolated world Headway's own scripts run in.
    static let world = "headway-internal"

    // An expression: a frozen object of the built-ins as they are now; `input` the snippet
    // helpers' channel (PageScripts.inputChannel at document start, else null).
    static func pristineCapture(input: String = "null", handles: String = "null") -> String { #"""
    Object.freeze({ input: \#(input),
      stringify: JSON.stringify, parse: JSON.parse, apply: Reflect.apply, eval: eval,
      freeze: Object.freeze, Promise: Promise, setTimeout: setTimeout.bind(window), WeakSet: WeakSet,
      weakHas: WeakSet.prototype.has, weakAdd: WeakSet.prototype.add,
      WeakMap: WeakMap, weakGet: WeakMap.prototype.get, weakSet: WeakMap.prototype.set,
      Error: Error, SyntaxError: SyntaxError, EvalError: EvalError, Map: Map, Set: Set,
      Node: typeof Node === 'function' ? Node : null, fromEntries: Object.fromEntries, arrayFrom: Array.from,
      max: Math.max, split: String.prototype.split, slice: String.prototype.slice, trim: String.prototype.trim,
      trimEnd: String.prototype.trimEnd, exec: RegExp.prototype.exec, symbolText: Symbol.prototype.toString,
      handles: \#(handles),
    })
    """#
    }

    // The document's table of objects WebDriver BiDi handed out as handles (`resultOwnership:
    // root`), by random id, at most 10,000, with the built-ins as they were before the page ran.
    // It is a function that gives its methods only for `HandleTable.key`, which the page never
    // sees; made at document start only (nil where it cannot be).
    static let handleTable = #"""
    (() => { try {
      const m = new Map(), apply = Reflect.apply, get = Map.prototype.get, set = Map.prototype.set,
        has = Map.prototype.has, del = Map.prototype.delete,
        size = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get,
        random = crypto.getRandomValues.bind(crypto), bytes = new Uint8Array(16), hex = Number.prototype.toString;
      const id = () => {
        random(bytes);
        let text = '';
        for (let i = 0; i < 16; i += 1) text += (bytes[i] < 16 ? '0' : '') + apply(hex, bytes[i], [16]);
        return text;
      };
      const table = Object.freeze({
        put: (o) => { if (apply(size, m, []) >= 10000) return null; const k = id(); apply(set, m, [k, o]); return k; },
        has: (k) => apply(has, m, [k]), get: (k) => apply(get, m, [k]), drop: (k) => { apply(del, m, [k]); },
      });
      return (key) => key === '\#(HandleTable.key)' ? table : null;
    } catch { return null; } })()
    """#

    // Injected at document start in the main frame, before the page's own scripts.
    static let pristine = """
    if (!Object.getOwnPropertyDescriptor(window, '__headwayPristine')) {
      Object.defineProperty(window, '__headwayPristine', {
        value: \(pristineCapture(input: inputChannel, handles: handleTable)) });
    }
    """

    // A statement that binds `H` to the copies (taken now where the page started without them).
    static let pristineBinding = """
    const H = \(PristineLookup.expression) ?? \(pristineCapture());
    """
}
