import Foundation
import Headway
import HeadwayTestSupport
import Testing

// `selectAll` finds what `querySelectorAll` finds, in the same order, with the same errors, from a
// document, an element and a shadow root (SelectAllScript: it makes no NodeList).
@Suite("selectAll against querySelectorAll", .serialized)
@EngineActor
struct SelectAllScriptTests {
    static let page = """
        <title>S</title><div id=a class=x><p>1</p><span class=x>2</span><div><p class=x>3</p></div></div>
        <p id=b>4</p><div id=host></div><svg><circle class=x /></svg>
        <script>const root = document.getElementById('host').attachShadow({ mode: 'open' });
        root.innerHTML = '<p>5</p><b class=x>6</b>';</script>
        """

    @Test func findsWhatQuerySelectorAllFinds() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/s.html", .html(Self.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("s.html"))
            let compare = SelectAllScript.source + """
                const name = (e) => e.localName + (e.textContent ? ':' + e.textContent : '');
                const roots = [document, document.getElementById('a'), document.getElementById('host').shadowRoot];
                const selectors = ['p', '.x', 'div p', '#a > p', 'p, span', '*', ':scope > p', 'circle', 'nope'];
                const out = [];
                for (const root of roots) for (const s of selectors) {
                  const want = Array.from(root.querySelectorAll(s), name).join(' ');
                  const got = selectAll(root, s).map(name).join(' ');
                  if (want !== got) out.push(`${s}: ${got} instead of ${want}`);
                }
                let error = 'none';
                try { selectAll(document.getElementById('b'), 'p[') } catch (e) { error = e.name; }
                out.push(error);
                return out;
                """
            #expect(try await page.callAsyncFunction(compare, in: .isolated) == ["SyntaxError"])
        }
    }
}
