// Get Computed Role and Get Computed Label (https://www.w3.org/TR/webdriver2/#get-computed-role).
// WebKit has no JavaScript API for its accessibility tree (WebKitWebDriver asks the UI process), so
// Headway computes both in the page, from the markup:
// - role: the first token of an explicit role attribute, else the implicit role that HTML-AAM
//   gives the common elements ("generic" for the rest; "image" for <img>, as WebKit and Chromium
//   say). Not modelled: context-dependent roles beyond header/footer and section, roles WebKit
//   remaps (a popup <select> is "button" in WebKitGTK, "combobox" here), presentational conflicts.
// - label: a subset of accname 1.2: aria-labelledby, aria-label, the native label (<label>, alt,
//   value of buttons, legend, caption, figcaption), text content for roles named from content,
//   then title and placeholder. Not modelled: CSS generated content, embedded-control values
//   inside a name, and aria-hidden subtleties beyond skipping hidden subtrees.
enum AccessibilityAtoms {
    static let common = #"""
    const w = this;
    const html = (e) => e.namespaceURI === 'http://www.w3.org/1999/xhtml';
    const inside = (e, selector) => e.parentElement?.closest(selector) != null;
    const implicitRole = (e) => {
      const n = e.localName, type = (e.getAttribute('type') ?? 'text').toLowerCase();
      if (!html(e)) return n === 'svg' ? 'graphics-document' : n === 'math' ? 'math' : 'generic';
      switch (n) {
      case 'a': case 'area': return e.hasAttribute('href') ? 'link' : 'generic';
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'blockquote': return 'blockquote';
      case 'button': return 'button';
      case 'caption': return 'caption';
      case 'code': return 'code';
      case 'datalist': return 'listbox';
      case 'del': case 's': return 'deletion';
      case 'details': return 'group';
      case 'dialog': return 'dialog';
      case 'em': return 'emphasis';
      case 'fieldset': case 'optgroup': return 'group';
      case 'figure': return 'figure';
      case 'footer': return inside(e, 'article, aside, main, nav, section') ? 'generic' : 'contentinfo';
      case 'form': return 'form';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'header': return inside(e, 'article, aside, main, nav, section') ? 'generic' : 'banner';
      case 'hr': return 'separator';
      case 'html': return 'document';
      case 'img': return e.getAttribute('alt') === '' ? 'presentation' : 'image';
      case 'input':
        switch (type) {
        case 'button': case 'submit': case 'reset': case 'image': return 'button';
        case 'checkbox': return 'checkbox';
        case 'radio': return 'radio';
        case 'range': return 'slider';
        case 'number': return 'spinbutton';
        case 'search': return e.hasAttribute('list') ? 'combobox' : 'searchbox';
        case 'hidden': return '';
        default: return e.hasAttribute('list') ? 'combobox' : 'textbox';
        }
      case 'ins': return 'insertion';
      case 'li': return 'listitem';
      case 'main': return 'main';
      case 'math': return 'math';
      case 'menu': case 'ol': case 'ul': return 'list';
      case 'meter': return 'meter';
      case 'nav': return 'navigation';
      case 'option': return 'option';
      case 'output': return 'status';
      case 'p': return 'paragraph';
      case 'progress': return 'progressbar';
      case 'search': return 'search';
      case 'section': return name(e, true) ? 'region' : 'generic';
      case 'select': return e.multiple || e.size > 1 ? 'listbox' : 'combobox';
      case 'strong': return 'strong';
      case 'sub': return 'subscript';
      case 'sup': return 'superscript';
      case 'table': return 'table';
      case 'tbody': case 'thead': case 'tfoot': return 'rowgroup';
      case 'td': return 'cell';
      case 'textarea': return 'textbox';
      case 'th': return e.closest('thead') || e.getAttribute('scope') === 'col' ? 'columnheader' : 'rowheader';
      case 'time': return 'time';
      case 'tr': return 'row';
      default: return 'generic';
      }
    };
    const role = (e) => {
      const explicit = (e.getAttribute('role') ?? '').trim().toLowerCase().split(/\s+/)[0];
      return explicit || implicitRole(e);
    };
    const fromContent = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
      'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab',
      'tooltip', 'treeitem', 'caption', 'code', 'deletion', 'emphasis', 'insertion', 'strong', 'subscript',
      'superscript', 'time', 'term', 'definition']);
    const squash = (s) => s.replace(/\s+/g, ' ').trim();
    const hidden = (e) => e.hasAttribute('hidden') || e.getAttribute('aria-hidden') === 'true'
      || w.getComputedStyle(e).display === 'none' || w.getComputedStyle(e).visibility === 'hidden';
    const text = (node) => Array.from(node.childNodes, (c) => {
      if (c.nodeType === 3) return c.data;
      if (c.nodeType !== 1 || hidden(c)) return '';
      const inner = name(c, false, true);
      const block = !['inline', 'inline-block', 'contents'].includes(w.getComputedStyle(c).display);
      return block ? ` ${inner} ` : inner;
    }).join('');
    const labelled = (e) => (e.getAttribute('aria-labelledby') ?? '').trim().split(/\s+/).filter(Boolean)
      .map((id) => e.getRootNode().getElementById?.(id) ?? w.document.getElementById(id)).filter(Boolean);
    const name = (e, root, recursing = false) => {
      if (!recursing) {
        const refs = labelled(e);
        if (refs.length) return squash(refs.map((r) => name(r, false, true)).join(' '));
      }
      const aria = squash(e.getAttribute('aria-label') ?? '');
      if (aria) return aria;
      if (html(e)) {
        const n = e.localName, type = (e.getAttribute('type') ?? '').toLowerCase();
        if (n === 'input' && ['button', 'submit', 'reset'].includes(type)) {
          return squash(e.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''));
        }
        if ((n === 'input' && type === 'image') || n === 'img' || n === 'area') {
          const alt = squash(e.getAttribute('alt') ?? '');
          if (alt || n === 'img' && e.hasAttribute('alt')) return alt;
        }
        if (recursing && n === 'input' && !['checkbox', 'radio'].includes(type)) return squash(e.value);
        if (recursing && n === 'textarea') return squash(e.value);
        if (!recursing && e.labels && e.labels.length) {
          return squash(Array.from(e.labels, (l) => text(l)).join(' '));
        }
        const first = { fieldset: 'legend', figure: 'figcaption', table: 'caption' }[n];
        const child = first && e.querySelector(`:scope > ${first}`);
        if (child) return squash(text(child));
      }
      if (recursing || fromContent.has(role(e)) || (html(e) && e.localName === 'summary')) {
        const content = squash(text(e));
        if (content) return content;
      }
      return squash(e.getAttribute('title') ?? '') || squash(e.getAttribute('placeholder') ?? '');
    };
    """#

    static let role = "function(element) {\n" + common + "\nreturn role(element);\n}"

    static let label = "function(element) {\n" + common + "\nreturn name(element, true);\n}"
}
