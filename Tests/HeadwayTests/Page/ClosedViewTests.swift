import CWebKit
import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// What a closed page leaves behind in the process: nothing of its view. WebKitGTK's GTK 3 view
/// parents a hidden GtkTextView of its own (the one it reads key bindings from) and never
/// unparents it, so without Headway's help each closed page kept that widget (its buffer, input
/// method and style nodes: about 16 KB) for the life of the process.
@Suite("What a closed page leaves behind", .serialized)
@EngineActor
struct ClosedViewTests {
    @Test func closingAPageFreesTheViewsInternalWidgets() async throws {
        let browser = try Browser()
        defer { browser.close() }
        let page = try browser.newPage()
        _ = try await page.load(URL(string: "about:blank")!)
        let finalized = Finalizations()
        let watched = watchInternalChildren(of: try page.liveView(), with: finalized)
        #expect(watched >= 1, "WebKit's view holds its key-binding widget")
        page.close()
        #expect(finalized.count == watched, "every internal widget of the closed view is freed")
    }

    @Test func aViewNobodyShowsFreesItsInternalWidgets() async throws {
        let browser = try Browser()
        defer { browser.close() }
        let parts = WebViewParts(browser: browser)
        let finalized = Finalizations()
        let watched = watchInternalChildren(of: parts.view.pointer, with: finalized)
        #expect(watched >= 1)
        parts.destroy()
        #expect(finalized.count == watched)
    }
}

// Counts the finalizations of the objects it watches.
private final class Finalizations {
    var count = 0
}

// Watches every internal child of `view` (children GTK 3 lists only with its internals) for its
// finalization; returns how many it watches.
@EngineActor
private func watchInternalChildren(of view: UnsafeMutablePointer<WebKitWebView>,
                                   with finalizations: Finalizations) -> Int {
    var children: [UnsafeMutablePointer<GtkWidget>] = []
    let container = UnsafeMutableRawPointer(view).assumingMemoryBound(to: GtkContainer.self)
    withUnsafeMutablePointer(to: &children) { list in
        gtk_container_forall(container, { child, data in
            guard let child, let data else { return }
            data.assumingMemoryBound(to: [UnsafeMutablePointer<GtkWidget>].self).pointee.append(child)
        }, list)
    }
    for child in children {
        // One reference per watch, given up when the child goes (kept, should it never go).
        let data = Unmanaged.passRetained(finalizations).toOpaque()
        g_object_weak_ref(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GObject.self), { data, _ in
            Unmanaged<Finalizations>.fromOpaque(data!).takeRetainedValue().count += 1
        }, data)
    }
    return children.count
}
