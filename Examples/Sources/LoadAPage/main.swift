import Foundation
import Headway

// A site of one page, served on loopback by Headway's own HTTPServer.
let site = FileManager.default.temporaryDirectory.appendingPathComponent("load-a-page-\(getpid())")
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: site) }
try "<!doctype html><title>Hello</title><p>Hello, Headway.".write(
    to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
let server = try await HTTPServer(root: site)
let url = await server.url.appendingPathComponent("index.html")

// Top-level code runs on the main actor; Browser and Page are reached with `await`.
let result = try await Browser.withPage { page in
    try await page.load(url)
}
print(result.title, result.status ?? 0, String(format: "load event at %.1f ms", result.timing.loadEventEnd))
await server.stop()
