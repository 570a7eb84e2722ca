import Foundation
import Headway

// Dispatching actions (https://www.w3.org/TR/webdriver2/#dispatching-actions) as trusted input
// through the library: all actions of a tick start together, moves and scrolls with a duration
// are spread over it in steps, and the tick lasts as long as its longest duration. The library
// has one pointer per page, which every pointer source moves (pen and touch act as the mouse).
extension Session {
    static let moveStep: Duration = .milliseconds(16)

    func dispatch(_ ticks: [[InputAction]]) async throws {
        let page = try currentPage()
        // The viewport's size from the library, never from the page's own (overridable) innerWidth.
        let size = page.viewportSize
        let width = Double(size.width), height = Double(size.height)
        for tick in ticks {
            let started = ContinuousClock.now
            let tickDuration = Duration.milliseconds(tick.compactMap(\.duration).max() ?? 0)
            var moves: [(source: String, from: (Double, Double), to: (Double, Double), duration: Duration)] = []
            var scrolls: [(at: (Double, Double), delta: (Double, Double), duration: Duration)] = []
            for action in tick {
                let duration = action.duration.map { Duration.milliseconds($0) } ?? tickDuration
                switch action.kind {
                case .pause, .pointerCancel: continue
                case .keyDown(let key):
                    let sent = Self.shifted(key, page.pressedModifiers.contains(.shift))
                    try await page.keyDown(sent)
                    // A key pressed again repeats; it is held once.
                    guard inputState.sources[action.source]?.pressedKeys.contains(where: { $0.raw == key }) == false
                    else { continue }
                    inputState.sources[action.source]?.pressedKeys.append((key, sent))
                    inputState.cancelList.append(.keyUp(source: action.source, key: key))
                case .keyUp(let key):
                    try await keyUp(key, source: action.source, page: page)
                case .pointerDown(let button):
                    guard inputState.sources[action.source]?.pressedButtons.contains(button) == false else { continue }
                    try await page.mouseDown(button: try Self.mouseButton(button))
                    inputState.sources[action.source]?.pressedButtons.insert(button)
                    inputState.cancelList.append(.pointerUp(source: action.source, button: button))
                case .pointerUp(let button):
                    try await pointerUp(button, source: action.source, page: page)
                case .pointerMove(let x, let y, let origin):
                    let source = inputState.sources[action.source] ?? .init(type: .pointer)
                    let target = try await point(x, y, origin, from: (source.x, source.y), width, height)
                    moves.append((action.source, (source.x, source.y), target, duration))
                case .scroll(let x, let y, let deltaX, let deltaY, let origin):
                    let at = try await point(x, y, origin, from: (0, 0), width, height, scrolling: true)
                    scrolls.append((at, (deltaX, deltaY), duration))
                }
            }
            try await run(moves, scrolls, page: page, started: started)
            let left = tickDuration - started.duration(to: .now)
            if left > .zero { try await Task.sleep(for: left) }
        }
    }

    // Moves and scrolls in steps until the longest is done; each step goes where the time says.
    private func run(
        _ moves: [(source: String, from: (Double, Double), to: (Double, Double), duration: Duration)],
        _ scrolls: [(at: (Double, Double), delta: (Double, Double), duration: Duration)],
        page: Page, started: ContinuousClock.Instant
    ) async throws {
        guard !moves.isEmpty || !scrolls.isEmpty else { return }
        var done = Array(repeating: false, count: moves.count)
        var scrolled = Array(repeating: 0.0, count: scrolls.count)
        while done.contains(false) || scrolled.contains(where: { $0 < 1 }) {
            let elapsed = started.duration(to: .now)
            for (index, move) in moves.enumerated() where !done[index] {
                let fraction = move.duration > .zero ? min(1, elapsed / move.duration) : 1
                let x = move.from.0 + (move.to.0 - move.from.0) * fraction
                let y = move.from.1 + (move.to.1 - move.from.1) * fraction
                try await page.mouseMove(x: x.rounded(.down), y: y.rounded(.down))
                inputState.sources[move.source]?.x = x
                inputState.sources[move.source]?.y = y
                done[index] = fraction >= 1
            }
            for (index, scroll) in scrolls.enumerated() where scrolled[index] < 1 {
                let fraction = scroll.duration > .zero ? min(1, elapsed / scroll.duration) : 1
                let step = fraction - scrolled[index]
                guard step > 0 else { continue }
                try await page.wheel(x: scroll.at.0, y: scroll.at.1,
                                     deltaX: scroll.delta.0 * step, deltaY: scroll.delta.1 * step)
                scrolled[index] = fraction
            }
            if done.contains(false) || scrolled.contains(where: { $0 < 1 }) { try await Task.sleep(for: Self.moveStep) }
        }
    }

    // An action's target in top-level viewport coordinates; "move target out of bounds" outside it.
    // A wheel action (`scrolling`) first scrolls its origin element into view when it is out of view.
    private func point(
        _ x: Double, _ y: Double, _ origin: InputAction.Origin, from current: (Double, Double),
        _ width: Double, _ height: Double, scrolling: Bool = false
    ) async throws -> (Double, Double) {
        var target = (x, y)
        switch origin {
        case .viewport: break
        case .pointer: target = (current.0 + x, current.1 + y)
        case .element(let reference):
            let atom = scrolling ? InteractionAtoms.scrollOrigin : InteractionAtoms.actionOrigin
            let center = try await callAtom(atom, [reference])
            guard let cx = center["x"]?.doubleValue, let cy = center["y"]?.doubleValue else {
                throw WebDriverError(.moveTargetOutOfBounds, "the origin element has no part in the viewport")
            }
            target = (cx + x, cy + y)
        }
        guard target.0 >= 0, target.1 >= 0, target.0 <= width, target.1 <= height else {
            throw WebDriverError(.moveTargetOutOfBounds, "(\(target.0), \(target.1)) is outside the viewport "
                                 + "(\(String(format: "%.0f", width)) x \(String(format: "%.0f", height)))")
        }
        return target
    }

    func keyUp(_ key: String, source: String, page: Page) async throws {
        guard let index = inputState.sources[source]?.pressedKeys.firstIndex(where: { $0.raw == key }),
              let sent = inputState.sources[source]?.pressedKeys[index].sent else { return }
        try await page.keyUp(sent)
        inputState.sources[source]?.pressedKeys.remove(at: index)
    }

    func pointerUp(_ button: Int, source: String, page: Page) async throws {
        guard inputState.sources[source]?.pressedButtons.contains(button) == true else { return }
        try await page.mouseUp(button: try Self.mouseButton(button))
        inputState.sources[source]?.pressedButtons.remove(button)
    }

    // Release Actions: the cancel list backwards, then a fresh input state.
    func releaseActions() async throws {
        defer { inputState = InputState() }
        guard let page = try? currentPage() else { return }
        for undo in inputState.cancelList.reversed() {
            switch undo {
            case .keyUp(let source, let key): try await keyUp(key, source: source, page: page)
            case .pointerUp(let source, let button): try await pointerUp(button, source: source, page: page)
            }
        }
    }

    // `key` as typed with Shift held, when it is.
    static func shifted(_ key: String, _ shift: Bool) -> String {
        guard shift, key.count == 1, let character = key.first,
              let version = WebDriverKeys.shiftedVersion[character] else { return key }
        return String(version)
    }

    static func mouseButton(_ button: Int) throws(WebDriverError) -> MouseButton {
        guard let mouse = MouseButton(rawValue: button) else {
            throw WebDriverError(.unsupportedOperation, "headway's mouse has buttons 0, 1 and 2, not \(button)")
        }
        return mouse
    }
}
