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
    const inView = (e) => {
      const p = centerPoint(e);
      return p !== null && e.ownerDocument.elementsFromPoint(p.x, p.y).includes(e);
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
    const inTopView = (x, y) => x >= 0 && y >= 0 && x < window.innerWidth && y < window.innerHeight;
    const container = (e) => {
      if (e.localName === 'option' || e.localName === 'optgroup') {
        const c = e.closest('select, datalist');
        if (c) return c;
      }
      return e;
    };
    const textTypes = ['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time',
                       'datetime-local', 'number', 'range', 'color', 'file'];
    const isMutableControl = (e) => !e.disabled && !e.readOnly
      && ((e.localName === 'input' && textTypes.includes(e.type)) || e.localName === 'textarea');
    const fire = (target, type) => target.dispatchEvent(new Event(type, { bubbles: true }));
    const fireMouse = (target, type) => {
      const C = target.ownerDocument.defaultView.MouseEvent;
      const view = target.ownerDocument.defaultView;
      target.dispatchEvent(new C(type, { bubbles: true, cancelable: true, composed: true, view }));
    };
    """#

    // Element Click's preparation: scroll the container into view, check it is in view and not
    // obscured. Answers { option: true } after running the option steps, or { x, y } to click.
    static let clickPoint = "function(e) {\n" + helpers + #"""
      if (e.localName === 'input' && e.type === 'file') {
        fail('invalid argument', 'Element Click cannot open a file picker: send the paths with Element Send Keys');
      }
      const c = container(e);
      scrollIntoView(c);
      const p = centerPoint(c);
      if (p === null) {
        fail('element not interactable', describe(c) + ' has no part in the viewport (hidden, empty or scrolled away)');
      }
      const top = c.ownerDocument.elementsFromPoint(p.x, p.y)[0];
      if (!top || !(top === c || c.contains(top) || (c.shadowRoot && c.shadowRoot.contains(top)))) {
        if (!top) fail('element not interactable', describe(c) + ' has nothing at its centre point');
        fail('element click intercepted', 'the click on ' + describe(c) + ' at (' + p.x + ', ' + p.y
             + ') would hit ' + describe(top) + ', which is on top of it');
      }
      if (c !== e && e.localName === 'option') {
        fireMouse(c, 'mouseover'); fireMouse(c, 'mousemove');
        // WebKit opens the select's popup menu (a GTK grab that takes later keys) on any mousedown
        // left to its default action: the last listener stops that.
        const w = c.ownerDocument.defaultView, stop = (ev) => ev.preventDefault();
        w.addEventListener('mousedown', stop, { once: true });
        fireMouse(c, 'mousedown');
        w.removeEventListener('mousedown', stop);
        c.focus();
        if (!e.disabled && !(e.parentElement && e.parentElement.localName === 'optgroup' && e.parentElement.disabled)) {
          fire(c, 'input');
          const previous = e.selected;
          if (c.multiple) e.selected = !e.selected; else e.selected = true;
          if (!previous) fire(c, 'change');
        }
        fireMouse(c, 'mouseup'); fireMouse(c, 'click');
        return { option: true };
      }
      // Up through the frames: the point must be on each frame element in its parent too.
      let x = p.x, y = p.y;
      for (let w = c.ownerDocument.defaultView; w.frameElement; w = w.parent) {
        const f = w.frameElement, r = f.getBoundingClientRect(), cs = w.parent.getComputedStyle(f);
        x += r.left + f.clientLeft + parseFloat(cs.paddingLeft || '0');
        y += r.top + f.clientTop + parseFloat(cs.paddingTop || '0');
        const hit = w.parent.document.elementsFromPoint(x, y)[0];
        if (hit !== f) {
          if (!hit) fail('element not interactable', describe(c) + ' is in a frame whose part in view hides it');
          fail('element click intercepted', 'the click on ' + describe(c) + ' would hit ' + describe(hit)
               + ', which is on top of its frame ' + describe(f));
        }
      }
      if (!inTopView(x, y)) fail('element not interactable', describe(c) + ' is outside the viewport');
      return { x, y };
    }
    """#

    // Element Clear.
    static let clear = "function(e) {\n" + helpers + #"""
      const editingHost = e.isContentEditable && (!e.parentElement || !e.parentElement.isContentEditable);
      if (!editingHost && !isMutableControl(e)) {
        fail('invalid element state', describe(e) + ' is neither an enabled, writable form field nor content editable');
      }
      scrollIntoView(e);
      if (centerPoint(e) === null) fail('element not interactable', describe(e) + ' has no part in the viewport');
      if (editingHost) {
        if (e.innerHTML === '') return null;
        e.focus(); e.innerHTML = ''; e.blur();
        return null;
      }
      const empty = e.type === 'file' ? e.files.length === 0 : e.value === '';
      if (empty && e.checkValidity()) return null;
      e.focus();
      if (e.type === 'file') e.value = ''; else e.value = '';
      fire(e, 'input'); fire(e, 'change');
      e.blur();
      return null;
    }
    """#

    // Element Send Keys' preparation: focus the element, caret at the end when it was not
    // focused. Answers { file: true, multiple } for a file input, else null.
    static let focusForKeys = "function(e, strict) {\n" + helpers + #"""
      if (e.localName === 'input' && e.type === 'file') {
        if (strict) {
          scrollIntoView(e);
          if (centerPoint(e) === null) fail('element not interactable', describe(e) + ' has no part in the viewport');
        }
        return { file: true, multiple: e.multiple };
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
