import Foundation
import Headway
import HeadwayTestSupport

// A page that records every input event it gets, for the input tests.
@EngineActor
enum InputRecorder {
    nonisolated static let page = """
        <!doctype html><title>input</title>
        <style>body { margin: 0; height: 3000px; } #box { position: absolute; left: 20px; top: 30px;
        width: 200px; height: 100px; background: #ccc; } #far { position: absolute; left: 40px; top: 2500px;
        width: 100px; height: 40px; } input, textarea { position: absolute; left: 20px; width: 200px; }
        #field { top: 200px; } #area { top: 260px; height: 60px; }</style>
        <div id="box"></div><button id="far">far</button>
        <input id="field"><textarea id="area"></textarea>
        <script>
        window.seen = [];
        for (const type of ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'auxclick', 'mousemove',
                            'wheel', 'keydown', 'keyup', 'input']) {
          addEventListener(type, (e) => {
            const r = { type, trusted: e.isTrusted, target: e.target.id || e.target.localName };
            if ('button' in e) Object.assign(r, { button: e.button, buttons: e.buttons, detail: e.detail,
              x: e.clientX, y: e.clientY, shift: e.shiftKey, ctrl: e.ctrlKey });
            if ('key' in e) Object.assign(r, { key: e.key, code: e.code, shift: e.shiftKey, ctrl: e.ctrlKey,
              alt: e.altKey, meta: e.metaKey, location: e.location });
            if (type === 'wheel') Object.assign(r, { dx: e.deltaX, dy: e.deltaY, mode: e.deltaMode });
            seen.push(r);
          }, true);
        }
        </script>
        """

    static func withPage(_ body: @EngineActor (Page) async throws -> Void) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/input.html", .html(page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("input.html"))
            try await body(page)
        }
    }

    // The events of `types` the page saw, in order.
    @EngineActor
    static func seen(_ page: Page, _ types: [String]) async throws -> [JSONValue] {
        let all = try await page.evaluate("seen")
        guard case .array(let list) = all else { return [] }
        return list.filter { types.contains($0["type"]?.stringValue ?? "") }
    }
}
