import CWebKit
public import Foundation

/// Bridges WebKit's two JavaScript entry points to async/await. Each callback box is retained
/// once and released in its one-shot GAsyncReadyCallback, which WebKit always calls (with an
/// error when the view goes away or the cancellable fires).
@EngineActor
enum JavaScriptCall {
    /// Evaluates a classic script and returns its completion value as JSON.
    static func evaluate(_ view: UnsafeMutablePointer<WebKitWebView>, _ script: String, sourceURI: String?,
                         cancellable: UnsafeMutablePointer<GCancellable>?) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ResultBox(continuation, finish: webkit_web_view_evaluate_javascript_finish)).toOpaque()
            webkit_web_view_evaluate_javascript(view, script, -1, nil, sourceURI, cancellable, javaScriptDone, box)
        }
    }

    /// Runs `body` as the body of an async function with `arguments` bound as local names,
    /// awaiting a returned promise.
    static func callAsyncFunction(_ view: UnsafeMutablePointer<WebKitWebView>, _ body: String,
                                  arguments: [String: String], sourceURI: String?,
                                  cancellable: UnsafeMutablePointer<GCancellable>?) async throws -> JSONValue {
        let dict = g_variant_dict_new(nil)
        for (key, value) in arguments {
            g_variant_dict_insert_value(dict, key, g_variant_new_string(value))
        }
        let variant = g_variant_dict_end(dict)
        g_variant_dict_unref(dict)
        return try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ResultBox(continuation, finish: webkit_web_view_call_async_javascript_function_finish)).toOpaque()
            // The floating GVariant is consumed by the call.
            webkit_web_view_call_async_javascript_function(view, body, -1, variant, nil, sourceURI, cancellable, javaScriptDone, box)
        }
    }
}

private typealias FinishFunction = (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<JSCValue>?

private final class ResultBox {
    let continuation: CheckedContinuation<JSONValue, Error>
    let finish: FinishFunction
    init(_ continuation: CheckedContinuation<JSONValue, Error>, finish: @escaping FinishFunction) {
        self.continuation = continuation
        self.finish = finish
    }
}

private func javaScriptDone(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?, _ data: gpointer?) {
    let box = Unmanaged<ResultBox>.fromOpaque(data!).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let view = source.map { cast($0, to: WebKitWebView.self) }
    guard let value = box.finish(view, result, &error) else {
        box.continuation.resume(throwing: HeadwayError.consuming(error, .scriptError, "JavaScript failed"))
        return
    }
    defer { g_object_unref(UnsafeMutableRawPointer(value)) }
    box.continuation.resume(with: Result { try jsonValue(of: value) })
}

/// Converts a JSCValue to JSONValue. Functions and symbols, which JSON cannot hold, become undefined.
func jsonValue(of value: UnsafeMutablePointer<JSCValue>) throws -> JSONValue {
    if jsc_value_is_undefined(value) != 0 { return .undefined }
    if jsc_value_is_null(value) != 0 { return .null }
    guard let text = jsc_value_to_json(value, 0) else { return .undefined }
    defer { g_free(text) }
    return try JSONValue(json: String(cString: text))
}
