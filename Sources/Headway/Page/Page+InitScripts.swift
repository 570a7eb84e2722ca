import CWebKit
import Foundation

extension Page {
    /// Runs `source` in every frame of every later navigation at document start, before any of
    /// the page's own scripts (after those of `Browser.Configuration.initScripts`). The page
    /// now showing is not affected. Throws `.closed` for a closed page.
    public func addInitScript(_ source: String) throws {
        _ = try liveView()
        addedInitScripts.append(source)
        let number = (browser?.configuration.initScripts.count ?? 0) + addedInitScripts.count
        WebViewParts.addInitScript(source, number: number, to: contentManager.pointer)
    }
}
