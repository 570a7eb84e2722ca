// Headway's code that must run in the page's own world (snippets, `callAsyncFunction`, console
// capture) uses copies of the built-ins it needs taken before the page's scripts run, so that a
// page replacing `JSON.stringify`, `Promise` or `Function.prototype.call` cannot break it. The
// copies are held by a frozen object on a property the page can neither replace nor shadow.
// Headway's other scripts (timing, links, selector waits) run in an isolated world, whose
// globals the page cannot reach at all.
extension PageScripts {
    // The isolated world Headway's own scripts run in.
    static let world = "headway-internal"

    // An expression: a frozen object of the built-ins as they are now; `input` the snippet
    // helpers' channel (PageScripts.inputChannel at document start, else null).
    static func pristineCapture(input: String = "null") -> String { #"""
    Object.freeze({ input: \#(input),
      stringify: JSON.stringify, parse: JSON.parse, apply: Reflect.apply, eval: eval,
      freeze: Object.freeze, Promise: Promise, setTimeout: setTimeout.bind(window), WeakSet: WeakSet,
      weakHas: WeakSet.prototype.has, weakAdd: WeakSet.prototype.add,
      Error: Error, SyntaxError: SyntaxError, EvalError: EvalError, Map: Map, Set: Set,
      Node: typeof Node === 'function' ? Node : null, fromEntries: Object.fromEntries, arrayFrom: Array.from,
      max: Math.max, split: String.prototype.split, slice: String.prototype.slice, trim: String.prototype.trim,
      trimEnd: String.prototype.trimEnd, exec: RegExp.prototype.exec, symbolText: Symbol.prototype.toString,
    })
    """#
    }

    // Injected at document start in the main frame, before the page's own scripts.
    static let pristine = """
    if (!Object.getOwnPropertyDescriptor(window, '__headwayPristine')) {
      Object.defineProperty(window, '__headwayPristine', { value: \(pristineCapture(input: inputChannel)) });
    }
    """

    // A statement that binds `H` to the copies (taken now where the page started without them).
    static let pristineBinding = """
    const H = typeof __headwayPristine === 'object' && __headwayPristine !== null
      ? __headwayPristine : \(pristineCapture());
    """
}
