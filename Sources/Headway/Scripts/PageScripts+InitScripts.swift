import Foundation

// An init script runs at document start as an inline `<script>` element that Headway's user
// script adds and removes at once, rather than as the user script itself: WebKit treats a user
// script as cross-origin and masks its exceptions as "Script error." at line 0, while an inline
// script's are reported whole. Like a user script, it runs as a classic script in the page's world,
// so its top-level `let`, `const` and `class` declarations stay global. The element carries the
// script's name, which the instrumentation reports as the error's file, with lines counted from
// the script's first.
//
// A page whose Content-Security-Policy forbids inline scripts blocks the element; the script then
// runs as the user script that follows (its errors masked, as before). That user script is the
// source followed by `let __headwayInitN;`: the element's run declared that name, so after it
// the user script fails to start, before any of its declarations (the masked SyntaxError is not
// reported), and the script runs once either way. `__headwayInitN` is the one global it adds.
extension PageScripts {
    // The attribute on the element that names the init script running.
    static let initScriptAttribute = "data-headway-init"

    // The name errors in `source` are reported under: its last `//# sourceURL=` comment's, or
    // `init-script-N.js` for the `number`th init script.
    static func initScriptName(_ source: String, number: Int) -> String {
        let marker = "//# sourceURL="
        let named = source.split(whereSeparator: \.isNewline).last { $0.hasPrefix(marker) }
        let name = named.map { $0.dropFirst(marker.count).trimmingCharacters(in: .whitespaces) } ?? ""
        return name.isEmpty ? "init-script-\(number).js" : name
    }

    // The three user scripts, in order, that run the `number`th init script, `source`, as `name`:
    // the element's, the fallback, and the one that closes the instrumentation's gate.
    static func initScripts(_ source: String, name: String, number: Int) -> [String] {
        let key = "__headwayInit\(number)"
        let element = """
        (() => {
          const name = \(jsString(name)), source = \(jsString(source));
          const root = document.documentElement;
          if (!root) return;
          const script = document.createElementNS('http://www.w3.org/1999/xhtml', 'script');
          script.setAttribute('\(initScriptAttribute)', name);
          script.textContent = source + '\\n;let \(key) = true;\\n//# sourceURL=' + name;
          let ran = false;
          const seen = () => { if (document.currentScript === script) ran = true; };
          addEventListener('error', seen, true);
          try { root.appendChild(script); } finally { removeEventListener('error', seen, true); script.remove(); }
          if (!ran) { try { ran = \(key) === true; } catch (_) {} }
          const gate = window.__headwayInitGate;
          if (ran && gate) gate.skipMaskedError(true);
        })();
        """
        let close = "if (window.__headwayInitGate) window.__headwayInitGate.skipMaskedError(false);"
        return [element, source + "\n;let \(key);", close]
    }

    // `text` as a JavaScript string literal.
    private static func jsString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
