import CWebKit
import Foundation

// Bridges WebKit's two JavaScript entry points to async/await through `EngineWait`.
//
// Each call's box is retained once for WebKit and released in the one-shot GAsyncReadyCallback,
// which WebKit always calls (with an error when the view goes away or the call is cancelled).
// The timeout or the task's cancellation can answer first; both cancel the call's GCancellable.
// WebKit can take seconds to honour a cancel (a script spinning in the page never yields), so
// nobody waits for it.
@EngineActor
enum JavaScriptCall {
    // Evaluates a classic script and returns its completion value as JSON.
    static func evaluate(_ view: UnsafeMutablePointer<WebKitWebView>, _ script: String, sourceURI: String?,
                         timeout: Duration, what: String) async throws -> JSONValue {
        try await run(timeout: timeout, what: what, finish: webkit_web_view_evaluate_javascript_finish) { cancellable, box in
            webkit_web_view_evaluate_javascript(view, script, -1, nil, sourceURI, cancellable, javaScriptDone, box)
        }
    }

    // Runs `body` as the body of an async function with `arguments` bound as local names,
    // awaiting a returned promise; in the page's own world, or in the isolated `world` named.
    // `abandonOn`, when given, is handed a function that ends the call with `.scriptError` at
    // once (a snippet calls it when its page is replaced, which WebKit does not report).
    static func callAsyncFunction(_ view: UnsafeMutablePointer<WebKitWebView>, _ body: String,
                                  arguments: [String: String], world: String? = nil, sourceURI: String?,
                                  timeout: Duration, what: String,
                                  abandonOn: ((@escaping @EngineActor () -> Void) -> Void)? = nil) async throws -> JSONValue {
        try await run(timeout: timeout, what: what, finish: webkit_web_view_call_async_javascript_function_finish,
                      abandonOn: abandonOn) { cancellable, box in
            let dict = g_variant_dict_new(nil)
            for (key, value) in arguments {
                g_variant_dict_insert_value(dict, key, g_variant_new_string(value))
            }
            let variant = g_variant_dict_end(dict)
            g_variant_dict_unref(dict)
            // The floating GVariant is consumed by the call.
            webkit_web_view_call_async_javascript_function(view, body, -1, variant, world, sourceURI, cancellable, javaScriptDone, box)
        }
    }

    private static func run(timeout: Duration, what: String, finish: @escaping FinishFunction,
                            abandonOn: ((@escaping @EngineActor () -> Void) -> Void)? = nil,
                            start: (UnsafeMutablePointer<GCancellable>, UnsafeMutableRawPointer) -> Void) async throws -> JSONValue {
        let cancellable = GObjectRef(taking: g_cancellable_new()!)
        return try await EngineWait<JSONValue>.run(
            timeout: timeout,
            onTimeout: {
                g_cancellable_cancel(cancellable.pointer)
                return .failure(HeadwayError(.scriptTimeout, "\(what) did not settle within \(timeout.formatted)"))
            },
            onCancel: { g_cancellable_cancel(cancellable.pointer) }
        ) { wait in
            start(cancellable.pointer, Unmanaged.passRetained(CallBox(wait, finish: finish)).toOpaque())
            abandonOn? {
                // WebKit then calls back with the cancellation, which releases the box.
                g_cancellable_cancel(cancellable.pointer)
                wait.resume(.failure(HeadwayError(.scriptError, "the page navigated away before \(what) settled")))
            }
        }
    }
}

typealias FinishFunction = (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<JSCValue>?

// What one call's callback needs: the wait to answer and the matching finish function.
@EngineActor
private final class CallBox {
    let wait: EngineWait<JSONValue>
    let finish: FinishFunction

    init(_ wait: EngineWait<JSONValue>, finish: @escaping FinishFunction) {
        self.wait = wait
        self.finish = finish
    }
}

private func javaScriptDone(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?, _ data: gpointer?) {
    nonisolated(unsafe) let result = result
    nonisolated(unsafe) let data = data
    nonisolated(unsafe) let view = source.map { cast($0, to: WebKitWebView.self) }
    EngineActor.assumeIsolated {
        let box = Unmanaged<CallBox>.fromOpaque(data!).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        guard let value = box.finish(view, result, &error) else {
            // The message says what the page's JavaScript said (WebKit's GError holds it).
            let said = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? ""
            box.wait.resume(.failure(HeadwayError.consuming(error, .scriptError,
                                                            said.isEmpty ? "JavaScript failed" : "JavaScript failed: \(said)")))
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        box.wait.resume(Result { try jsonValue(of: value) })
    }
}

// Converts a JSCValue to JSONValue. Functions and symbols, which JSON cannot hold, become undefined.
func jsonValue(of value: UnsafeMutablePointer<JSCValue>) throws -> JSONValue {
    if jsc_value_is_undefined(value) != 0 { return .undefined }
    if jsc_value_is_null(value) != 0 { return .null }
    guard let text = jsc_value_to_json(value, 0) else { return .undefined }
    defer { g_free(text) }
    return try JSONValue(json: String(cString: text))
}
