import Headway

// Is Element Displayed (https://www.w3.org/TR/webdriver2/#element-displayedness): Headway's own
// version of the rules of Selenium's bot.dom.isShown, which the spec points to. An element is not
// displayed when it or a flat-tree ancestor has display: none, when it is visibility: hidden or
// collapse, when its ancestors make it fully transparent (unless opacity is ignored, as for
// interaction), when it is a hidden input or noscript, inside a closed <details>, has no size (and
// no child with size or text), or is hidden by an ancestor's overflow (OverflowAtom). An option is
// displayed when its select is; an image map's area when its image is and the area has a size.
// Elements are walked in the flat tree: a shadow host's children are its shadow root's, a slot's
// are the nodes assigned to it (or its own when none are).
enum DisplayedAtom {
    // Defines css(e), flatParent(n), flatChildren(n), hiddenInDetails(parent, child), rendered(e) and
    // shown(e, ignoreOpacity), and selectAll(root, selector) (SelectAllScript), for the start of an
    // atom's body. Computed styles are kept for the one call.
    static let helpers = SelectAllScript.source + #"""
    const styles = new Map();
    const css = (e) => {
      let s = styles.get(e);
      if (!s) { s = e.ownerDocument.defaultView.getComputedStyle(e); styles.set(e, s); }
      return s;
    };
    const flatParent = (n) => {
      if (n.assignedSlot) return n.assignedSlot;
      const p = n.parentNode;
      if (!p) return null;
      if (p.nodeType === 11) return p.host ?? null;
      return p.nodeType === 1 ? p : null;
    };
    const flatChildren = (n) => {
      if (n.shadowRoot) return Array.from(n.shadowRoot.childNodes);
      if (n.localName === 'slot' && typeof n.assignedNodes === 'function' && n.getRootNode().host) {
        const assigned = n.assignedNodes();
        if (assigned.length > 0) return assigned;
      }
      return Array.from(n.childNodes);
    };
    // A closed <details> shows only its first <summary>.
    const hiddenInDetails = (p, n) => p.localName === 'details' && !p.open
      && !(n.localName === 'summary' && p.querySelector(':scope > summary') === n);
    const renderedCache = new Map();
    const rendered = (e) => {
      if (renderedCache.has(e)) return renderedCache.get(e);
      const p = flatParent(e);
      const result = css(e).display !== 'none' && (!p || (rendered(p) && !hiddenInDetails(p, e)));
      renderedCache.set(e, result);
      return result;
    };
    const opacity = (e) => {
      let value = 1;
      for (let a = e; a; a = flatParent(a)) value *= Number(css(a).opacity);
      return value;
    };
    const clips = (v) => v === 'hidden' || v === 'clip';
    const sized = (n) => {
      const r = n.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) return true;
      if (n.localName === 'path' && (r.width > 0 || r.height > 0)) return parseFloat(css(n).strokeWidth) > 0;
      const s = css(n);
      if ((r.width === 0 && clips(s.overflowX)) || (r.height === 0 && clips(s.overflowY))) return false;
      return flatChildren(n).some((c) => (c.nodeType === 3 && /\S/.test(c.data))
        || (c.nodeType === 1 && css(c).display !== 'none' && sized(c)));
    };
    const imageMap = (e) => {
      const map = e.localName === 'map' ? e : e.parentElement?.localName === 'map' ? e.parentElement : null;
      if (!map || !map.name) return null;
      const image = selectAll(e.ownerDocument, '[usemap]')
        .find((i) => i.getAttribute('usemap') === '#' + map.name);
      if (!image) return null;
      const r = image.getBoundingClientRect();
      if (e === map || e.shape.toLowerCase() === 'default') return { image, width: r.width, height: r.height };
      const c = e.coords.split(',').map(Number);
      let box = { left: 0, top: 0, right: 0, bottom: 0 };
      const shape = e.shape.toLowerCase();
      if (shape === 'rect' && c.length === 4) box = { left: c[0], top: c[1], right: c[2], bottom: c[3] };
      if (shape === 'circle' && c.length === 3) {
        box = { left: c[0] - c[2], top: c[1] - c[2], right: c[0] + c[2], bottom: c[1] + c[2] };
      }
      if (shape === 'poly' && c.length > 2) {
        const xs = c.filter((_, i) => i % 2 === 0), ys = c.filter((_, i) => i % 2 === 1);
        box = { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
      }
      const left = Math.min(Math.max(box.left, 0), r.width), top = Math.min(Math.max(box.top, 0), r.height);
      return { image, width: Math.min(box.right - box.left, r.width - left),
               height: Math.min(box.bottom - box.top, r.height - top) };
    };
    """# + OverflowAtom.helpers + #"""
    const shown = (e, ignoreOpacity = false) => {
      const name = e.localName;
      if (name === 'option' || name === 'optgroup') {
        const list = e.closest('select, datalist');
        if (list) return list.localName === 'select' && shown(list, true);
      }
      if (name === 'map' || name === 'area') {
        const m = imageMap(e);
        return m !== null && m.width > 0 && m.height > 0 && shown(m.image, ignoreOpacity);
      }
      if (name === 'input' && e.type === 'hidden') return false;
      if (name === 'noscript') return false;
      const visibility = css(e).visibility;
      if (visibility === 'hidden' || visibility === 'collapse') return false;
      if (!rendered(e)) return false;
      if (!ignoreOpacity && opacity(e) === 0) return false;
      // display: contents (a slot) has no box of its own: its nearest box ancestor's counts.
      let box = e;
      while (css(box).display === 'contents' && flatParent(box)) box = flatParent(box);
      return sized(box) && !hiddenByOverflow(box);
    };
    """#

    static let source = "function(element) {\n" + helpers + "return shown(element);\n}"
}
