import Foundation
import Headway

// Element Click, Element Clear, Element Send Keys
// (https://www.w3.org/TR/webdriver2/#element-interaction), with trusted input.
extension Handlers {
    static let elementInteraction: [Command: Handler] = [
        .elementClick: { session, request in
            let element = Session.elementReference(request.parameter("elementId"))
            let page = try session.currentPage()
            // An <option> is picked by the atom itself (its select's change handler may navigate);
            // anything else answers the point to click.
            try await session.followingNavigation(on: page) {
                let point = try await session.untilInteractable(ElementClickAtom.source, [element])
                guard let x = point["x"]?.doubleValue, let y = point["y"]?.doubleValue else { return }
                try await page.click(x: x, y: y, button: .left, clickCount: 1)
            }
            return .null
        },
        .elementClear: { session, request in
            let element = Session.elementReference(request.parameter("elementId"))
            // Its change handler may navigate.
            try await session.followingNavigation(on: try session.currentPage()) {
                _ = try await session.untilInteractable(ElementClearAtom.source, [element])
            }
            return .null
        },
        .elementSendKeys: { session, request in
            let text = try request.string("text")
            let element = Session.elementReference(request.parameter("elementId"))
            let strict = session.capabilities.strictFileInteractability
            let answer = try await session.untilInteractable(InteractionAtoms.focusForKeys, [element, .bool(strict)])
            if answer["file"] == .bool(true) {
                let files = try await Session.files(text, multiple: answer["multiple"] == .bool(true),
                                                    directory: answer["directory"] == .bool(true))
                _ = try await session.callAtom(FileAtoms.setFiles, [element, .array(files)])
                return .null
            }
            let page = try session.currentPage()
            try await session.followingNavigation(on: page) { try await session.type(text, page: page) }
            return .null
        },
    ]
}

extension Session {
    // Runs an interaction atom again while it answers "element not interactable", up to the
    // implicit wait timeout, as the spec's "wait for element to become interactable".
    func untilInteractable(_ atom: String, _ arguments: [JSONValue]) async throws -> JSONValue {
        let deadline = ContinuousClock.now + timeouts.implicitDuration
        while true {
            do {
                return try await callAtom(atom, arguments)
            } catch let error as WebDriverError where error.code == .elementNotInteractable {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
