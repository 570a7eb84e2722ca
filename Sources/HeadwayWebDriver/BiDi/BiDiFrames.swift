import Foundation
import Headway

// Frames as browsing contexts. A frame's context id is its top-level context's (the window
// handle) followed by the element reference of each frame element on the way down, joined by
// "/": `HANDLE/REF/REF`. The references are the classic ones (the frame element's `sharedId`), so
// an id names its frame for as long as the documents holding those elements are current, and
// resolving it is the classic frame path (ScriptRuntime), with its errors. Headway runs scripts
// from the top-level document, so a frame of another origin is listed (its `src` as its URL) but
// cannot be entered.
struct ContextID: Equatable {
    var handle: String
    var frames: [String]

    var id: String { ([handle] + frames).joined(separator: "/") }
    var isTopLevel: Bool { frames.isEmpty }
    var framePath: [JSONValue] { frames.map { [ScriptRuntime.elementKey: .string($0)] } }

    init(handle: String, frames: [String] = []) {
        self.handle = handle
        self.frames = frames
    }

    // Nil unless `id` has that shape (at most 64 frames deep, each reference as the runtime makes them).
    init?(_ id: String) {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, !first.isEmpty, parts.count <= 65,
              parts.dropFirst().allSatisfy(Self.isReference) else { return nil }
        self.init(handle: first, frames: Array(parts.dropFirst()))
    }

    private static func isReference(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 8 && parts[1].count == 16
            && parts[0...1].allSatisfy { $0.allSatisfy(\.isHexDigit) }
            && (1...12).contains(parts[2].count) && parts[2].allSatisfy(\.isASCII) && parts[2].allSatisfy(\.isNumber)
    }
}

extension BiDiCall {
    // The context `id` names, a top-level one or a frame: its id, and the page of its window.
    func anyContext(_ id: String) throws -> (ContextID, Page) {
        guard let context = ContextID(id) else {
            throw BiDiError(.noSuchFrame, "no browsing context has the id \(id)")
        }
        let (_, page) = try self.context(context.handle)
        return (context, page)
    }
}

@EngineActor
enum BiDiFrames {
    // How long getTree waits for a window's page to list its frames: the shortest wait any atom
    // has (a page that answers none within it and then the library's probe is stuck, and ended).
    static let listBound = Session.atomFloor

    // The frames under `context` as getTree lists them, `depth` levels down (nil: all); [] for a
    // window whose page does not answer within `listBound` (a prompt open, a busy script, a
    // request held).
    static func children(of context: ContextID, depth: Int?, session: Session) async -> [JSONValue] {
        let levels = min(depth ?? 64, 64)
        guard levels > 0 else { return [] }
        let tree: JSONValue
        do {
            tree = try await session.inContext(context.handle, frames: context.framePath) {
                try await session.callAtom(Self.tree, [.number(Double(levels))], timeout: listBound)
            }
        } catch {
            return []
        }
        return infos(tree["children"] ?? [], parent: context, depth: levels,
                     userContext: session.userContext(ofHandle: context.handle))
    }

    // The URL of a frame's document as the page sees it.
    static func url(of context: ContextID, session: Session) async throws -> String {
        let tree = try await session.inContext(context.handle, frames: context.framePath) {
            try await session.callAtom(Self.tree, [0])
        }
        return tree["url"]?.stringValue ?? "about:blank"
    }

    // browsingContext.navigate of a frame: its window's location set from the parent document
    // (allowed whatever the frame's origin); `wait` other than none waits for the frame element's
    // trusted load event (or, for a frame of the same origin, its document at the URL and
    // complete), within the pageLoad timeout; a change of the fragment only waits for nothing.
    // No navigation events are sent for frames.
    static func navigate(_ frame: ContextID, to url: URL, _ call: BiDiCall) async throws -> JSONValue {
        _ = try call.anyContext(frame.id)
        let waits = try call.wait() != .committed
        let parent = ContextID(handle: frame.handle, frames: Array(frame.frames.dropLast()))
        let element: JSONValue = [ScriptRuntime.elementKey: .string(frame.frames.last ?? "")]
        do {
            _ = try await call.session.inContext(frame.handle, frames: parent.framePath) {
                try await call.session.callAtom("""
                    function(el, url, waits, limit) {
                      const win = el.contentWindow;
                      if (!win) fail('no such frame', 'the frame element shows no document');
                      const base = (u) => u.split('#')[0];
                      let fragmentOnly = false;
                      try { fragmentOnly = url.includes('#') && base(win.location.href) === base(url); } catch {}
                      const loaded = new Promise((resolve) => {
                        const done = () => { clearInterval(poll); resolve(true); };
                        el.addEventListener('load', (e) => { if (e.isTrusted) done(); });
                        const poll = setInterval(() => {
                          try {
                            const d = el.contentWindow.document;
                            if (d.readyState === 'complete' && base(d.URL) === base(url) && d !== first) done();
                          } catch {}
                        }, 100);
                        setTimeout(() => clearInterval(poll), limit);
                      });
                      let first = null;
                      try { first = win.document; } catch {}
                      win.location.href = url;
                      return waits && !fragmentOnly ? loaded : true;
                    }
                    """, [element, .string(url.absoluteString), .bool(waits),
                          .number(Double(call.session.timeouts.pageLoadDuration / .milliseconds(1)))],
                    timeout: call.session.timeouts.pageLoadDuration)
            }
        } catch let error as WebDriverError where error.code == .timeout {
            throw BiDiError(.unknownError, "the frame's navigation did not end within the pageLoad timeout "
                + "(\(call.session.timeouts.pageLoad) ms)")
        } catch let error as WebDriverError where error.code == .staleElementReference || error.code == .noSuchElement {
            throw BiDiError(.noSuchFrame, "the frame \(frame.id) is gone: \(error.message)")
        }
        return ["navigation": .string(UUID().uuidString.lowercased()), "url": .string(url.absoluteString)]
    }

    // getTree's entry for a frame named as its root.
    static func info(_ context: ContextID, depth: Int?, _ call: BiDiCall) async throws -> JSONValue {
        let url = try await url(of: context, session: call.session)
        let parent = ContextID(handle: context.handle, frames: Array(context.frames.dropLast()))
        let children = depth == 0 ? nil : await children(of: context, depth: depth, session: call.session)
        return BiDiContexts.info(handle: context.handle, url: URL(string: url), children: children,
                                 userContext: call.session.userContext(ofHandle: context.handle), frame: context,
                                 parent: .string(parent.id))
    }

    private static func infos(_ list: JSONValue, parent: ContextID, depth: Int, userContext: String) -> [JSONValue] {
        guard case .array(let frames) = list else { return [] }
        return frames.compactMap { frame in
            guard let reference = frame["ref"]?.stringValue else { return nil }
            let context = ContextID(handle: parent.handle, frames: parent.frames + [reference])
            let children = depth > 1 ? infos(frame["children"] ?? [], parent: context, depth: depth - 1,
                                             userContext: userContext) : nil
            return BiDiContexts.info(handle: parent.handle, url: frame["url"]?.stringValue.flatMap(URL.init(string:)),
                                     children: children, userContext: userContext, frame: context, parent: nil)
        }
    }

    // The current context's URL and its frames, `depth` levels down, at most 1000 in all: each
    // frame element's reference, its document's URL, and its own frames (none known when it
    // shows another origin).
    static let tree = """
        function(depth) {
        \(SelectAllScript.source)          let count = 0;
          const list = (w, levels) => {
            const out = [];
            if (levels <= 0) return out;
            for (const el of selectAll(w.document, 'iframe, frame')) {
              const inner = el.contentWindow;
              if (!inner || count >= 1000) continue;
              count += 1;
              let url, children = [];
              try {
                url = inner.location.href;
                children = list(inner, levels - 1);
              } catch {
                url = el.src || 'about:blank';
              }
              out.push({ ref: reference(el), url, children });
            }
            return out;
          };
          return { url: this.location.href, children: list(this, depth) };
        }
        """
}
