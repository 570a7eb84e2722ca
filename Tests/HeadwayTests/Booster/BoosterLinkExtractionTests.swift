import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

@Suite("Booster link extraction", .serialized)
@EngineActor
struct BoosterLinkExtractionTests {
    static let page = """
        <!doctype html><html><head><meta charset=utf-8><title>Links</title>
        <link rel="next" href="/next.html"><link rel="prefetch" href="/pf.html"><link rel="prerender" href="/pr.html">
        <link rel="prefetch" as="script" href="/chunk.js"><link rel="stylesheet" href="/s.css">
        <script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["/list.html", "rel.html"]}],
          "prerender": [{"urls": ["/pre-list.html"]}, \
        {"source": "list", "urls": ["/lazy.html"], "eagerness": "conservative"}]}</script>
        <script type="speculationrules">{"prefetch": [
          {"source": "document", "eagerness": "eager",
           "where": {"and": [{"href_matches": "/docs/*"}, {"not": {"selector_matches": ".skip"}}]}},
          {"source": "document", "where": {"href_matches": "/*"}}]}</script>
        <script type="speculationrules">not json</script>
        </head><body style="margin:0">
        <a href="/top.html">top</a> <a href="/hidden.html" style="visibility:hidden">hidden</a>
        <a href="/none.html" style="display:none">none</a>
        <a href="/right.html" style="position:absolute;left:3000px;top:0">off to the right</a>
        <a href="/docs/a.html">docs a</a> <a href="/docs/b.html" class="skip">docs b</a>
        <a href="/pf.html" rel="nofollow">prefetched again</a>
        <svg width="100" height="40"><a href="/svg.html"><text y="20">svg</text></a></svg>
        <div style="height:3000px"></div>
        <a href="/below.html">below</a> <a href="/top.html">top again</a>
        </body></html>
        """

    @Test func eachLinkIsReportedOnceWithItsBestSource() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/links.html", .html(Self.page))
        let browser = try Browser()
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("links.html"))
        let text = try #require(try await page.callAsyncFunction(PageScripts.anchors).stringValue)
        let found = try JSONDecoder().decode(LinkPolicy.Found.self, from: Data(text.utf8))
        let links = found.links
        let base = server.url.absoluteString.dropLast()
        let paths = links.map { String($0.href.dropFirst(base.count)) }
        #expect(
            paths == [
                "/next.html", "/pf.html", "/pr.html", "/list.html", "/rel.html", "/pre-list.html", "/lazy.html",
                "/docs/a.html", "/top.html", "/hidden.html", "/none.html", "/right.html", "/docs/b.html", "/svg.html",
                "/below.html",
            ]
        )
        let sources = Dictionary(uniqueKeysWithValues: zip(paths, links.map(\.source)))
        for path in [
            "/next.html", "/pf.html", "/pr.html", "/list.html", "/rel.html", "/pre-list.html", "/docs/a.html",
        ] {
            #expect(sources[path] == .declared, "\(path)")
        }
        for path in ["/top.html", "/docs/b.html", "/svg.html"] { #expect(sources[path] == .viewport, "\(path)") }
        for path in ["/lazy.html", "/hidden.html", "/none.html", "/right.html", "/below.html"] {
            #expect(sources[path] == .document, "\(path)")
        }
        #expect(links[1].nofollow, "an anchor's markers apply to its URL wherever it is declared")
        let suggested = Dictionary(uniqueKeysWithValues: zip(paths, links.map(\.suggested)))
        #expect(suggested["/lazy.html"] == true, "a conservative list rule suggests its URL")
        #expect(suggested["/below.html"] == true, "a conservative document rule suggests what it matches")
        #expect(suggested["/next.html"] == false)
        #expect(found.notes.count == 1 && found.notes[0].contains("not valid JSON"), "\(found.notes)")
        _ = try await page.evaluate("window.URLPattern = undefined")
        let globbed = try await page.callAsyncFunction(PageScripts.anchors).stringValue
        #expect(globbed == text, "without URLPattern, * wildcards match the same links")
    }
}
