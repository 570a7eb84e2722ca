// Is Element Displayed (https://www.w3.org/TR/webdriver2/#element-displayedness): Headway's own
// version of the essential rules of Selenium's bot.dom.isShown, which WebKitWebDriver also uses.
// An element is not displayed when it or a flat-tree ancestor has display: none, when it is
// visibility: hidden or collapse, when an ancestor makes it fully transparent, when it is a hidden
// input or noscript, inside a closed <details>, has no size (and no child with size or text), or
// lies wholly outside an ancestor that clips its overflow or above or left of the page.
enum DisplayedAtom {
    static let source = #"""
    function(element) {
      const w = this;
      const style = (e) => w.getComputedStyle(e);
      const parent = (e) => e.assignedSlot ?? e.parentElement ?? e.parentNode?.host ?? null;
      const shown = (e) => {
        const name = e.localName;
        if (name === 'option' || name === 'optgroup') {
          const list = e.closest('select, datalist');
          if (list) return list.localName === 'select' && shown(list);
        }
        if (name === 'input' && e.type === 'hidden') return false;
        if (name === 'noscript' || name === 'template') return false;
        for (let a = e; a; a = parent(a)) {
          if (a.nodeType === 1 && style(a).display === 'none') return false;
          if (a.localName === 'details' && a !== e && !a.open) {
            const summary = a.querySelector(':scope > summary');
            if (!(summary && (summary === e || summary.contains(e)))) return false;
          }
        }
        const own = style(e);
        if (own.visibility === 'hidden' || own.visibility === 'collapse') return false;
        for (let a = e; a; a = parent(a)) {
          if (a.nodeType === 1 && Number(style(a).opacity) === 0) return false;
        }
        if (name === 'html' || name === 'body') return true;
        const sized = (n) => {
          const r = n.getBoundingClientRect();
          if (r.width > 0 && r.height > 0) return true;
          if (style(n).overflow === 'hidden' && (r.width === 0 || r.height === 0)) return false;
          return Array.from(n.childNodes).some((c) =>
            (c.nodeType === 3 && /\S/.test(c.data))
            || (c.nodeType === 1 && style(c).display !== 'none' && sized(c)));
        };
        if (!sized(e)) return false;
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) {
          if (r.right + w.pageXOffset <= 0 || r.bottom + w.pageYOffset <= 0) return false;
          for (let a = parent(e); a && a.nodeType === 1; a = parent(a)) {
            const s = style(a);
            const clips = (v) => v === 'hidden' || v === 'clip';
            if (a === w.document.documentElement || a === w.document.body) continue;
            if (!clips(s.overflowX) && !clips(s.overflowY)) continue;
            const b = a.getBoundingClientRect();
            if ((clips(s.overflowX) && (r.right <= b.left || r.left >= b.right))
                || (clips(s.overflowY) && (r.bottom <= b.top || r.top >= b.bottom))) return false;
          }
        }
        return true;
      };
      return shown(element);
    }
    """#
}
