// Element Click's page side (https://www.w3.org/TR/webdriver2/#element-click). The element's
// container (an option's select or datalist, else the element) is scrolled into view; then it is
// `element not interactable` when the container is not displayed (opacity aside: a transparent
// element still takes clicks), has no in-view centre point, or is not in the paint tree there (its
// own or an ancestor's pointer-events: none, clipping); `element click intercepted` when the
// topmost element there is not the container or inside it, in its document and in each frame's
// parent. An option is then selected as the spec's option steps say; anything else gets the point
// for a trusted click.
enum ElementClickAtom {
    // Answers { option: true } after the option steps, or { x, y } to click (top-level viewport).
    static let source = "function(e) {\n" + DisplayedAtom.helpers + InteractionAtoms.helpers + #"""
      if (e.localName === 'input' && e.type === 'file') {
        fail('invalid argument', 'Element Click cannot open a file picker: send the paths with Element Send Keys');
      }
      const c = container(e);
      scrollIntoView(c);
      if (!shown(c, true)) fail('element not interactable', describe(c) + ' is not displayed');
      const p = centerPoint(c);
      if (p === null) fail('element not interactable', describe(c) + ' has no part in the viewport');
      const tree = paintTree(c, p);
      if (!tree.some((x) => c.contains(x))) {
        fail('element not interactable', describe(c) + ' is not in view at its centre (' + p.x + ', ' + p.y
             + '): clipped, or pointer-events: none');
      }
      if (!c.contains(tree[0])) {
        fail('element click intercepted', 'the click on ' + describe(c) + ' at (' + p.x + ', ' + p.y
             + ') would hit ' + describe(tree[0]) + ', which is on top of it');
      }
      let x = p.x, y = p.y;
      for (let w = c.ownerDocument.defaultView; w.frameElement; w = w.parent) {
        const f = w.frameElement, r = f.getBoundingClientRect(), cs = w.parent.getComputedStyle(f);
        x += r.left + f.clientLeft + parseFloat(cs.paddingLeft || '0');
        y += r.top + f.clientTop + parseFloat(cs.paddingTop || '0');
        const hits = paintTree(f, { x, y });
        if (!hits.some((h) => f.contains(h))) {
          fail('element not interactable', describe(c) + ' is in a frame whose part in view hides it');
        }
        if (!f.contains(hits[0])) {
          fail('element click intercepted', 'the click on ' + describe(c) + ' would hit ' + describe(hits[0])
               + ', which is on top of its frame ' + describe(f));
        }
      }
      if (!inTopView(x, y)) fail('element not interactable', describe(c) + ' is outside the viewport');
      if (e.localName !== 'option' || c === e) return { x, y };
      fireMouse(c, 'mouseover');
      fireMouse(c, 'mousemove');
      // WebKit opens the select's popup menu (a GTK grab that takes later keys) on any mousedown
      // left to its default action: the last listener stops that.
      const view = c.ownerDocument.defaultView, stop = (ev) => ev.preventDefault();
      view.addEventListener('mousedown', stop, { once: true });
      fireMouse(c, 'mousedown');
      view.removeEventListener('mousedown', stop);
      c.focus({ preventScroll: true });
      // An option of a disabled select is as disabled as one of a disabled optgroup.
      if (!e.matches(':disabled') && !c.matches(':disabled')) {
        fire(c, 'input', true);
        const previous = e.selected;
        e.selected = c.multiple ? !previous : true;
        if (!previous) fire(c, 'change');
      }
      fireMouse(c, 'mouseup');
      fireMouse(c, 'click');
      return { option: true };
    }
    """#
}
