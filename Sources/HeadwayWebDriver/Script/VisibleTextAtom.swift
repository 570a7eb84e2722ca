// Get Element Text (https://www.w3.org/TR/webdriver2/#get-element-text): the spec defers to
// Selenium's bot.dom.getVisibleText; this is Headway's own implementation of its rules, over the
// flat tree (shadow roots and slots as rendered):
// - text counts when its parent element is displayed (DisplayedAtom, opacity included); nothing
//   under display: none counts, but a visible child of a visibility: hidden parent does;
// - zero-width spaces and direction marks are dropped; white-space (white-space-collapse) decides:
//   collapsing styles turn line breaks into spaces and runs of spaces into one; preserving styles
//   keep every space (as no-break spaces, so that trimming spares them); pre-line keeps the breaks;
// - text-transform uppercase, lowercase and capitalize (a word goes on across elements);
// - <br> ends a line; a block-level element starts and ends one (inline-level displays, table
//   cells and display: contents do not); a table cell ends with one space, so cells of a row are
//   joined by single spaces;
// - each line is trimmed of spaces but not of no-break spaces, then no-break spaces become spaces.
// Where the atom's letter and the rendering disagree, Headway follows the rendering: inline-flex,
// inline-grid and display: contents boxes are inline; a <br> under display: none breaks nothing;
// capitalize does not start a word after an apostrophe or an underscore, nor where an element
// splits a word. As in the atom (and WebKitWebDriver), the spaces pre-line text keeps around its
// line breaks stay.
enum VisibleTextAtom {
    // Needs DisplayedAtom.helpers; defines visibleText(e).
    static let helpers = #"""
    const inlineDisplays = new Set(['none', 'contents', 'table-cell', 'table-column', 'table-column-group',
      'ruby', 'ruby-base', 'ruby-text', 'ruby-base-container', 'ruby-text-container']);
    const collapseOf = (s) => {
      const collapse = s.getPropertyValue('white-space-collapse');
      if (collapse) return collapse;
      return { pre: 'preserve', 'pre-wrap': 'preserve', 'break-spaces': 'break-spaces', 'pre-line': 'preserve-breaks' }[
        s.whiteSpace] ?? 'collapse';
    };
    const transformed = (text, transform, before) => {
      if (transform === 'uppercase') return text.toUpperCase();
      if (transform === 'lowercase') return text.toLowerCase();
      if (transform !== 'capitalize') return text;
      const inWord = /[\p{L}\p{M}\p{N}'\u2019_]/u;
      let out = '', previous = before;
      for (const ch of text) {
        out += inWord.test(previous) || !/\p{L}/u.test(ch) ? ch : ch.toUpperCase();
        previous = ch;
      }
      return out;
    };
    const visibleText = (root) => {
      const lines = [''];
      const last = () => lines[lines.length - 1];
      const blank = (s) => /^\s*$/.test(s);
      const append = (text) => {
        const line = last();
        lines[lines.length - 1] = line + (line.endsWith(' ') && text.startsWith(' ') ? text.slice(1) : text);
      };
      const addText = (node, style) => {
        let text = node.data.replace(/[\u200b\u200e\u200f]/g, '').replace(/\r\n?/g, '\n');
        const collapse = collapseOf(style);
        if (!['preserve', 'preserve-breaks', 'break-spaces'].includes(collapse)) text = text.replace(/\n/g, ' ');
        if (['preserve', 'break-spaces', 'preserve-spaces'].includes(collapse)) {
          text = text.replace(/[ \f\t\v\u2028\u2029]/g, '\xa0');
        } else {
          text = text.replace(/[ \f\t\v\u2028\u2029]+/g, ' ');
        }
        append(transformed(text, style.textTransform, last().slice(-1)));
      };
      const visit = (e) => {
        if (e.localName === 'br') { lines.push(''); return; }
        const style = css(e), display = style.display;
        if (display === 'none') return;
        const cell = display === 'table-cell' || e.localName === 'td';
        const block = !cell && !display.startsWith('inline') && !inlineDisplays.has(display);
        if (block && !blank(last())) lines.push('');
        const visible = shown(e);
        for (const child of flatChildren(e)) {
          if (child.nodeType === 3 && visible && !hiddenInDetails(e, child)) addText(child, style);
          else if (child.nodeType === 1) visit(child);
        }
        if (cell && last() !== '' && !last().endsWith(' ')) append(' ');
        if (block && !blank(last())) lines.push('');
      };
      if (rendered(root)) visit(root);
      const trim = (s) => s.replace(/^[^\S\xa0]+|[^\S\xa0]+$/g, '');
      return trim(lines.map(trim).join('\n')).replace(/\xa0/g, ' ');
    };
    """#

    static let source = "function(element) {\n" + DisplayedAtom.helpers + helpers + "return visibleText(element);\n}"
}
