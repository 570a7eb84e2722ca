// The JavaScript Headway runs in pages. Kept as Swift strings so the binary needs no resources.
enum PageScripts {
    // Async-function body that reads Navigation, Paint and Resource Timing once loadEventEnd is
    // set (at once when `waitForLoad` is "no": a load that ends at DOMContentLoaded); with
    // `entriesWanted` "yes", each request's Resource Timing phases too.
    // It lets two tasks run first, so a navigation the page schedules in its load handler has
    // begun, and reports a meta refresh of at most 1 s to another URL (`metaRefresh`, seconds)
    // and the URLs WebKit may ask for as the page icon (`icons`).
    static let timing = resourcePhases + SelectAllScript.source + #"""
    // A navigation that commits while this runs would leave it unanswered: answer at pagehide.
    const gone = new Promise((r) => addEventListener('pagehide', () => r({ navigated: true }), { once: true }));
    const probe = async () => {
      const entry = () => performance.getEntriesByType('navigation')[0];
      const deadline = performance.now() + (waitForLoad === 'yes' ? 2000 : 0);
      let nav = entry();
      // A document with no navigation entry (about:blank) will not get one: waiting is for loaded ones.
      while ((nav ? nav.loadEventEnd === 0 : document.readyState !== 'complete') && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
        nav = entry();
      }
      for (let i = 0; i < 2; i++) await new Promise((r) => setTimeout(r, 0));
      let metaRefresh = null;
      const refresh = document.querySelector('meta[http-equiv="refresh" i]');
      const parts = refresh && /^\s*(\d+(?:\.\d+)?)\s*[;,]\s*(?:url\s*=\s*)?['"]?([^'"]+)/i.exec(refresh.content || '');
      if (parts && Number(parts[1]) <= 1 && new URL(parts[2], document.baseURI).href !== location.href) {
        metaRefresh = Number(parts[1]);
      }
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      // The page icon is fetched around the load event: counting it would make the figures vary.
      // A URL that cannot be a base (data:, about:) has no default icon.
      let favicon = [];
      try { favicon = [new URL('/favicon.ico', location.href).href]; } catch (_) {}
      const declared = selectAll(document, 'link[rel~="icon" i]').map((l) => l.href);
      const icons = new Set([...favicon, ...declared]);
      const resources = performance.getEntriesByType('resource').filter((r) => !icons.has(r.name));
      let transfer = 0, encoded = 0;
      for (const r of resources) { transfer += r.transferSize || 0; encoded += r.encodedBodySize || 0; }
      const entries = entriesWanted === 'yes' ? resourcePhases() : null;
      return {
        entries,
        responseStart: nav ? nav.responseStart : 0,
        domInteractive: nav ? nav.domInteractive : 0,
        domContentLoadedEventEnd: nav ? nav.domContentLoadedEventEnd : 0,
        loadEventEnd: nav ? nav.loadEventEnd : 0,
        fcp: paint ? paint.startTime : null,
        count: resources.length, transferBytes: transfer, encodedBytes: encoded,
        bufferFull: !!(window.__headwayBuffer && window.__headwayBuffer.full),
        title: document.title, metaRefresh, icons: [...icons],
      };
    };
    return await Promise.race([probe(), gone]);
    """#

    // Async-function body that runs a snippet (`source`, named `file`) and reports its completion
    // value, or the settled value of a promise it returns, as a JSON envelope string.
    // Top-level `await` works: such a snippet runs as an async function whose value is the
    // snippet's last expression statement (or what it returns).
    static let snippetRunner = pristineBinding + snippetHelpers + #"""
    const call = (f, self, ...args) => H.apply(f, self, args);
    const snippetFile = file;
    const seen = new H.WeakSet();
    const text = (x) => {
      try { return typeof x === 'symbol' ? call(H.symbolText, x) : `${x}`; } catch (_) { return '[unprintable]'; }
    };
    // The envelope's JSON text.
    const encode = (v) => {
      if (v === undefined) return '{"undefined":true}';
      const replacer = (k, x) => {
        if (typeof x === 'bigint') return `${x}`;
        if (typeof x === 'function' || typeof x === 'symbol') return undefined;
        if (x instanceof H.Error) return { name: x.name, message: x.message };
        if (H.Node && x instanceof H.Node) return x.outerHTML !== undefined ? x.outerHTML : x.textContent;
        if (x instanceof H.Map) return H.fromEntries(x);
        if (x instanceof H.Set) return H.arrayFrom(x);
        if (x && typeof x === 'object') { if (call(H.weakHas, seen, x)) return '[Circular]'; call(H.weakAdd, seen, x); }
        return x;
      };
      const json = H.stringify(v, replacer);
      return json === undefined ? '{"undefined":true}' : '{"value":' + json + '}';
    };
    let shifts = null, wrappedText = '';
    // Where an error at (line, column) of the wrapped text is in the snippet (1-based).
    const unwrap = (line, column) => {
      if (!shifts || line < 1) return { line, column };
      const lines = call(H.split, wrappedText, '\n');
      let offset = H.max(0, column - 1);
      for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
      let removed = 0;
      for (let i = 0; i < shifts.length; i++) {
        const at = shifts[i][0], length = shifts[i][1];
        removed += H.max(0, (offset < at + length ? offset : at + length) - at);
      }
      const before = call(H.split, call(H.slice, source, 0, H.max(0, offset - removed)), '\n');
      return { line: before.length, column: before[before.length - 1].length + 1 };
    };
    const failure = (e) => {
      const file = (e && e.sourceURL) || '';
      let line = (e && e.line) | 0, column = (e && e.column) | 0;
      if (file === snippetFile || !file) ({ line, column } = unwrap(line, column));
      const name = (e && e.name) || 'Error';
      return H.stringify({ error: { name: text(name), message: e instanceof H.Error ? text(e.message) : text(e),
                                    file: text(file), line, column } });
    };
    // A parse error of the snippet itself is thrown at the eval call, in this runner: Swift
    // reparses the snippet under its own name to locate it.
    const parseError = (e, wrapped) => e instanceof H.SyntaxError && e.sourceURL !== snippetFile
      ? H.stringify({ parseError: { name: text(e.name), message: text(e.message), wrapped } }) : null;
    let value;
    // A snippet that names `headway` gets the input helpers (PageScripts+SnippetInput.swift) as
    // that parameter of the async function it then runs as.
    const helpers = call(H.exec, /\bheadway\b/, source) !== null ? snippetHelpers(H, inputSecret) : null;
    const asAsync = {};
    try {
      try {
        if (helpers) throw asAsync;
        value = H.eval(source + '\n//# sourceURL=' + file);
      } catch (e) {
        const awaits = call(H.exec, /\bawait\b/, source) !== null;
        if (e !== asAsync && (!(e instanceof H.SyntaxError) || e.sourceURL === file || !awaits)) throw e;
        // Top-level await: run as an async function. The wrapper starts on the snippet's first
        // line; `shifts` records where text was inserted, so errors map back to the snippet.
        const compile = (head, tail) => {
          const open = '(async function (headway) {', ret = 'return (';
          const code = tail === undefined ? open + head + '\n})' : open + head + ret + tail + '\n)})';
          const fn = H.eval(code + '\n//# sourceURL=' + file);
          wrappedText = code;
          shifts = tail === undefined
            ? [[0, open.length]]
            : [[0, open.length], [open.length + head.length, ret.length]];
          return fn;
        };
        const candidates = () => {
          const list = [['', source]];
          // Return the last statement's value: try the last few statement boundaries.
          let end = source.length;
          while (end > 0 && (source[end - 1] === ';' || call(H.trimEnd, source[end - 1]) === '')) end--;
          const trimmed = call(H.slice, source, 0, end);
          for (let i = trimmed.length - 1, cuts = 0; i > 0 && cuts < 64; i--) {
            if (trimmed[i] !== ';' && trimmed[i] !== '\n') continue;
            cuts++;
            const tail = call(H.slice, trimmed, i + 1);
            if (call(H.trim, tail)) list[list.length] = [call(H.slice, trimmed, 0, i + 1), tail];
          }
          return list;
        };
        let fn;
        const list = candidates();
        for (let i = 0; i < list.length; i++) {
          try { fn = compile(list[i][0], list[i][1]); break; } catch (_) {}
        }
        if (!fn) {
          try {
            fn = compile(source);
          } catch (wrapped) {
            const thrown = e === asAsync ? wrapped : e;
            thrown.headwayWrapped = true;
            throw thrown;
          }
        }
        value = fn(helpers || undefined);
      }
    } catch (e) {
      if (e instanceof H.EvalError) return '{"evalBlocked":true}';
      return parseError(e, !!(e && e.headwayWrapped)) || failure(e);
    }
    try { value = await value; } catch (e) { return failure(e); }
    const result = encode(value);
    await new H.Promise((r) => H.setTimeout(r, 0));
    await new H.Promise((r) => H.setTimeout(r, 0));
    return result;
    """#

    // With resources recorded: room for the 10,000 requests `resourcePhases()` reports, where
    // browsers keep the first 250 unless the page asks for more.
    static let resourceBuffer = "try { performance.setResourceTimingBufferSize(10000); } catch (_) {}"

    // Injected at document start in the main frame, in Headway's isolated world: notes when the
    // page's Resource Timing buffer fills (250 entries unless the page asks for more), after
    // which the browser drops entries; the timing probe reports it as `bufferFull`.
    static let resourceBufferWatch = """
    if (!window.__headwayBuffer) {
      window.__headwayBuffer = { full: false };
      performance.addEventListener('resourcetimingbufferfull', () => { window.__headwayBuffer.full = true; });
    }
    """

    // A function, `resourcePhases()`, that lists each request's Resource Timing phases, the
    // document's first (at most 10,000).
    static let resourcePhases = #"""
    const resourcePhases = () => {
      const phases = (r) => ({ name: r.name, startTime: r.startTime, domainLookupStart: r.domainLookupStart,
        domainLookupEnd: r.domainLookupEnd, connectStart: r.connectStart, connectEnd: r.connectEnd,
        secureConnectionStart: r.secureConnectionStart, requestStart: r.requestStart, responseStart: r.responseStart,
        responseEnd: r.responseEnd, transferSize: r.transferSize || 0, encodedBodySize: r.encodedBodySize || 0,
        decodedBodySize: r.decodedBodySize || 0, protocol: r.nextHopProtocol || '' });
      return [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .slice(0, 10000).map(phases);
    };

    """#

    // Async-function body: resolves true once an element matches the selector `value` (kind
    // "selector", which must parse) or the page's visible text contains `value` (kind "text"),
    // false after `ms` (a string) milliseconds. One MutationObserver watches the document.
    static let waitForContent = #"""
    const found = kind === 'selector' ? () => document.querySelector(value) !== null : () => {
      const root = document.body || document.documentElement;
      return !!root && (root.innerText || root.textContent || '').includes(value);
    };
    if (kind === 'selector') document.querySelector(value);
    return await new Promise((resolve) => {
      let observer = null;
      let timer = 0;
      const done = (result) => { if (observer) observer.disconnect(); clearTimeout(timer); resolve(result); };
      const check = () => { if (found()) done(true); };
      observer = new MutationObserver(check);
      observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
      timer = setTimeout(() => done(false), Number(ms));
      check();
    });
    """#
}
