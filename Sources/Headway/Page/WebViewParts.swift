import CHeadwayShims
import CWebKit

// One web view as a browser's pages need it: its user content manager (Headway's
// instrumentation, the configuration's init scripts, the `headway` message handler), the view
// with the configuration's settings, and the offscreen window of the viewport's size it lives
// in. A page owns one; the booster's prerender pool owns one per hidden page, which a page
// adopts when it navigates there.
@EngineActor
struct WebViewParts {
    let manager: GObjectRef<WebKitUserContentManager>
    let view: GObjectRef<WebKitWebView>
    let window: GObjectRef<GtkWidget>
    // The user scripts of each added init script (by `InitScript.id`), to remove one later.
    let addedScripts: [Int: [UserScript]]

    // A view of its own; or, with `related`, the view of a window that view's page opens (same
    // web process), running the opener's added init scripts too.
    init(browser: Browser, relatedTo related: UnsafeMutablePointer<WebKitWebView>? = nil,
         addedInitScripts: [InitScript] = []) {
        let configuration = browser.configuration
        manager = GObjectRef(taking: webkit_user_content_manager_new())
        Self.add(PageScripts.pristine, to: manager.pointer, allFrames: false)
        Self.add(PageScripts.instrumentation, to: manager.pointer, allFrames: false)
        Self.add(PageScripts.resourceBufferWatch, to: manager.pointer, allFrames: false, world: PageScripts.world)
        Self.add(PageScripts.inputWatch, to: manager.pointer, world: PageScripts.world)
        // Mirror pages' `document.cookie`; before the configuration's init scripts, which may use it.
        if browser.booster != nil { Self.add(MirrorCookies.script, to: manager.pointer) }
        if configuration.recordsResources { Self.add(PageScripts.resourceBuffer, to: manager.pointer) }
        for (index, source) in configuration.initScripts.enumerated() {
            Self.addInitScript(source, number: index + 1, to: manager.pointer)
        }
        var added: [Int: [UserScript]] = [:]
        for script in addedInitScripts {
            added[script.id] = Self.addInitScript(script.source, number: configuration.initScripts.count + script.id,
                                                  to: manager.pointer)
        }
        addedScripts = added
        webkit_user_content_manager_register_script_message_handler(manager.pointer, "headway")
        SnippetInput.register(on: manager.pointer)

        let rawView = if let related {
            hw_web_view_new_related(related, manager.pointer)
        } else {
            hw_web_view_new(browser.context.pointer, manager.pointer)
        }
        g_object_ref_sink(UnsafeMutableRawPointer(rawView))
        view = GObjectRef(taking: rawView)
        if (browser.memoryLimit ?? 0) > 0 { WebProcessID.record(on: view.pointer) }
        // The view's settings, given whole: features are read when the page is created.
        let settings = webkit_settings_new()!
        if let agent = configuration.userAgent { webkit_settings_set_user_agent(settings, agent) }
        EngineFeatures.enableEventTiming(in: settings)
        // No one watches a headless page scroll: a wheel's scroll lands at once, not over an
        // animation a script or a screenshot would catch halfway (or, seen under load, not at all).
        webkit_settings_set_enable_smooth_scrolling(settings, 0)
        if configuration.allowsFileAccessFromFileURLs {
            webkit_settings_set_allow_file_access_from_file_urls(settings, 1)
        }
        if configuration.inspectorPort != nil { webkit_settings_set_enable_developer_extras(settings, 1) }
        if !configuration.acceleratedCompositing {
            webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
        webkit_web_view_set_settings(view.pointer, settings)
        g_object_unref(UnsafeMutableRawPointer(settings))
        window = GObjectRef(retaining: gtk_offscreen_window_new())
        gtk_window_set_default_size(
            cast(window.pointer),
            Int32(configuration.viewportWidth),
            Int32(configuration.viewportHeight)
        )
        gtk_container_add(cast(window.pointer), cast(view.pointer))
        gtk_widget_show_all(window.pointer)
        // The booster's handler refuses an http(s) redirect out of http(s) itself. A popup's
        // priming load would replace the document its opener already holds.
        if browser.booster == nil, related == nil { Self.allowFileRedirectFailures(in: view.pointer) }
    }

    // Lets an http(s) redirect to a `file:` URL fail its load instead of killing the web process.
    // WebKitGTK's network process passes such a redirect on; the web process refuses it but
    // reports the `file:` URL in its failure, which the UI process takes for a forged URL and
    // answers by killing the process (`WebPageProxy::didFailProvisionalLoadForFrameShared`
    // checks every URL a web process reports). A view that was once asked to load HTML with a
    // `file:///` base passes that check, whichever web process it uses later: the load then
    // fails as cancelled at the `file:` URL. Web content still cannot load or show local files.
    // The priming load is stopped at once; its policy decision, which WebKit still asks for with
    // the first real load, is refused unseen (`isPriming`).
    static func allowFileRedirectFailures(in view: UnsafeMutablePointer<WebKitWebView>) {
        webkit_web_view_load_html(view, "", primingURI)
        webkit_web_view_stop_loading(view)
        g_object_set_data(UnsafeMutablePointer(OpaquePointer(view)), primingKey, UnsafeMutableRawPointer(bitPattern: 1))
    }

    nonisolated static let primingURI = "file:///?headway-priming"
    nonisolated private static let primingKey = "headway-priming"

    // Whether `uri` is the priming load's, asked about once; it is then forgotten.
    nonisolated static func isPriming(_ view: UnsafeMutablePointer<WebKitWebView>, uri: String) -> Bool {
        let object = UnsafeMutablePointer<GObject>(OpaquePointer(view))
        guard g_object_get_data(object, primingKey) != nil, uri == primingURI else { return false }
        g_object_set_data(object, primingKey, nil)
        return true
    }

    // Adds `source` to run at document start, in every frame unless `allFrames` is false; in the
    // page's own world, or in the isolated `world` named. Returns the script, to remove it later.
    @discardableResult
    static func add(
        _ source: String,
        to manager: UnsafeMutablePointer<WebKitUserContentManager>,
        allFrames: Bool = true,
        world: String? = nil
    ) -> UserScript {
        let frames = allFrames ? WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES : WEBKIT_USER_CONTENT_INJECT_TOP_FRAME
        let script = if let world {
            webkit_user_script_new_for_world(
                source, frames, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)
        } else {
            webkit_user_script_new(source, frames, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        }
        webkit_user_content_manager_add_script(manager, script)
        return UserScript(taking: script!)
    }

    // Adds the `number`th init script (counting the configuration's, then the page's).
    @discardableResult
    static func addInitScript(_ source: String, number: Int,
                              to manager: UnsafeMutablePointer<WebKitUserContentManager>) -> [UserScript] {
        let name = PageScripts.initScriptName(source, number: number)
        return PageScripts.initScripts(source, name: name, number: number).map { add($0, to: manager) }
    }

    // Stops the view's web process and destroys its window (and with it the view), for a view
    // nobody will show.
    func destroy() {
        webkit_web_view_stop_loading(view.pointer)
        webkit_web_view_terminate_web_process(view.pointer)
        webkit_user_content_manager_unregister_script_message_handler(manager.pointer, "headway")
        Self.releaseInternalWidgets(of: view.pointer)
        gtk_widget_destroy(window.pointer)
    }
}
