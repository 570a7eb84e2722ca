// `selectAll(root, selector)`: what `root.querySelectorAll(selector)` finds (the same elements, in
// document order, the same SyntaxError for a selector that is not valid), without making a
// NodeList. In WebKitGTK 2.50 a non-empty NodeList that `querySelectorAll` makes once a document
// has loaded keeps that whole document alive after it is left (about 1.6 MB a load on the bench's
// pages; a bare WebKitWebView shows it too, docs/performance.md), so Headway's own scripts, which
// run after every load, walk the tree and test each element with `matches` instead. A selector
// with `:scope` means the root only in `querySelectorAll`, which it then still uses.
// Declared as a `const` of the function body it is placed in.
package enum SelectAllScript {
    package static let source = #"""
    const selectAll = (root, selector) => {
      if (root.querySelector(selector) === null) return [];
      if (/:scope/i.test(selector)) return Array.from(root.querySelectorAll(selector));
      const out = [], walker = (root.ownerDocument ?? root).createTreeWalker(root, 1);
      while (walker.nextNode()) if (walker.currentNode.matches(selector)) out.push(walker.currentNode);
      return out;
    };

    """#
}
