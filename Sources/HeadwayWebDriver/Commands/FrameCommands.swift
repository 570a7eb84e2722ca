import Headway

// Switch To Frame and Switch To Parent Frame (https://www.w3.org/TR/webdriver2/#switch-to-frame).
// The current browsing context is `Session.framePath`: the frame elements from the top-level
// document down, which every script resolves (ScriptRuntime). Headway runs scripts from the top
// document, so only same-origin frames can be entered: another origin's frame is "no such frame".
extension Handlers {
    static let frames: [Command: Handler] = [
        .switchToFrame: { session, request in
            guard let id = request.body["id"] else {
                throw WebDriverError(.invalidArgument, "\"id\" must be null, a frame's index or a frame element")
            }
            _ = try session.currentPage()
            switch id {
            case .null:
                session.framePath = []
            case .number:
                guard let index = id.integer(in: 0...65_535) else {
                    throw WebDriverError(.invalidArgument, "a frame's index must be an integer from 0 to 65535")
                }
                session.framePath.append(try await session.callAtom(Session.frameByIndex, [.number(Double(index))]))
            case .object(let object) where object[ScriptRuntime.elementKey]?.stringValue != nil:
                session.framePath.append(try await session.callAtom(Session.frameOfElement, [id]))
            default:
                throw WebDriverError(.invalidArgument, "\"id\" must be null, a frame's index or a frame element")
            }
            return .null
        },
        .switchToParentFrame: { session, _ in
            _ = try session.currentPage()
            guard !session.framePath.isEmpty else { return .null }
            // The parent must still be there: a script in it resolves the path.
            let parent = Array(session.framePath.dropLast())
            let current = session.framePath
            session.framePath = parent
            do { _ = try await session.callAtom("function() { return null; }") } catch {
                session.framePath = current
                throw error
            }
            return .null
        },
    ]
}

extension Session {
    // The frame element of the current context's window.frames[n], checked as enterable.
    static let frameByIndex = """
        function(n) {
        \(SelectAllScript.source)          if (n >= this.frames.length) {
            fail('no such frame', `the current document has ${this.frames.length} frames: none has the index ${n}`);
          }
          const target = this.frames[n];
          const el = selectAll(this.document, 'iframe, frame').find(f => f.contentWindow === target);
          if (!el) fail('no such frame', `the frame at index ${n} has no frame element in this document`);
          \(enterable)
          return el;
        }
        """

    // The frame or iframe element given, checked as enterable.
    static let frameOfElement = """
        function(el) {
          if (el.localName !== 'iframe' && el.localName !== 'frame') {
            fail('no such frame', `the element is a <${el.localName}>, not a frame or iframe`);
          }
          \(enterable)
          return el;
        }
        """

    private static let enterable = """
        if (!el.contentWindow) fail('no such frame', 'the frame element shows no document (is it in the page?)');
          try { void el.contentWindow.document.documentElement; } catch {
            fail('no such frame', `the frame shows another origin (${el.src}), which headway cannot enter: `
              + 'only same-origin frames can be switched to');
          }
        """
}
