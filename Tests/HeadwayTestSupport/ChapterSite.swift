import Foundation
import Headway

/// A book for prefetch-order tests: `/toc.html` links `/ch1.html` … `/chN.html`, one per 100 px
/// line so only the first few are in the viewport. Each chapter has the shared `/book.css`
/// (which imports `/fonts.css` and sets `/paper.svg` as background), its own image `/chN.svg`,
/// and links to the chapters before and after it.
public enum ChapterSite {
    public static let chapters = 40

    public static func chapter(_ n: Int) -> String { "/ch\(n).html" }
    public static func image(_ n: Int) -> String { "/ch\(n).svg" }
    public static let sharedPaths = ["/book.css", "/fonts.css", "/paper.svg"]

    /// Serves the book; `head` goes into the table of contents' `<head>` (speculation rules,
    /// `<link rel=next>`, ...).
    @EngineActor
    public static func server(head: String = "", conditions: NetworkConditions = .none) throws -> HTTPServer {
        let server = try HTTPServer(conditions: conditions)
        let svg = HTTPResponse(
            headers: [("Content-Type", "image/svg+xml")],
            body: Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#.utf8)
        )
        func css(_ text: String) -> HTTPResponse {
            HTTPResponse(headers: [("Content-Type", "text/css")], body: Data(text.utf8))
        }
        let lines = (1...chapters).map {
            #"<p style="height:100px;margin:0"><a href="ch\#($0).html">Chapter \#($0)</a></p>"#
        }
        server.route(
            "/toc.html",
            .html(
                """
                <!doctype html><html><head><meta charset=utf-8><title>Contents</title>\(head)</head>
                <body style="margin:0">\(lines.joined(separator: "\n"))</body></html>
                """
            )
        )
        for n in 1...chapters {
            let neighbours = [n - 1, n + 1].filter { (1...chapters).contains($0) }
                .map { #"<a href="ch\#($0).html">Chapter \#($0)</a>"# }.joined(separator: " ")
            server.route(chapter(n), .html("""
                <!doctype html><html><head><meta charset=utf-8><title>Chapter \(n)</title>
                <link rel="stylesheet" href="/book.css"></head>
                <body><h1>Chapter \(n)</h1><img src="ch\(n).svg" alt=""><nav>\(neighbours)</nav></body></html>
                """))
            server.route(image(n), svg)
        }
        server.route("/book.css", css(#"@import "/fonts.css"; body { background: url(paper.svg) }"#))
        server.route("/fonts.css", css("h1 { font-family: serif }"))
        server.route("/paper.svg", svg)
        return server
    }
}
