import Foundation
import Headway

let site = FileManager.default.temporaryDirectory.appendingPathComponent("run-snippets-\(getpid())")
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: site) }
try "<!doctype html><title>Links</title><a href=a.html>a</a> <a href=b.html>b</a>".write(
    to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
try #"{"ok": true}"#.write(to: site.appendingPathComponent("api.json"), atomically: true, encoding: .utf8)
let server = try await HTTPServer(root: site)
let url = await server.url.appendingPathComponent("index.html")

try await Browser.withPage { page in
    try await page.load(url)
    // An expression's value comes back as a JSONValue, or decoded as any Decodable type.
    let links = try await page.evaluate("document.links.length", as: Int.self)
    // A function body that may await; arguments arrive as named parameters.
    let status = try await page.callAsyncFunction("return (await fetch(p)).status", arguments: ["p": "api.json"])
    // A snippet file's source, with errors reported at its own file and line.
    let snippet = Snippet(file: "title.js", source: "await new Promise(r => setTimeout(r, 10)); document.title")
    let result = try await page.run(snippet)
    print(links, status, result.value ?? .null)
}
await server.stop()
