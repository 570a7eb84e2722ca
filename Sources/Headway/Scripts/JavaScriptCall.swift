import CWebKit
import Foundation

/// Bridges WebKit's two JavaScript entry points to async/await.
///
/// Each call's box is retained once for WebKit and released in the one-shot GAsyncReadyCallback,
/// which WebKit always calls (with an error when the view goes away or the call is cancelled).
/// The continuation is resumed exactly once: by that callback, or earlier by the timeout, which
/// also cancels the call. WebKit can take seconds to honour a cancel, so nobody waits for it.
@EngineActor
enum JavaScriptCall {
    /// Evaluates a classic script and returns its completion value as JSON.
    static func evaluate(_ view: UnsafeMutablePointer<WebKitWebView>, _ script: String, sourceURI: String?,
                         timeout: Double, what: String) async throws -> JSONValue {
        try await run(timeout: timeout, what: what, finish: webkit_web_view_evaluate_javascript_finish) { cancellable, box in
            webkit_web_view_evaluate_javascript(view, script, -1, nil, sourceURI, cancellable, javaScriptDone, box)
        }
    }

    /// Runs `body` as the body of an async function with `arguments` bound as local names,
    /// awaiting a returned promise.
    static func callAsyncFunction(_ view: UnsafeMutablePointer<WebKitWebView>, _ body: String,
                                  arguments: [String: String], sourceURI: String?,
                                  timeout: Double, what: String) async throws -> JSONValue {
        let dict = g_variant_dict_new(nil)
        for (key, value) in arguments {
            g_variant_dict_insert_value(dict, key, g_variant_new_string(value))
        }
        let variant = g_variant_dict_end(dict)
        g_variant_dict_unref(dict)
        return try await run(timeout: timeout, what: what, finish: webkit_web_view_call_async_javascript_function_finish) { cancellable, box in
            // The floating GVariant is consumed by the call.
            webkit_web_view_call_async_javascript_function(view, body, -1, variant, nil, sourceURI, cancellable, javaScriptDone, box)
        }
    }

    private static func run(timeout: Double, what: String, finish: @escaping FinishFunction,
                            start: (UnsafeMutablePointer<GCancellable>, UnsafeMutableRawPointer) -> Void) async throws -> JSONValue {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
        return try await withCheckedThrowingContinuation { continuation in
            let box = ResultBox(continuation, finish: finish)
            let timer = Task { @EngineActor in
                try await Task.sleep(for: .clamped(seconds: timeout))
                box.resume(.failure(HeadwayError(.scriptTimeout, "\(what) did not settle within \(formatSeconds(timeout))")))
                g_cancellable_cancel(cancellable)
            }
            box.timer = timer
            start(cancellable, Unmanaged.passRetained(box).toOpaque())
        }
    }
}

typealias FinishFunction = (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<JSCValue>?

@EngineActor
private final class ResultBox {
    private var continuation: CheckedContinuation<JSONValue, Error>?
    let finish: FinishFunction
    var timer: Task<Void, Error>?

    init(_ continuation: CheckedContinuation<JSONValue, Error>, finish: @escaping FinishFunction) {
        self.continuation = continuation
        self.finish = finish
    }

    func resume(_ result: Result<JSONValue, Error>) {
        timer?.cancel()
        timer = nil
        continuation?.resume(with: result)
        continuation = nil
    }
}

private func javaScriptDone(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?, _ data: gpointer?) {
    nonisolated(unsafe) let result = result
    nonisolated(unsafe) let data = data
    nonisolated(unsafe) let view = source.map { cast($0, to: WebKitWebView.self) }
    EngineActor.assumeIsolated {
        let box = Unmanaged<ResultBox>.fromOpaque(data!).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        guard let value = box.finish(view, result, &error) else {
            box.resume(.failure(HeadwayError.consuming(error, .scriptError, "JavaScript failed")))
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(value)) }
        box.resume(Result { try jsonValue(of: value) })
    }
}

/// Converts a JSCValue to JSONValue. Functions and symbols, which JSON cannot hold, become undefined.
func jsonValue(of value: UnsafeMutablePointer<JSCValue>) throws -> JSONValue {
    if jsc_value_is_undefined(value) != 0 { return .undefined }
    if jsc_value_is_null(value) != 0 { return .null }
    guard let text = jsc_value_to_json(value, 0) else { return .undefined }
    defer { g_free(text) }
    return try JSONValue(json: String(cString: text))
}
