import CWebKit
import Foundation

// WebKit queues a view's mouse and key events in the UI process and sends each to the web
// process only once the one before was handled, so a script sent right after them could run
// first. An input call therefore returns only once the page has had its events: Headway's
// isolated world counts the trusted input events the main frame and its same-origin frames see
// (PageScripts.inputWatch), and the call reads the counts until they show its last event. A
// script can run between a pointer event and its mouse event (pointerdown, then mousedown, in
// two tasks), so the mouse event is what counts, unless a cancelled pointerdown suppressed it.
// Events that reach no listener (a cross-origin frame's, a disabled control's) show nothing:
// after a few round trips to the web process, each ordered behind the events WebKit had sent by
// then, and 300 ms, the call returns anyway. An event whose handler opens a dialog Headway holds open
// (`holdsDialogs`) leaves the page waiting in the dialog, unable to answer: the call returns as
// soon as the dialog is open (the page has had the event that opened it).
enum InputEvidence {
    case move(x: Double, y: Double)
    case downs(Int)
    case ups(Int)
    case wheels(Int)
    case keyDowns(Int)
    case keyUps(Int)

    func shown(from before: JSONValue, to now: JSONValue) -> Bool {
        func grew(_ names: String...) -> Int {
            names.map { (now[$0]?.intValue ?? 0) - (before[$0]?.intValue ?? 0) }.max() ?? 0
        }
        // The page cancelled the last pointerdown: no mouse event comes until the pointerup.
        let suppressed = now["downcanceled"]?.boolValue == true
        switch self {
        case .move(let x, let y):
            let pressed = now["pressed"]?.boolValue == true
            let moved = grew("mousemove") >= 1 || suppressed && pressed && grew("pointermove") >= 1
            guard moved, let seenX = now["x"]?.doubleValue, let seenY = now["y"]?.doubleValue else { return false }
            return abs(seenX - x) < 1 && abs(seenY - y) < 1
        case .downs(let count): return grew("mousedown") >= count || suppressed && grew("pointerdown") >= count
        // WebKitGTK gives the page no mouseup for the right button, only its contextmenu.
        case .ups(let count): return grew("mouseup", "contextmenu") >= count || suppressed && grew("pointerup") >= count
        case .wheels(let count): return grew("wheel") >= count
        case .keyDowns(let count): return grew("keydown") >= count
        case .keyUps(let count): return grew("keyup") >= count
        }
    }
}

extension Page {
    static let inputDeadline: Duration = .seconds(10)

    // Sends input through `send` and returns once the page has had it.
    func deliver(_ wanted: InputEvidence, send: () -> Void) async throws {
        // With a dialog open the page takes the input once it is closed.
        guard let before = try await inputSeenUnlessDialog() else { return send() }
        send()
        let started = Engine.now()
        var rounds = 0
        while true {
            guard let now = try await inputSeenUnlessDialog() else { return }
            rounds += 1
            // Another document (a navigation) or none: only the round trips tell.
            if before["id"] != nil, before["id"] == now["id"] {
                if wanted.shown(from: before, to: now) { return }
            } else if rounds >= 3 {
                return
            }
            let elapsed = started.duration(to: Engine.now())
            if rounds >= 5, elapsed >= .milliseconds(300) { return }
            guard elapsed < Self.inputDeadline else {
                throw HeadwayError(.timeout, "the page did not take the input within \(Self.inputDeadline.formatted)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    // Waits (in Headway's isolated world, at most `inputDeadline`) until the page has rendered a
    // frame: WebKit drops a wheel that comes before a new document's first frame reached the
    // scrolling tree (a wheel right after a load scrolled nothing, half the time).
    func frameRendered() async throws {
        let view = try await readyView()
        _ = try await JavaScriptCall.callAsyncFunction(
            view, "await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", arguments: [:],
            world: PageScripts.world, sourceURI: nil, timeout: Self.inputDeadline, what: "the frame wait")
    }

    // The counts of trusted input events the main frame's document has seen, with its id.
    func inputSeen() async throws -> JSONValue {
        let view = try await readyView()
        return try await JavaScriptCall.callAsyncFunction(
            view, PageScripts.inputRead, arguments: [:], world: PageScripts.world,
            sourceURI: nil, timeout: Self.inputDeadline, what: "the input check")
    }
}

extension PageScripts {
    // Injected at document start in every frame, in Headway's isolated world: counts the
    // trusted input events that reach the window (capturing, before any of the page's
    // listeners), and where the pointer was last seen, in the main frame's viewport. A frame
    // counts into the main frame's counts when it may (same origin), so that they show events
    // delivered to a frame's document too; a cross-origin frame counts into its own, unread.
    static let inputWatch = """
    if (!window.__headwayInput) {
      let seen = null;
      if (window !== top) { try { seen = top.__headwayInput || null; } catch (_) {} }
      if (!seen) {
        seen = { id: Math.random(), x: -1, y: -1, pressed: false };
        Object.defineProperty(seen, 'lastDown', { value: null, writable: true, enumerable: false });
      }
      window.__headwayInput = seen;
      // A frame's viewport point in the main frame's: each frame's content box offset added.
      const topPoint = (x, y) => {
        try {
          for (let w = window; w !== top; w = w.parent) {
            const f = w.frameElement;
            if (!f) return null;
            const r = f.getBoundingClientRect(), cs = w.parent.getComputedStyle(f);
            x += r.left + f.clientLeft + parseFloat(cs.paddingLeft || '0');
            y += r.top + f.clientTop + parseFloat(cs.paddingTop || '0');
          }
          return [x, y];
        } catch (_) { return null; }
      };
      const note = (e) => {
        if (!e.isTrusted) return;
        seen[e.type] = (seen[e.type] || 0) + 1;
        if (e.type === 'pointerdown') { seen.lastDown = e; seen.pressed = true; }
        if (e.type === 'pointerup') seen.pressed = false;
        if (e.type === 'mousemove' || e.type === 'pointermove') {
          const p = topPoint(e.clientX, e.clientY) || [-1, -1];
          seen.x = p[0]; seen.y = p[1];
        }
      };
      for (const type of ['mousemove', 'pointermove', 'mousedown', 'pointerdown', 'mouseup', 'pointerup',
                          'contextmenu', 'wheel', 'keydown', 'keyup']) {
        addEventListener(type, note, { capture: true, passive: true });
      }
    }
    """

    // The counts, with whether the last pointerdown was cancelled (read between tasks, so its
    // dispatch is over), or null before the watch is in the document.
    static let inputRead = """
    const seen = window.__headwayInput;
    if (!seen) return null;
    return Object.assign({}, seen, { downcanceled: !!(seen.lastDown && seen.lastDown.defaultPrevented) });
    """
}
