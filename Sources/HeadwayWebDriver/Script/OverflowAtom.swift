// Whether an element is hidden by the overflow of the boxes it may overflow, the last rule of
// Selenium's bot.dom.isShown, in Headway's words. The boxes are found from the element up: a fixed
// element may overflow only the viewport; an absolutely positioned one skips statically positioned
// ancestors; inline boxes are skipped. A box whose overflow is visible hides nothing; one of zero
// size hides everything; one that clips hides an element that lies wholly beyond its edge; one
// that scrolls hides only what lies before its scrollable origin. The root box is the viewport
// (which scrolls), with the body's overflow when the root's is visible. A fixed element beyond the
// viewport can never be scrolled into view, so it is hidden. An element is hidden when its own box
// is and so are all its child elements'.
enum OverflowAtom {
    // Needs css(e), flatParent(n), flatChildren(n) and clips(v) (DisplayedAtom.helpers); defines
    // hiddenByOverflow(e).
    static let helpers = #"""
    const overflowState = (e) => {
      const doc = e.ownerDocument, html = doc.documentElement, body = doc.body, view = doc.defaultView;
      const region = e.getBoundingClientRect();
      const rootVisible = css(html).overflowX === 'visible' && css(html).overflowY === 'visible';
      let fixed = false;
      const container = (x) => {
        const position = css(x).position;
        if (position === 'fixed') { fixed = true; return x === html ? null : html; }
        for (let p = flatParent(x); p; p = flatParent(p)) {
          if (p === html) return p;
          const display = css(p).display;
          if (display.startsWith('inline') || display === 'contents') continue;
          if (position === 'absolute' && css(p).position === 'static') continue;
          return p;
        }
        return null;
      };
      const overflow = (c) => {
        let source = c;
        if (rootVisible && c === html && body) source = body;
        else if (rootVisible && c === body) return { x: 'visible', y: 'visible' };
        let x = css(source).overflowX, y = css(source).overflowY;
        if (c === html) {
          if (x === 'visible') x = 'auto';
          if (y === 'visible') y = 'auto';
        }
        return { x, y };
      };
      for (let c = container(e); c; c = container(c)) {
        const o = overflow(c);
        if (o.x === 'visible' && o.y === 'visible') continue;
        const b = c === html ? { left: 0, top: 0, width: view.innerWidth, height: view.innerHeight }
          : c.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) return 'hidden';
        const beforeX = region.right < b.left, beforeY = region.bottom < b.top;
        if ((beforeX && clips(o.x)) || (beforeY && clips(o.y))) return 'hidden';
        if ((beforeX && o.x !== 'visible') || (beforeY && o.y !== 'visible')) {
          const scrollX = c === html ? view.scrollX : c.scrollLeft, scrollY = c === html ? view.scrollY : c.scrollTop;
          if ((region.right < b.left - scrollX && o.x !== 'visible')
              || (region.bottom < b.top - scrollY && o.y !== 'visible')) return 'hidden';
          return overflowState(c) === 'hidden' ? 'hidden' : 'scroll';
        }
        const afterX = region.left >= b.left + b.width, afterY = region.top >= b.top + b.height;
        if ((afterX && clips(o.x)) || (afterY && clips(o.y))) return 'hidden';
        if ((afterX && o.x !== 'visible') || (afterY && o.y !== 'visible')) {
          if (fixed) return 'hidden';
          return overflowState(c) === 'hidden' ? 'hidden' : 'scroll';
        }
      }
      return 'none';
    };
    const overflowHidden = new Map();
    const hiddenByOverflow = (e) => {
      if (!overflowHidden.has(e)) {
        overflowHidden.set(e, overflowState(e) === 'hidden'
          && flatChildren(e).every((c) => c.nodeType !== 1 || hiddenByOverflow(c)));
      }
      return overflowHidden.get(e);
    };
    """#
}
