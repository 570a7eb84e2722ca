// JavaScript atoms for finding elements and reading their state
// (https://www.w3.org/TR/webdriver2/#element-retrieval, #element-state). Each is a function
// expression for `Session.callAtom`: `this` is the current browsing context's window, element and
// shadow root arguments arrive revived, and `fail(code, message)` returns a WebDriver error.
enum ElementAtoms {
    // (using, value, start: element, shadow root or null for the document) -> [element]. Link text
    // is a link's visible text, as Get Element Text gives it.
    static let find = "function(using, value, start) {\n" + DisplayedAtom.helpers + VisibleTextAtom.helpers + #"""
      const d = this.document;
      const root = start ?? d;
      const invalid = (e) => fail('invalid selector', `"${value}" is not a valid ${using}: ${e.message ?? e}`);
      const all = (selector) => {
        try { return selectAll(root, selector); } catch (e) { invalid(e); }
      };
      switch (using) {
      case 'css selector':
        return all(value);
      case 'link text':
      case 'partial link text': {
        const partial = using === 'partial link text';
        return all('a').filter((a) => {
          const text = visibleText(a).trim();
          return partial ? text.includes(value) : text === value;
        });
      }
      case 'tag name': {
        if (typeof root.getElementsByTagName === 'function') return Array.from(root.getElementsByTagName(value));
        const html = 'http://www.w3.org/1999/xhtml';
        return all('*').filter((e) => value === '*' || e.tagName === value
          || (e.namespaceURI === html && e.localName === value.toLowerCase()));
      }
      case 'xpath': {
        if (root.nodeType === 11) {
          fail('invalid selector', 'WebKit cannot evaluate XPath in a shadow root: use a css selector');
        }
        let result;
        try {
          result = d.evaluate(value, root, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
        } catch (e) { invalid(e); }
        const found = [];
        for (let i = 0; i < result.snapshotLength; i += 1) {
          const node = result.snapshotItem(i);
          if (node.nodeType !== 1) {
            fail('invalid selector', `the XPath "${value}" selects a node that is not an element`);
          }
          found.push(node);
        }
        return found;
      }
      default:
        fail('invalid argument', `"${using}" is not a location strategy`);
      }
    }
    """#

    static let activeElement = #"""
    function() {
      const active = this.document.activeElement;
      if (!active) fail('no such element', 'the document has no active element');
      return active;
    }
    """#

    static let shadowRoot = #"""
    function(element) {
      const root = element.shadowRoot;
      if (!root) fail('no such shadow root', 'the element has no open shadow root');
      return root;
    }
    """#

    static let isSelected = #"""
    function(element) {
      if (element.localName === 'input' && element.namespaceURI === 'http://www.w3.org/1999/xhtml') {
        return (element.type === 'checkbox' || element.type === 'radio') && element.checked;
      }
      if (element.localName === 'option') return element.selected;
      return false;
    }
    """#

    // The HTML boolean attributes: their value is "true" when present, null when absent.
    static let attribute = #"""
    function(element, name) {
      const booleans = new Set(['allowfullscreen', 'allowpaymentrequest', 'allowusermedia', 'async',
        'autofocus', 'autoplay', 'checked', 'compact', 'complete', 'controls', 'declare', 'default',
        'defaultchecked', 'defaultselected', 'defer', 'disabled', 'ended', 'formnovalidate', 'hidden',
        'indeterminate', 'inert', 'iscontenteditable', 'ismap', 'itemscope', 'loop', 'multiple', 'muted',
        'nohref', 'nomodule', 'noresize', 'noshade', 'novalidate', 'nowrap', 'open', 'paused', 'playsinline',
        'pubdate', 'readonly', 'required', 'reversed', 'scoped', 'seamless', 'seeking', 'selected',
        'truespeed', 'typemustmatch', 'willvalidate']);
      if (booleans.has(name.toLowerCase())) return element.hasAttribute(name) ? 'true' : null;
      return element.getAttribute(name);
    }
    """#

    static let cssValue = #"""
    function(element, name) {
      if (this.document.contentType !== 'text/html') return '';
      return this.getComputedStyle(element).getPropertyValue(name);
    }
    """#

    // Lower case for HTML elements, as WebKitWebDriver, geckodriver, chromedriver and the WPT tests
    // have it (the spec's tagName would be upper case).
    static let tagName = #"""
    function(element) {
      const html = element.namespaceURI === 'http://www.w3.org/1999/xhtml' && this.document.contentType === 'text/html';
      return html ? element.tagName.toLowerCase() : element.tagName;
    }
    """#

    static let rect = #"""
    function(element) {
      const r = element.getBoundingClientRect();
      return { x: r.x + this.pageXOffset, y: r.y + this.pageYOffset, width: r.width, height: r.height };
    }
    """#

    // False in XML documents and for disabled form controls (including those in disabled fieldsets).
    // An option or optgroup is disabled with the select or optgroup it is in, as in Selenium's
    // isEnabled (HTML's :disabled leaves them enabled in a disabled select or fieldset).
    static let isEnabled = #"""
    function(element) {
      if (this.document.contentType !== 'text/html') return false;
      const disabled = (e) => {
        try { if (e.matches(':disabled')) return true; } catch { return false; }
        const up = e.parentElement;
        return (e.localName === 'option' || e.localName === 'optgroup') && up !== null
          && (up.localName === 'select' || up.localName === 'optgroup') && disabled(up);
      };
      return !disabled(element);
    }
    """#
}
