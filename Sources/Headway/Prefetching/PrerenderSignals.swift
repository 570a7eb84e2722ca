import CHeadwayShims
import CWebKit
import Foundation

// The signal handlers of a hidden prerendered view: they follow its load and end it at the
// first thing a hidden page may not do.
@EngineActor
enum PrerenderSignals {
    static func connect(_ view: GObjectRef<WebKitWebView>, target: Weak<Prerender>) -> SignalConnections {
        let signals = SignalConnections(UnsafeMutableRawPointer(view.pointer))
        signals.connect("load-changed", unsafeBitCast(onLoadChanged as LoadChanged, to: GCallback.self), box: target)
        signals.connect("load-failed", unsafeBitCast(onLoadFailed as LoadFailed, to: GCallback.self), box: target)
        signals.connect("decide-policy", unsafeBitCast(onDecidePolicy as DecidePolicy, to: GCallback.self), box: target)
        signals.connect("web-process-terminated", unsafeBitCast(onEnded as Ended, to: GCallback.self), box: target)
        signals.connect("script-dialog", unsafeBitCast(onRefused as Refused, to: GCallback.self), box: target)
        signals.connect("authenticate", unsafeBitCast(onAuthenticate as Authenticate, to: GCallback.self), box: target)
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
private typealias Ended =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, WebKitWebProcessTerminationReason, gpointer?) -> Void
private typealias Refused = @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> gboolean
private typealias Authenticate =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitAuthenticationRequest>?, gpointer?)
    -> gboolean

private func target(_ data: gpointer?) -> Weak<Prerender> { unbox(data, as: Weak<Prerender>.self) }

private func onLoadChanged(_ view: UnsafeMutablePointer<WebKitWebView>?, _ event: WebKitLoadEvent, _ data: gpointer?) {
    let target = target(data)
    EngineActor.assumeIsolated {
        switch event {
        case WEBKIT_LOAD_STARTED: target.object?.loadStarted()
        case WEBKIT_LOAD_FINISHED: target.object?.loadFinished()
        default: break
        }
    }
}

private func onLoadFailed(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ event: WebKitLoadEvent,
    _ uri: UnsafePointer<CChar>?,
    _ error: UnsafeMutablePointer<GError>?,
    _ data: gpointer?
) -> gboolean {
    let target = target(data)
    EngineActor.assumeIsolated { target.object?.discard(deferred: true) }
    return 1
}

// Navigations while it loads (its own, its frames') are allowed: one of the main frame's own
// shows as a second start, which ends it. Once loaded, any navigation (a late frame's too), and
// a new window at any time, ends the prerender. Responses are decided as for a page.
private func onDecidePolicy(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ decision: UnsafeMutablePointer<WebKitPolicyDecision>?,
    _ type: WebKitPolicyDecisionType,
    _ data: gpointer?
) -> gboolean {
    guard let decision else { return 0 }
    let target = target(data)
    if type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE {
        // As for a page: no downloads, no response that is no page. A main document refused so
        // ends the prerender; a frame's is only refused.
        let response = cast(decision, to: WebKitResponsePolicyDecision.self)
        let isMain = webkit_response_policy_decision_is_main_frame_main_resource(response) != 0
        nonisolated(unsafe) let borrowed = response
        let refused = EngineActor.assumeIsolated { ResponsePolicy.decide(borrowed, page: nil) }
        if refused, isMain { EngineActor.assumeIsolated { target.object?.discard(deferred: true) } }
        return refused ? 1 : 0
    }
    let allowed = EngineActor.assumeIsolated { () -> Bool in
        guard type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, let prerender = target.object else { return false }
        return prerender.state == .loading
    }
    guard allowed else {
        webkit_policy_decision_ignore(decision)
        EngineActor.assumeIsolated { target.object?.discard(deferred: true) }
        return 1
    }
    return 0
}

private func onEnded(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ reason: WebKitWebProcessTerminationReason,
    _ data: gpointer?
) {
    let target = target(data)
    EngineActor.assumeIsolated { target.object?.discard(deferred: true) }
}

// A dialog while hidden: dismissed, and the prerender ends.
private func onRefused(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ dialog: OpaquePointer?,
    _ data: gpointer?
) -> gboolean {
    let target = target(data)
    EngineActor.assumeIsolated { target.object?.discard(deferred: true) }
    return 1
}

private func onAuthenticate(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ request: UnsafeMutablePointer<WebKitAuthenticationRequest>?,
    _ data: gpointer?
) -> gboolean {
    guard let request else { return 0 }
    webkit_authentication_request_cancel(request)
    let target = target(data)
    EngineActor.assumeIsolated { target.object?.discard(deferred: true) }
    return 1
}
