// The JavaScript every script and element command runs inside: web element and shadow root
// references (https://www.w3.org/TR/webdriver2/#elements), the current frame, and the JSON clone
// of arguments and results. It runs in Headway's isolated world (`ScriptWorld.isolated`), where
// the page's scripts can neither see the references nor replace what the atoms use, as the body
// of an async function whose arguments are
//   a: the arguments (JSON, with references), p: the frame path (element references from the top),
//   h: the top-level window's handle, m: "atom", "sync" or "async", s: a user script's source,
//   t: its script timeout in ms (null: none), timed in the page as the spec's timer is;
//   w: the sandbox (a world of that name) a user's script runs in, or null for the page's world;
//   n: true to answer one task of the page later (classic Execute Script, which follows a
//   navigation its script scheduled);
// and it is placed after `const F = ...`, the atom to call. A user's script runs in the page's
// own world, as the spec says, through `headwayPage.call` of the current frame. It always
// returns {value} or {error, message}.
enum ScriptRuntime {
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"
    static let shadowKey = "shadow-6066-11e4-a52e-4f735466cecf"
    // A node of any kind, as BiDi's `sharedId` names one (never in a classic client's JSON).
    static let nodeKey = "node-headway-6066-11e4-a52e-4f735466cecf"

    static let prelude = #"""
    const EK = 'element-6066-11e4-a52e-4f735466cecf', SK = 'shadow-6066-11e4-a52e-4f735466cecf';
    const WK = 'window-fcc6-11e5-b4f8-330a88ab9d7f', FK = 'frame-075b-4da1-b6ba-e579c2d3230a';
    const AK = 'node-headway-6066-11e4-a52e-4f735466cecf';
    class WDError { constructor(code, message) { this.code = code; this.message = message; } }
    const fail = (code, message) => { throw new WDError(code, message); };
    const REG = Symbol.for('headway.webdriver.references');
    const hex = () => Array.from(crypto.getRandomValues(new Uint8Array(8)),
                                 b => b.toString(16).padStart(2, '0')).join('');
    // One registry per document, kept by the top window (a frame's window of a local file takes
    // no property from this world) under a symbol, which no element's id can shadow.
    const registries = window[REG] ?? Object.defineProperty(window, REG, { value: new WeakMap() })[REG];
    // The browsing context a window shows, as a hash of its path: the top-level window's handle,
    // then each frame element's reference down to it. A reference starts with it, so one from
    // another window or frame is `no such element`, one from an earlier document here stale.
    const contextOf = (w) => {
      // A frame whose element this world cannot read (another origin above it) counts by its
      // index in its parent.
      const frames = [];
      for (let x = w; x && x.parent && x.parent !== x && frames.length <= 64; x = x.parent) {
        let element = null;
        try { element = x.frameElement; } catch {}
        if (!element) {
          let index = -1;
          try { for (let i = 0; i < x.parent.length; i += 1) if (x.parent[i] === x) index = i; } catch {}
          element = '#' + index;
        }
        frames.push(element);
      }
      let path = h, hash = 0x811c9dc5;
      for (let i = frames.length - 1; i >= 0; i -= 1) {
        path += '/' + (typeof frames[i] === 'string' ? frames[i] : reference(frames[i]));
      }
      for (let i = 0; i < path.length; i += 1) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
      return hash.toString(16).padStart(8, '0');
    };
    const registry = (w) => {
      let r = registries.get(w.document);
      if (!r) {
        r = { ctx: contextOf(w), doc: hex(), next: 0, byId: new Map(), ids: new WeakMap() };
        registries.set(w.document, r);
      }
      return r;
    };
    const isNode = (v) => v !== null && typeof v === 'object' && typeof v.nodeType === 'number' && 'ownerDocument' in v;
    const isShadow = (v) => isNode(v) && v.nodeType === 11 && v.host !== undefined && v.mode !== undefined;
    const isWindow = (v) => v !== null && typeof v === 'object' && v.window === v && 'document' in v;
    const windowOf = (node) => (isShadow(node) ? node.host : node).ownerDocument?.defaultView ?? ctx;
    const reference = (node) => {
      const r = registry(windowOf(node));
      let id = r.ids.get(node);
      if (!id) {
        id = r.ctx + '-' + r.doc + '-' + (r.next += 1);
        r.ids.set(node, id);
        // Weak: a reference keeps no node alive; now and then the dead entries are dropped.
        r.byId.set(id, new WeakRef(node));
        if (r.next % 1024 === 0) for (const [k, ref] of r.byId) if (!ref.deref()) r.byId.delete(k);
      }
      return id;
    };
    // `shadow`: true for a shadow root, false for an element (or another node a script returned,
    // never a shadow root), null for a node of any kind (BiDi's sharedId).
    const known = (id, w, shadow) => {
      const what = shadow ? 'shadow root' : shadow === null ? 'node' : 'element';
      // BiDi answers `no such node` for what it does not know, as it does for a stale one.
      const missing = shadow ? 'no such shadow root' : shadow === null ? 'stale element reference' : 'no such element';
      const parts = typeof id === 'string' ? /^([0-9a-f]{8})-([0-9a-f]{16})-([0-9]+)$/.exec(id) : null;
      if (!parts) fail(missing, `no ${what} has the reference ${id}`);
      const r = registry(w);
      if (r.ctx !== parts[1]) fail(missing, `the ${what} ${id} belongs to another window or frame: switch to it first`);
      if (r.doc !== parts[2]) {
        fail(shadow ? 'detached shadow root' : 'stale element reference',
             `the ${what} ${id} belongs to a document that is no longer the current one`);
      }
      const ref = r.byId.get(id);
      if (!ref) fail(missing, `no ${what} has the reference ${id}`);
      const node = ref.deref();
      // Collected: nothing held it, so it had left the document.
      // BiDi's nodes stay known while they live, in the document or not.
      if (!node || (shadow !== null && (isShadow(node) ? !node.host.isConnected : !node.isConnected))) {
        fail(shadow ? 'detached shadow root' : 'stale element reference',
             `the ${what} ${id} is no longer in the document`);
      }
      if (shadow === false && isShadow(node)) fail('no such element', `${id} is a shadow root, not an element`);
      if (shadow === true && !isShadow(node)) fail('no such shadow root', `${id} is an element, not a shadow root`);
      return node;
    };
    let ctx = window;
    // The current browsing context, from the top through the frame path. One that is gone is no
    // longer open: `no such window`, as the spec says (BiDi names it `no such frame`).
    const enter = () => {
      for (const frame of p) {
        let el;
        try { el = known(frame[EK], ctx, false); } catch (e) {
          fail('no such window',
               `the current frame is gone (${e.message}): switch to the top with Switch To Frame (null)`);
        }
        const next = el.contentWindow;
        if (!next) fail('no such window', 'the current frame is gone: switch to the top with Switch To Frame (null)');
        try { void next.document.documentElement; } catch {
          fail('no such frame', 'the frame shows another origin, which headway cannot enter');
        }
        ctx = next;
      }
    };
    const revive = (v, seen) => {
      if (v === null || typeof v !== 'object') return v;
      if (Array.isArray(v)) return v.map(x => revive(x, seen));
      // A reference's id must be a string (the spec's JSON deserialize).
      for (const key of [EK, SK, WK, FK, AK]) {
        if (key in v && typeof v[key] !== 'string') fail('invalid argument', `a reference's ${key} must be a string`);
      }
      if (EK in v) return known(v[EK], ctx, false);
      if (SK in v) return known(v[SK], ctx, true);
      if (AK in v) return known(v[AK], ctx, null);
      if (WK in v) {
        if (v[WK] !== h) fail('no such window', `the window ${v[WK]} is not this session's current window`);
        return window;
      }
      if (FK in v) {
        let frame = null;
        try { frame = known(v[FK], ctx, false).contentWindow; } catch {}
        if (!frame) fail('no such window', `no frame of the current document has the reference ${v[FK]}`);
        return frame;
      }
      const out = {};
      for (const k of Object.keys(v)) out[k] = revive(v[k], seen);
      return out;
    };
    const clone = (v, seen) => {
      if (v === undefined || v === null) return null;
      const t = typeof v;
      if (t === 'boolean' || t === 'string') return v;
      if (t === 'number') return Number.isFinite(v) ? v : null;
      if (t === 'bigint') return Number(v);
      if (t === 'symbol' || t === 'function') return t === 'function' ? {} : null;
      if (isShadow(v)) return { [SK]: reference(v) };
      if (isNode(v)) {
        if (v.nodeType === 1 && !v.isConnected) {
          fail('stale element reference', 'the script returned an element that is not in the document');
        }
        return { [EK]: reference(v) };
      }
      if (isWindow(v)) {
        if (v === window) return { [WK]: h };
        if (v.frameElement) return { [FK]: reference(v.frameElement) };
        fail('javascript error', 'the script returned a window that is not this session\'s');
      }
      if (seen.includes(v)) fail('javascript error', 'cyclic object value: the result refers to itself');
      const inner = [...seen, v];
      const tag = Object.prototype.toString.call(v);
      // The spec's collections.
      if (Array.isArray(v) || ['[object NodeList]', '[object HTMLCollection]', '[object Arguments]',
        '[object HTMLAllCollection]', '[object HTMLFormControlsCollection]', '[object HTMLOptionsCollection]',
        '[object FileList]', '[object DOMTokenList]'].includes(tag)) {
        return Array.from(v, x => clone(x, inner));
      }
      if (typeof v.toJSON === 'function') return clone(v.toJSON(), inner);
      const out = {};
      for (const k of Object.keys(v)) out[k] = clone(v[k], inner);
      return out;
    };
    try {
      enter();
      const args = revive(a, []);
      let value;
      if (m === 'atom') {
        value = await F.apply(ctx, args);
      } else {
        if (!ctx.headwayPage) {
          fail('unknown error', 'scripts cannot run in the page: Headway\'s web-process extension '
            + '(libHeadwayWebExtension.so) was not loaded; ship the Headway_Headway.resources folder beside headway');
        }
        try {
          value = await ctx.headwayPage.call(s, args, { async: m === 'async', timeout: t ?? undefined,
                                                        sandbox: w ?? undefined });
        } catch (e) {
          if (e.name === 'ScriptTimeout') {
            fail('script timeout', `the script did not finish within the script timeout (${t} ms)`);
          }
          fail('javascript error', e.message);
        }
      }
      const result = { value: clone(value, []) };
      // A user's script answers one task later: a navigation it scheduled (form.submit()) has
      // asked for its policy by then, so the command can follow it (Session+Navigation).
      if (n) {
        await new Promise((r) => {
          const done = () => { removeEventListener('pagehide', done); r(); };
          setTimeout(done, 0);
          addEventListener('pagehide', done, { once: true });
        });
      }
      return result;
    } catch (e) {
      if (e instanceof WDError) return { error: e.code, message: e.message };
      const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      return { error: 'javascript error', message };
    }
    """#
}
