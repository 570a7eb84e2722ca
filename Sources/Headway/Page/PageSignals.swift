import CHeadwayShims
import CWebKit
import Foundation

// A weak link to a page: the signals' user data, and the browser's page registry, neither of
// which may keep a page alive.
typealias WeakPage = Weak<Page>

extension Weak where Object == Page {
    var page: Page? { object }
}

// Connects WebKit's signals to a page's chaining delegate. Every handler runs on the engine
// thread, inside the GLib main loop.
enum PageSignals {
    static func connect(view: GObjectRef<WebKitWebView>, target: WeakPage) -> SignalConnections {
        let signals = SignalConnections(UnsafeMutableRawPointer(view.pointer))
        signals.connect("load-changed", unsafeBitCast(onLoadChanged as LoadChanged, to: GCallback.self), box: target)
        signals.connect("load-failed", unsafeBitCast(onLoadFailed as LoadFailed, to: GCallback.self), box: target)
        signals.connect("decide-policy", unsafeBitCast(onDecidePolicy as DecidePolicy, to: GCallback.self), box: target)
        signals.connect(
            "resource-load-started",
            unsafeBitCast(onResourceStarted as ResourceStarted, to: GCallback.self),
            box: target
        )
        signals.connect(
            "web-process-terminated",
            unsafeBitCast(onTerminated as Terminated, to: GCallback.self),
            box: target
        )
        signals.connect("script-dialog", unsafeBitCast(onScriptDialog as ScriptDialog, to: GCallback.self), box: target)
        signals.connect("authenticate", unsafeBitCast(onAuthenticate as Authenticate, to: GCallback.self), box: target)
        signals.connect(
            "run-file-chooser",
            unsafeBitCast(onRunFileChooser as RunFileChooser, to: GCallback.self),
            box: target
        )
        signals.connect(
            "user-message-received",
            unsafeBitCast(onUserMessage as UserMessage, to: GCallback.self),
            box: target
        )
        PopupSignals.connect(signals, target: target)
        if let history = webkit_web_view_get_back_forward_list(view.pointer) {
            signals.connect("changed", unsafeBitCast(onHistoryChanged as HistoryChanged, to: GCallback.self),
                            box: target, on: UnsafeMutableRawPointer(history))
        }
        for property in ["title", "uri", "estimated-load-progress", "is-loading"] {
            signals.connect("notify::\(property)", unsafeBitCast(onNotify as Notify, to: GCallback.self), box: target)
        }
        return signals
    }

    static func connect(manager: GObjectRef<WebKitUserContentManager>, target: WeakPage) -> SignalConnections {
        let signals = SignalConnections(UnsafeMutableRawPointer(manager.pointer))
        signals.connect(
            "script-message-received::headway",
            unsafeBitCast(onMessage as Message, to: GCallback.self),
            box: target
        )
        return signals
    }
}

private typealias LoadChanged =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, WebKitLoadEvent, gpointer?) -> Void
private typealias LoadFailed =
    @convention(c) (
        UnsafeMutablePointer<WebKitWebView>?, WebKitLoadEvent, UnsafePointer<CChar>?, UnsafeMutablePointer<GError>?,
        gpointer?
    ) -> gboolean
private typealias DecidePolicy =
    @convention(c) (
        UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType,
        gpointer?
    ) -> gboolean
typealias ResourceStarted =
    @convention(c) (
        UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitWebResource>?,
        UnsafeMutablePointer<WebKitURIRequest>?, gpointer?
    ) -> Void
private typealias Terminated =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, WebKitWebProcessTerminationReason, gpointer?) -> Void
private typealias ScriptDialog =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> gboolean
private typealias Authenticate =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitAuthenticationRequest>?, gpointer?)
    -> gboolean
private typealias UserMessage =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitUserMessage>?, gpointer?)
    -> gboolean
private typealias HistoryChanged =
    @convention(c) (gpointer?, UnsafeMutablePointer<WebKitBackForwardListItem>?, gpointer?, gpointer?) -> Void
private typealias Notify =
    @convention(c) (UnsafeMutablePointer<GObject>?, UnsafeMutablePointer<GParamSpec>?, gpointer?) -> Void
private typealias Message =
    @convention(c) (UnsafeMutablePointer<WebKitUserContentManager>?, OpaquePointer?, gpointer?) -> Void

func targetPage(_ data: gpointer?) -> WeakPage { unbox(data, as: WeakPage.self) }

private func onLoadChanged(_ view: UnsafeMutablePointer<WebKitWebView>?, _ event: WebKitLoadEvent, _ data: gpointer?) {
    let target = targetPage(data)
    let seen = view.flatMap(realURI)
    EngineActor.assumeIsolated {
        guard let page = target.page else { return }
        // A view whose priming load was stopped has no URI yet when its first load starts.
        let url = seen ?? page.tracker.current?.requested ?? URL(string: "about:blank")!
        switch event {
        case WEBKIT_LOAD_STARTED: page.chain.page(page, didStartNavigation: url)
        case WEBKIT_LOAD_REDIRECTED: page.chain.page(page, didRedirectNavigation: url)
        case WEBKIT_LOAD_COMMITTED: page.chain.page(page, didCommitNavigation: url)
        case WEBKIT_LOAD_FINISHED: page.chain.page(page, didFinishNavigation: url)
        default: break
        }
        page.refreshState()
    }
}

private func onLoadFailed(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ event: WebKitLoadEvent,
    _ uri: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<GError>?,
    _ data: gpointer?
) -> gboolean {
    let target = targetPage(data)
    let url = uri.flatMap { URL(string: String(cString: $0)) }.map(MirrorScheme.real)
    let info = error.map { HeadwayError.GErrorInfo($0) }
    EngineActor.assumeIsolated {
        guard let page = target.page else { return }
        let record = page.tracker.current
        let failure = HeadwayError.loadFailure(
            of: url,
            from: record?.redirects.last?.to ?? record?.requested ?? record?.finalURL,
            info
        )
        page.chain.page(page, didFailNavigation: url, error: failure)
    }
    return 1
}

private func onDecidePolicy(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ decision: UnsafeMutablePointer<WebKitPolicyDecision>?,
    _ type: WebKitPolicyDecisionType,
    _ data: gpointer?
) -> gboolean {
    if type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE, let decision {
        let target = targetPage(data)
        nonisolated(unsafe) let response = cast(decision, to: WebKitResponsePolicyDecision.self)
        return EngineActor.assumeIsolated { ResponsePolicy.decide(response, page: target.page) } ? 1 : 0
    }
    guard let decision,
        type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION,
        let action = webkit_navigation_policy_decision_get_navigation_action(
            cast(decision, to: WebKitNavigationPolicyDecision.self)
        ),
        let request = webkit_navigation_action_get_request(action)
    else { return 0 }
    if let view, WebViewParts.isPriming(view, uri: String(cString: webkit_uri_request_get_uri(request))) {
        webkit_policy_decision_ignore(decision)
        return 1
    }
    let target = targetPage(data)
    let raw = URL(string: String(cString: webkit_uri_request_get_uri(request))) ?? URL(string: "about:blank")!
    let url = MirrorScheme.real(raw)
    let method = webkit_uri_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
    let kind: NavigationAction.Kind = type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? .newWindow : .navigation
    let item = NavigationAction(kind: kind, url: url, method: method,
                                isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0)
    let shown = view.flatMap { webkit_web_view_get_uri($0) }.flatMap { URL(string: String(cString: $0)) }
    let answer: PolicyDecision = EngineActor.assumeIsolated {
        guard let page = target.page else { return .webKitDefault }
        return page.chain.decide(page, item, requested: raw, shown: shown)
    }
    switch answer {
    case .use: webkit_policy_decision_use(decision)
    case .ignore: webkit_policy_decision_ignore(decision)
    case .webKitDefault: return 0
    case .load(let url):
        webkit_policy_decision_ignore(decision)
        if let view { webkit_web_view_load_uri(view, url.absoluteString) }
    }
    return 1
}

private func onTerminated(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ reason: WebKitWebProcessTerminationReason,
    _ data: gpointer?
) {
    let target = targetPage(data)
    nonisolated(unsafe) let view = view
    EngineActor.assumeIsolated {
        if let view { WebProcessID.forget(view) }
        guard let page = target.page else { return }
        // The memory watch kills a process over the limit itself: WebKit sees a crash.
        let why: WebProcessTermination = if page.memoryWatch?.tookTermination() == true {
            .exceededMemoryLimit
        } else {
            switch reason {
            case WEBKIT_WEB_PROCESS_CRASHED: .crashed
            case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemoryLimit
            default: .terminatedByAPI
            }
        }
        // A dialog held open belonged to the process that ended.
        page.dialogHold.release()
        page.chain.page(page, webProcessDidTerminate: why)
    }
}

// Answers every dialog here, so none reaches GTK's default handler (a modal window nobody can
// click, which would block the page's script until the load timed out).
private func onScriptDialog(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ dialog: OpaquePointer?,
    _ data: gpointer?
) -> gboolean {
    guard let dialog else { return 0 }
    let target = targetPage(data)
    nonisolated(unsafe) let borrowed = dialog
    EngineActor.assumeIsolated { target.page?.answer(borrowed) }
    return 1
}

// Hands a server's (or proxy's) challenge to the page (`Page.authenticate`): its handler's
// answer, or by default the configured credentials once, else none (GTK's default would open a
// login dialog nobody can fill in): the server's 401 (or 407) page loads and its status is
// reported.
private func onAuthenticate(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ request: UnsafeMutablePointer<WebKitAuthenticationRequest>?,
    _ data: gpointer?
) -> gboolean {
    guard let request else { return 0 }
    let target = targetPage(data)
    nonisolated(unsafe) let raw = request
    EngineActor.assumeIsolated {
        if let page = target.page {
            page.authenticate(raw)
        } else {
            webkit_authentication_request_authenticate(raw, nil)
        }
    }
    return 1
}

// The web-process extension's reports: "headway-blocked" with the URL of a request it kept off
// the network.
private func onUserMessage(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ message: UnsafeMutablePointer<WebKitUserMessage>?,
    _ data: gpointer?
) -> gboolean {
    guard let message, let name = webkit_user_message_get_name(message), String(cString: name) == "headway-blocked",
          let parameters = webkit_user_message_get_parameters(message),
          g_variant_is_of_type(parameters, g_variant_type_checked_("s")) != 0 else { return 0 }
    let url = String(cString: g_variant_get_string(parameters, nil))
    let target = targetPage(data)
    EngineActor.assumeIsolated { target.page?.blockedRequest(url) }
    return 1
}

// A history entry was added: a same-document navigation of a document still loading shows here
// only (the view goes on loading).
private func onHistoryChanged(_ list: gpointer?, _ added: UnsafeMutablePointer<WebKitBackForwardListItem>?,
                              _ removed: gpointer?, _ data: gpointer?) {
    guard let added, let uri = webkit_back_forward_list_item_get_uri(added),
          let url = URL(string: String(cString: uri)).map(MirrorScheme.real) else { return }
    let target = targetPage(data)
    EngineActor.assumeIsolated { target.page?.tracker.send(.historyItemAdded(url)) }
}

private func onNotify(
    _ object: UnsafeMutablePointer<GObject>?,
    _ spec: UnsafeMutablePointer<GParamSpec>?,
    _ data: gpointer?
) {
    let target = targetPage(data)
    EngineActor.assumeIsolated { target.page?.refreshState() }
}

private func onMessage(
    _ manager: UnsafeMutablePointer<WebKitUserContentManager>?,
    _ result: OpaquePointer?,
    _ data: gpointer?
) {
    // The 4.1 API passes a WebKitJavascriptResult (not a JSCValue) to this signal.
    guard let result, let value = webkit_javascript_result_get_js_value(result), jsc_value_is_string(value) != 0,
          let raw = jsc_value_to_string(value)
    else { return }
    let text = String(cString: raw)
    g_free(raw)
    let target = targetPage(data)
    EngineActor.assumeIsolated { target.page?.received(message: text) }
}

// The view's current URI as the user knows it (mirror schemes made real again).
func realURI(of view: UnsafeMutablePointer<WebKitWebView>) -> URL? {
    webkit_web_view_get_uri(view).flatMap { URL(string: String(cString: $0)) }.map(MirrorScheme.real)
}
