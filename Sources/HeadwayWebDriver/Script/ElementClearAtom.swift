// Element Clear's page side (https://www.w3.org/TR/webdriver2/#element-clear). `invalid element
// state` unless the element is editable: a mutable form control (an input of a text-like, date,
// number, range, color or file type, or a textarea; neither disabled nor read-only) or content
// editable. Then it is scrolled into view and must be interactable: keyboard-interactable (it can
// take the focus: rendered, visible, enabled, not inert) or pointer-interactable (in the paint tree
// at its in-view centre), else `element not interactable`. A form control is cleared as the spec's
// "clear a resettable element" says: nothing happens when it is empty and valid; else focus, value
// emptied (input and change when that changed it, as a user's edit would), blur. Content editable:
// nothing when it is empty; else focus, innerHTML emptied, blur.
enum ElementClearAtom {
    static let source = "function(e) {\n" + DisplayedAtom.helpers + InteractionAtoms.helpers + #"""
      const doc = e.ownerDocument;
      const control = isMutableControl(e);
      if (!control && !e.isContentEditable && doc.designMode !== 'on') {
        fail('invalid element state', describe(e) + ' is neither an enabled, writable form field nor content editable');
      }
      scrollIntoView(e);
      const focusable = rendered(e) && e.getClientRects().length > 0 && css(e).visibility === 'visible'
        && !e.matches(':disabled') && e.closest('[inert]') === null;
      if (!focusable && !inView(e)) {
        fail('element not interactable', describe(e) + ' can neither take the focus nor be seen at its centre');
      }
      if (!control) {
        if (e.innerHTML === '') return null;
        e.focus({ preventScroll: true });
        e.innerHTML = '';
        e.blur();
        return null;
      }
      const file = e.type === 'file';
      const before = file ? e.files.length : e.value;
      if ((file ? before === 0 : before === '') && e.willValidate && e.validity.valid) return null;
      e.focus({ preventScroll: true });
      e.value = '';
      if ((file ? e.files.length : e.value) !== before) {
        fire(e, 'input', true);
        fire(e, 'change');
      }
      e.blur();
      return null;
    }
    """#
}
