import CWebKit
import Foundation

// Bridges WebKit's two JavaScript entry points to async/await through `engineAsync`.
//
// WebKit always calls back (with an error when the view goes away or the call is cancelled).
// The timeout or the task's cancellation can answer first; both cancel the call's GCancellable.
// WebKit can take seconds to honour a cancel (a script spinning in the page never yields), so
// nobody waits for it.
@EngineActor
enum JavaScriptCall {
    // Evaluates a classic script and returns its completion value as JSON.
    static func evaluate(_ view: UnsafeMutablePointer<WebKitWebView>, _ script: String, sourceURI: String?,
                         timeout: Duration, what: String) async throws -> JSONValue {
        try await run(timeout: timeout, what: what, finish: webkit_web_view_evaluate_javascript_finish) {
            cancellable, callback, data in
            webkit_web_view_evaluate_javascript(view, script, -1, nil, sourceURI, cancellable, callback, data)
        }
    }

    // Runs `body` as the body of an async function with `arguments` bound as local names,
    // awaiting a returned promise; in the page's own world, or in the isolated `world` named.
    // `abandonOn`, when given, is handed a function that ends the call with `.scriptError` at
    // once (a snippet calls it when its page is replaced, which WebKit does not report).
    static func callAsyncFunction(
        _ view: UnsafeMutablePointer<WebKitWebView>,
        _ body: String,
        arguments: [String: String],
        world: String? = nil,
        sourceURI: String?,
        timeout: Duration,
        what: String,
        abandonOn: ((@escaping @EngineActor () -> Void) -> Void)? = nil
    ) async throws -> JSONValue {
        try await run(
            timeout: timeout,
            what: what,
            finish: webkit_web_view_call_async_javascript_function_finish,
            abandonOn: abandonOn
        ) { cancellable, callback, data in
            let dict = g_variant_dict_new(nil)
            for (key, value) in arguments {
                g_variant_dict_insert_value(dict, key, g_variant_new_string(value))
            }
            let variant = g_variant_dict_end(dict)
            g_variant_dict_unref(dict)
            // The floating GVariant is consumed by the call.
            webkit_web_view_call_async_javascript_function(view, body, -1, variant, world, sourceURI, cancellable,
                                                           callback, data)
        }
    }

    private static func run(timeout: Duration, what: String, finish: @escaping FinishFunction,
                            abandonOn: ((@escaping @EngineActor () -> Void) -> Void)? = nil,
                            start: @EngineActor (UnsafeMutablePointer<GCancellable>, GAsyncReadyCallback,
                                                 gpointer) -> Void)
        async throws -> JSONValue {
        try await engineAsync(
            timeout: timeout,
            onTimeout: { HeadwayError(.scriptTimeout, "\(what) did not settle within \(timeout.formatted)") },
            endEarly: abandonOn.map { abandonOn in
                { end in
                    abandonOn { end(HeadwayError(.scriptError, "the page navigated away before \(what) settled")) }
                }
            },
            start: start
        ) { source, result in
            var error: UnsafeMutablePointer<GError>?
            guard let value = finish(source.map { cast($0, to: WebKitWebView.self) }, result, &error) else {
                // The message says what the page's JavaScript said (WebKit's GError holds it).
                let said = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? ""
                throw HeadwayError.consuming(error, .scriptError,
                                             said.isEmpty ? "JavaScript failed" : "JavaScript failed: \(said)")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            return try jsonValue(of: value)
        }
    }
}

typealias FinishFunction = (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?,
                             UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<JSCValue>?

// Converts a JSCValue to JSONValue. Functions and symbols, which JSON cannot hold, become undefined.
func jsonValue(of value: UnsafeMutablePointer<JSCValue>) throws -> JSONValue {
    if jsc_value_is_undefined(value) != 0 { return .undefined }
    if jsc_value_is_null(value) != 0 { return .null }
    guard let text = jsc_value_to_json(value, 0) else { return .undefined }
    defer { g_free(text) }
    return try JSONValue(json: String(cString: text))
}
