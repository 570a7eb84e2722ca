import CWebKit
import Foundation

/// A script `Page.addInitScript(_:)` added, which `Page.removeInitScript(_:)` takes away.
public struct InitScript: Sendable, Hashable {
    /// Unique within the page (a window the page opens keeps its opener's scripts and their ids).
    public let id: Int
    /// The script's source.
    public let source: String
}

extension Page {
    /// The scripts `addInitScript(_:)` added and not removed (a window the page opened starts
    /// with its opener's).
    public var initScripts: [InitScript] { addedInitScripts }

    /// Runs `source` in every frame of every later navigation at document start, before any of
    /// the page's own scripts (after those of `Browser.Configuration.initScripts`). The page
    /// now showing is not affected; windows the page opens later run it too. Throws `.closed`
    /// for a closed page.
    @discardableResult
    public func addInitScript(_ source: String) throws -> InitScript {
        _ = try liveView()
        let script = InitScript(id: (addedInitScripts.map(\.id).max() ?? 0) + 1, source: source)
        addedInitScripts.append(script)
        let number = (browser?.configuration.initScripts.count ?? 0) + script.id
        initScriptObjects[script.id] = WebViewParts.addInitScript(source, number: number, to: contentManager.pointer)
        return script
    }

    /// Stops running `script` from the next navigation on. Throws `.invalidArgument` when the
    /// page has no such script (never added, or removed already), `.closed` for a closed page.
    public func removeInitScript(_ script: InitScript) throws {
        _ = try liveView()
        guard let objects = initScriptObjects.removeValue(forKey: script.id) else {
            throw HeadwayError(.invalidArgument, "the page has no init script \(script.id)")
        }
        for object in objects { webkit_user_content_manager_remove_script(contentManager.pointer, object.pointer) }
        addedInitScripts.removeAll { $0.id == script.id }
    }
}

// A WebKit user script, unreferenced when the last Swift owner lets it go.
final class UserScript {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { webkit_user_script_unref(pointer) }
}
