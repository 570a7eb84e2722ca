import Foundation
import Headway

/// Logs each finished navigation and keeps the page off one host.
final class Log: NavigationDelegate {
    var finished: [URL] = []
    func page(_ page: Page, didFinishNavigation url: URL) { finished.append(url) }
    func page(_ page: Page, decidePolicyFor action: NavigationAction) -> NavigationPolicy? {
        action.url.host == "ads.example" ? .cancel : nil      // nil leaves it to Headway
    }
}

let site = FileManager.default.temporaryDirectory.appendingPathComponent("watch-navigations-\(getpid())")
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: site) }
try "<!doctype html><title>Watched</title>".write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
let server = try await HTTPServer(root: site)
let url = await server.url.appendingPathComponent("index.html")

let finished = try await Browser.withBrowser { browser in
    let log = Log()                                    // the page holds its delegate weakly: keep it
    let page = try browser.newPage(delegate: log)
    try await page.load(url)
    return log.finished
}
print("finished:", finished.map(\.path))
await server.stop()
