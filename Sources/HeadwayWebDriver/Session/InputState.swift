import Headway

// A session's input state (https://www.w3.org/TR/webdriver2/#input-state): its input sources
// by id, and the actions that undo what is held down (the input cancel list), which Release
// Actions runs in reverse order.
package struct InputState {
    package enum SourceType: String { case none, key, pointer, wheel }

    package struct Source {
        var type: SourceType
        var pointerType = "mouse"
        // Each key held: as the action named it, and as it was sent (shifted while Shift was held).
        var pressedKeys: [(raw: String, sent: String)] = []
        var pressedButtons: Set<Int> = []
        var x = 0.0
        var y = 0.0
    }

    // One undo action: release a key or a button of a source.
    enum Undo {
        case keyUp(source: String, key: String)
        case pointerUp(source: String, button: Int)
    }

    var sources: [String: Source] = [:]
    var cancelList: [Undo] = []

    package init() {}
}

// One action of a sequence, checked (https://www.w3.org/TR/webdriver2/#processing-actions).
struct InputAction {
    enum Origin {
        case viewport, pointer
        case element(JSONValue)
    }

    enum Kind {
        case pause
        case keyDown(String), keyUp(String)
        case pointerDown(Int), pointerUp(Int)
        case pointerMove(x: Double, y: Double, origin: Origin)
        case pointerCancel
        case scroll(x: Double, y: Double, deltaX: Double, deltaY: Double, origin: Origin)
    }

    var source: String
    var kind: Kind
    // In milliseconds; nil where the action gave none.
    var duration: Int?
}
