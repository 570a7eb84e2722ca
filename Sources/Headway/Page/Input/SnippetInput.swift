import CHeadwayShims
import CWebKit
import Foundation

// The channel behind a snippet's `headway.click(…)`, `headway.type(…)`: a script message
// handler with reply, `headwayInput`, in the page's world. The page's own scripts can reach the
// handler too, so a message counts only with the secret of a snippet running now on that page:
// the runner takes it as an argument and keeps it in a closure (never on `window`), and the
// channel's `postMessage` is the one taken at document start, before the page's scripts ran.
@EngineActor
enum SnippetInput {
    nonisolated static let handlerName = "headwayInput"
    private static var runs: [String: Weak<Page>] = [:]

    // A new secret for one snippet run on `page`, good until `end`.
    static func begin(for page: Page) -> String {
        let secret = UUID().uuidString + UUID().uuidString
        runs[secret] = Weak(page)
        return secret
    }

    static func end(_ secret: String) { runs[secret] = nil }

    static func register(on manager: UnsafeMutablePointer<WebKitUserContentManager>) {
        webkit_user_content_manager_register_script_message_handler_with_reply(manager, handlerName, nil)
        _ = hw_signal_connect(manager, "script-message-with-reply-received::\(handlerName)",
                              unsafeBitCast(onInputMessage as InputMessage, to: GCallback.self), nil, nil)
    }

    fileprivate static func received(_ text: String, on manager: UnsafeMutableRawPointer, reply: Reply) {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let page = runs[parts[0]]?.object,
              UnsafeMutableRawPointer(page.contentManager.pointer) == manager,
              case .array(let call)? = try? JSONValue(json: parts[1]), let action = call.first?.stringValue
        else { return reply.answer(error: "headway input helpers work only in the snippet Headway runs") }
        Task { @EngineActor in
            do {
                try await perform(action, Array(call.dropFirst()), on: page)
                reply.answer(error: nil)
            } catch let error as HeadwayError {
                reply.answer(error: error.message)
            } catch {
                reply.answer(error: "\(error)")
            }
        }
    }

    private static func perform(_ action: String, _ arguments: [JSONValue], on page: Page) async throws {
        func text(_ index: Int) throws -> String {
            guard let value = arguments[safe: index]?.stringValue else {
                throw HeadwayError(.invalidArgument, "headway.\(action) needs a string")
            }
            return value
        }
        func number(_ index: Int) throws -> Double {
            guard let value = arguments[safe: index]?.doubleValue, value.isFinite else {
                throw HeadwayError(.invalidArgument, "headway.\(action) needs finite numbers")
            }
            return value
        }
        switch action {
        case "click": try await page.click(selector: try text(0))
        case "clickAt": try await page.click(x: try number(0), y: try number(1), button: .left, clickCount: 1)
        case "type": try await page.type(try text(0))
        case "press": try await page.press(try text(0))
        case "keyDown": try await page.keyDown(try text(0))
        case "keyUp": try await page.keyUp(try text(0))
        case "mouseMove": try await page.mouseMove(x: try number(0), y: try number(1))
        case "wheel":
            try await page.wheel(x: try number(0), y: try number(1), deltaX: try number(2), deltaY: try number(3))
        default: throw HeadwayError(.invalidArgument, "headway has no input helper \(action)")
        }
    }
}

// One message's reply, answered once on the engine thread; it holds a reference to the reply
// and to the JavaScript context its value is made in until then.
@EngineActor
private final class Reply {
    private var reply: OpaquePointer?
    private let context: UnsafeMutablePointer<JSCContext>

    init(_ reply: OpaquePointer, context: UnsafeMutablePointer<JSCContext>) {
        self.reply = webkit_script_message_reply_ref(reply)
        self.context = context
        g_object_ref(UnsafeMutableRawPointer(context))
    }

    func answer(error: String?) {
        guard let reply else { return }
        self.reply = nil
        if let error {
            webkit_script_message_reply_return_error_message(reply, error)
        } else if let value = jsc_value_new_null(context) {
            webkit_script_message_reply_return_value(reply, value)
            g_object_unref(UnsafeMutableRawPointer(value))
        }
        webkit_script_message_reply_unref(reply)
        g_object_unref(UnsafeMutableRawPointer(context))
    }
}

private typealias InputMessage = @convention(c) (
    UnsafeMutablePointer<WebKitUserContentManager>?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?
) -> gboolean

private func onInputMessage(
    _ manager: UnsafeMutablePointer<WebKitUserContentManager>?,
    _ value: UnsafeMutablePointer<JSCValue>?,
    _ reply: OpaquePointer?,
    _ data: gpointer?
) -> gboolean {
    guard let manager, let value, let reply, let context = jsc_value_get_context(value) else { return 0 }
    var text = ""
    if jsc_value_is_string(value) != 0, let raw = jsc_value_to_string(value) {
        text = String(cString: raw)
        g_free(raw)
    }
    // Signals come on the engine thread.
    nonisolated(unsafe) let parts = (UnsafeMutableRawPointer(manager), reply, context)
    EngineActor.assumeIsolated {
        SnippetInput.received(text, on: parts.0, reply: Reply(parts.1, context: parts.2))
    }
    return 1
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension PageScripts {
    // An expression, run at document start before the page's scripts: the helpers' channel.
    static let inputChannel = """
    (() => { try { const h = window.webkit.messageHandlers.\(SnippetInput.handlerName);
      return h ? Object.freeze({ handler: h, post: h.postMessage }) : null; } catch (_) { return null; } })()
    """

    // A function, `snippetHelpers(H, secret)`: the `headway` object a snippet gets. Each helper
    // returns a promise that settles once the page has had the input (or rejects with why not).
    static let snippetHelpers = #"""
    const snippetHelpers = (H, secret) => {
      const channel = H.input;
      // Each value on its own: JSON.stringify looks up no toJSON on a string or a number, so a
      // page's Array.prototype.toJSON cannot rewrite the call.
      const json = (v) => { const s = H.stringify(v); return s === undefined ? 'null' : s; };
      const send = (action, a, b, c, d) => {
        if (!channel) return H.Promise.reject(new H.Error('headway input helpers are unavailable on this page'));
        const call = '[' + json(action) + ',' + json(a) + ',' + json(b) + ',' + json(c) + ',' + json(d) + ']';
        return H.apply(channel.post, channel.handler, [secret + ' ' + call]);
      };
      return H.freeze({
        click: (target, y) => typeof target === 'number' ? send('clickAt', target, y) : send('click', target),
        type: (text) => send('type', text),
        press: (key) => send('press', key),
        keyDown: (key) => send('keyDown', key),
        keyUp: (key) => send('keyUp', key),
        mouseMove: (x, y) => send('mouseMove', x, y),
        wheel: (x, y, deltaX, deltaY) => send('wheel', x, y, deltaX, deltaY),
      });
    };

    """#
}
