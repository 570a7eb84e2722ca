import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// A page that records the input events it sees in `window.events`, one line each:
// "type trusted key button detail modifiers x,y".
enum InteractionFixtures {
    static let recorder = #"""
    <script>
    window.events = [];
    const note = (e) => {
      const mods = (e.shiftKey ? 'S' : '') + (e.ctrlKey ? 'C' : '') + (e.altKey ? 'A' : '') + (e.metaKey ? 'M' : '');
      const where = e.clientX === undefined ? '' : ` ${Math.round(e.clientX)},${Math.round(e.clientY)}`;
      window.events.push(`${e.type} ${e.isTrusted} ${e.key ?? ''} ${e.button ?? ''} ${e.detail ?? ''} ${mods}${where}`
        + (e.buttons !== undefined ? ` b${e.buttons}` : ''));
    };
    for (const t of ['mousedown', 'mouseup', 'click', 'dblclick', 'keydown', 'keyup', 'mousemove', 'wheel',
                     'input', 'change']) {
      document.addEventListener(t, note, true);
    }
    </script>
    """#

    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    static func element(_ driver: WebDriverDriver, _ id: String, _ css: String) async throws -> JSONValue {
        let element = try await driver.send(.executeScript, id, [
            "script": "return document.querySelector(arguments[0])", "args": [.string(css)],
        ])
        try #require(element[elementKey]?.stringValue != nil)
        return element
    }

    static func elementID(_ element: JSONValue) -> String {
        element[elementKey]?.stringValue ?? ""
    }

    static func events(
        _ driver: WebDriverDriver, _ id: String, matching types: Set<String>? = nil
    ) async throws -> [String] {
        let all = try await driver.send(.executeScript, id, ["script": "return window.events", "args": []])
        guard case .array(let values) = all else { return [] }
        let lines = values.compactMap(\.stringValue)
        guard let types else { return lines }
        return lines.filter { types.contains(String($0.prefix { $0 != " " })) }
    }

    static func script(_ driver: WebDriverDriver, _ id: String, _ source: String) async throws -> JSONValue {
        try await driver.send(.executeScript, id, ["script": .string(source), "args": []])
    }
}
