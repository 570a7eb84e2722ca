import CWebKit
import Foundation

extension Page {
    /// Runs `source` in every frame of every later navigation at document start, before any of
    /// the page's own scripts (after those of `Browser.Configuration.initScripts`). The page
    /// now showing is not affected. Throws `.closed` for a closed page.
    public func addInitScript(_ source: String) throws {
        _ = try liveView()
        addInitScript(source, to: contentManagerPointer)
    }

    func addInitScript(_ source: String, to manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        let script = webkit_user_script_new(source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                            WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        webkit_user_content_manager_add_script(manager, script)
        webkit_user_script_unref(script)
    }
}
