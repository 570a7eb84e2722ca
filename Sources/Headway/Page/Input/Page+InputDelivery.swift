import CWebKit
import Foundation

// WebKit queues a view's mouse and key events in the UI process and sends each to the web
// process only once the one before was handled, so a script sent right after them could run
// first. An input call therefore returns only once the page has had its events: Headway's
// isolated world counts the trusted input events the main frame sees (PageScripts.inputWatch),
// and the call reads the counts until they show its last event. Events that reach no listener
// (a frame's, a disabled control's) show nothing: after a few round trips to the web process,
// each ordered behind the events WebKit had sent by then, and 300 ms, the call returns anyway.
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
        switch self {
        case .move(let x, let y):
            guard grew("mousemove", "pointermove") >= 1, let seenX = now["x"]?.doubleValue,
                  let seenY = now["y"]?.doubleValue else { return false }
            return abs(seenX - x) < 1 && abs(seenY - y) < 1
        case .downs(let count): return grew("mousedown", "pointerdown") >= count
        // WebKitGTK gives the page no mouseup for the right button, only its contextmenu.
        case .ups(let count): return grew("mouseup", "pointerup", "contextmenu") >= count
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
        let before = try await inputSeen()
        send()
        let started = Engine.now()
        var rounds = 0
        while true {
            let now = try await inputSeen()
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

    // The counts of trusted input events the main frame's document has seen, with its id.
    private func inputSeen() async throws -> JSONValue {
        let view = try await readyView()
        return try await JavaScriptCall.callAsyncFunction(
            view, "return window.__headwayInput || null", arguments: [:], world: PageScripts.world,
            sourceURI: nil, timeout: Self.inputDeadline, what: "the input check")
    }
}

extension PageScripts {
    // Injected at document start in the main frame, in Headway's isolated world: counts the
    // trusted input events that reach the window (capturing, before any of the page's
    // listeners), and where the pointer was last seen.
    static let inputWatch = """
    if (!window.__headwayInput) {
      const seen = { id: Math.random(), x: -1, y: -1 };
      window.__headwayInput = seen;
      const note = (e) => {
        if (!e.isTrusted) return;
        seen[e.type] = (seen[e.type] || 0) + 1;
        if (e.type === 'mousemove' || e.type === 'pointermove') { seen.x = e.clientX; seen.y = e.clientY; }
      };
      for (const type of ['mousemove', 'pointermove', 'mousedown', 'pointerdown', 'mouseup', 'pointerup',
                          'contextmenu', 'wheel', 'keydown', 'keyup']) {
        addEventListener(type, note, { capture: true, passive: true });
      }
    }
    """
}
