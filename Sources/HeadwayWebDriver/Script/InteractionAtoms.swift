// The JavaScript of the interaction commands (https://www.w3.org/TR/webdriver2/#element-interaction),
// each a function called through `Session.callAtom` with `this` the current browsing context.
// Points are in CSS pixels from the top-level viewport's top left: a frame's content offset is
// added for each frame element from the element's window up to the top.
enum InteractionAtoms {
    // Shared helpers, placed at the start of each atom's body.
    static let helpers = #"""
    const describe = (e) => {
      if (!e || e.nodeType !== 1) return String(e);
      let s = '<' + e.localName;
      if (e.id) s += ' id="' + e.id + '"';
      if (typeof e.className === 'string' && e.className) s += ' class="' + e.className + '"';
      return s + '>';
    };
    const frameOffset = (w) => {
      let x = 0, y = 0;
      while (w.frameElement) {
        const f = w.frameElement, r = f.getBoundingClientRect(), cs = w.parent.getComputedStyle(f);
        x += r.left + f.clientLeft + parseFloat(cs.paddingLeft || '0');
        y += r.top + f.clientTop + parseFloat(cs.paddingTop || '0');
        w = w.parent;
      }
      return { x, y };
    };
    const centerPoint = (e) => {
      const w = e.ownerDocument.defaultView, rects = e.getClientRects();
      if (rects.length === 0) return null;
      const r = rects[0];
      const left = Math.max(0, Math.min(r.x, r.x + r.width));
      const right = Math.min(w.innerWidth, Math.max(r.x, r.x + r.width));
      const top = Math.max(0, Math.min(r.y, r.y + r.height));
      const bottom = Math.min(w.innerHeight, Math.max(r.y, r.y + r.height));
      if (right <= left || bottom <= top) return null;
      return { x: Math.floor((left + right) / 2), y: Math.floor((top + bottom) / 2) };
    };
    // The pointer-interactable paint tree at a point: the elements there, topmost first, as seen
    // from e's own tree (a document or a shadow root), so that e itself can be among them.
    const paintTree = (e, p) => {
      const tree = e.getRootNode();
      return (typeof tree.elementsFromPoint === 'function' ? tree : e.ownerDocument).elementsFromPoint(p.x, p.y);
    };
    const inView = (e) => {
      const p = centerPoint(e);
      return p !== null && paintTree(e, p).some((x) => e.contains(x));
    };
    // WebKit scrolls only the element's own document: each frame element is brought into its
    // parent's view in turn.
    const scrollIntoView = (e) => {
      if (!inView(e)) e.scrollIntoView({ block: 'end', inline: 'nearest', behavior: 'instant' });
      for (let w = e.ownerDocument.defaultView; w.frameElement; w = w.parent) {
        const f = w.frameElement, r = f.getBoundingClientRect(), p = w.parent;
        if (r.top < 0 || r.left < 0 || r.bottom > p.innerHeight || r.right > p.innerWidth) {
          f.scrollIntoView({ block: 'end', inline: 'nearest', behavior: 'instant' });
        }
      }
    };
    // Whether a point (top-level viewport coordinates) is in the top-level viewport.
    const topView = this.top;
    const inTopView = (x, y) => x >= 0 && y >= 0 && x < topView.innerWidth && y < topView.innerHeight;
    const container = (e) => {
      if (e.localName === 'option' || e.localName === 'optgroup') {
        const c = e.closest('select, datalist');
        if (c) return c;
      }
      return e;
    };
    const textTypes = ['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time',
                       'datetime-local', 'number', 'range', 'color', 'file'];
    const isMutableControl = (e) => !e.matches(':disabled') && !e.readOnly
      && ((e.localName === 'input' && textTypes.includes(e.type)) || e.localName === 'textarea');
    const EventType = this.Event, MouseEventType = this.MouseEvent;
    const fire = (target, type, composed = false) =>
      target.dispatchEvent(new EventType(type, { bubbles: true, composed }));
    const fireMouse = (target, type) => target.dispatchEvent(new MouseEventType(type,
      { bubbles: true, cancelable: true, composed: true, view: target.ownerDocument.defaultView }));
    """#

    // Element Send Keys' preparation: focus the element, caret at the end when it was not
    // focused. Answers { file: true, multiple } for a file input, else null.
    static let focusForKeys = "function(e, strict) {\n" + helpers + #"""
      if (e.localName === 'input' && e.type === 'file') {
        if (strict) {
          scrollIntoView(e);
          if (centerPoint(e) === null) fail('element not interactable', describe(e) + ' has no part in the viewport');
        }
        return { file: true, multiple: e.multiple, directory: e.webkitdirectory === true };
      }
      scrollIntoView(e);
      const doc = e.ownerDocument;
      if (doc.activeElement !== e) {
        e.focus();
        const active = doc.activeElement;
        if (active !== e && !(e.isContentEditable && active && active.contains(e))) {
          fail('element not interactable', describe(e) + ' cannot have the keyboard focus');
        }
        if (typeof e.setSelectionRange === 'function') {
          try { const n = e.value.length; e.setSelectionRange(n, n); } catch {}
        } else if (e.isContentEditable) {
          const s = doc.getSelection(), r = doc.createRange();
          r.selectNodeContents(e); r.collapse(false); s.removeAllRanges(); s.addRange(r);
        }
      }
      return null;
    }
    """#

    // An element's in-view centre point for an action's origin, or null; and the top viewport.
    static let actionOrigin = "function(e) {\n" + helpers + #"""
      const p = centerPoint(e);
      if (p === null) return null;
      const o = frameOffset(e.ownerDocument.defaultView);
      return { x: p.x + o.x, y: p.y + o.y };
    }
    """#

    // The same for a wheel action's origin, scrolled into view first when its in-view centre is
    // outside the top-level viewport, as chromedriver and geckodriver do (the spec does not).
    static let scrollOrigin = "function(e) {\n" + helpers + #"""
      const at = () => {
        const p = centerPoint(e);
        if (p === null) return null;
        const o = frameOffset(e.ownerDocument.defaultView);
        return { x: p.x + o.x, y: p.y + o.y };
      };
      const first = at();
      if (first !== null && inTopView(first.x, first.y)) return first;
      scrollIntoView(e);
      return at();
    }
    """#
}
