import Foundation
import Headway

// An index that links to an article with its own stylesheet.
let site = FileManager.default.temporaryDirectory.appendingPathComponent("use-the-booster-\(getpid())")
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: site) }
for (name, text) in [
    ("index.html", "<!doctype html><title>Index</title><a href=article.html>Read the article</a>"),
    ("article.html", "<!doctype html><title>Article</title><link rel=stylesheet href=site.css><p>Text."),
    ("site.css", "p { color: navy }"),
] {
    try text.write(to: site.appendingPathComponent(name), atomically: true, encoding: .utf8)
}
let server = try await HTTPServer(root: site)
let base = await server.url

var configuration = Browser.Configuration()
configuration.booster = BoosterConfiguration()      // same host only, GET only, within budgets
try await Browser.withBrowser(configuration: configuration) { browser in
    let page = try browser.newPage()
    try await page.load(base.appendingPathComponent("index.html"))
    await browser.settlePrefetch(timeout: .seconds(5)) // the index's links are now in the cache
    let article = try await page.load(base.appendingPathComponent("article.html"))
    let stats = article.prefetch ?? PrefetchLoadStats()
    print(article.title, "from the cache: \(stats.fromCache), from the network: \(stats.fetched)")
}
await server.stop()
