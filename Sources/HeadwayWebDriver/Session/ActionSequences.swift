import Headway

// Perform Actions' body, checked as https://www.w3.org/TR/webdriver2/#extract-an-action-sequence
// says, into ticks: tick i holds action i of every sequence. A bad field is "invalid argument"
// naming its path, as actions[0].actions[2].button.
enum ActionSequences {
    static func ticks(_ body: [String: JSONValue], state: inout InputState) throws(WebDriverError) -> [[InputAction]] {
        guard case .array(let sequences)? = body["actions"] else { throw bad("actions", "must be an array") }
        var ticks: [[InputAction]] = []
        for (index, sequence) in sequences.enumerated() {
            let actions = try sequenceActions(sequence, path: "actions[\(index)]", state: &state)
            for (tick, action) in actions.enumerated() {
                if ticks.count <= tick { ticks.append([]) }
                ticks[tick].append(action)
            }
        }
        // Each tick lasts as long as its longest action: together at most `maxTotalDuration`.
        let total = ticks.reduce(0) { $0 + ($1.compactMap(\.duration).max() ?? 0) }
        guard total <= maxTotalDuration else {
            throw bad("actions", "would last \(total) ms, longer than the \(maxTotalDuration) ms (1 hour) "
                      + "one Perform Actions may last")
        }
        return ticks
    }

    // The longest one Perform Actions may last, in milliseconds (the spec sets no bound).
    static let maxTotalDuration = 3_600_000

    private static func sequenceActions(
        _ sequence: JSONValue, path: String, state: inout InputState
    ) throws(WebDriverError) -> [InputAction] {
        guard case .object(let object) = sequence else { throw bad(path, "must be an object") }
        guard let typeName = object["type"]?.stringValue, let type = InputState.SourceType(rawValue: typeName) else {
            throw bad(path + ".type", "must be \"none\", \"key\", \"pointer\" or \"wheel\"")
        }
        guard let id = object["id"]?.stringValue else { throw bad(path + ".id", "must be a string") }
        var pointerType = "mouse"
        // A field that is there must be valid: null is not "undefined" (and so for every field below).
        if type == .pointer, let parameters = object["parameters"] {
            guard case .object(let fields) = parameters else { throw bad(path + ".parameters", "must be an object") }
            if let value = fields["pointerType"] {
                guard let name = value.stringValue, ["mouse", "pen", "touch"].contains(name) else {
                    throw bad(path + ".parameters.pointerType", "must be \"mouse\", \"pen\" or \"touch\"")
                }
                pointerType = name
            }
        }
        if let existing = state.sources[id] {
            guard existing.type == type, existing.pointerType == pointerType || type != .pointer else {
                throw bad(path + ".id", "names the input source \(id), which is a \(existing.type.rawValue) source"
                          + (type == .pointer ? " of pointer type \(existing.pointerType)" : ""))
            }
        } else {
            state.sources[id] = InputState.Source(type: type, pointerType: pointerType)
        }
        guard case .array(let items) = object["actions"] else { throw bad(path + ".actions", "must be an array") }
        var actions: [InputAction] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(path).actions[\(index)]"
            guard case .object(let fields) = item else { throw bad(itemPath, "must be an object") }
            var action = InputAction(source: id, kind: .pause, duration: nil)
            try parse(fields, type: type, path: itemPath, into: &action)
            actions.append(action)
        }
        return actions
    }

    private static func parse(
        _ fields: [String: JSONValue], type: InputState.SourceType, path: String, into action: inout InputAction
    ) throws(WebDriverError) {
        let subtype = fields["type"]?.stringValue ?? ""
        let allowed: [String] = switch type {
        case .none: ["pause"]
        case .key: ["pause", "keyDown", "keyUp"]
        case .pointer: ["pause", "pointerDown", "pointerUp", "pointerMove", "pointerCancel"]
        case .wheel: ["pause", "scroll"]
        }
        guard allowed.contains(subtype) else {
            throw bad(path + ".type", "must be " + allowed.map { "\"\($0)\"" }.joined(separator: ", ")
                      + " for a \(type.rawValue) source")
        }
        switch subtype {
        case "pause":
            action.duration = try duration(fields, path)
        case "keyDown", "keyUp":
            guard let value = fields["value"]?.stringValue, value.count == 1, let key = value.first else {
                throw bad(path + ".value", "must be a string of one character (grapheme cluster)")
            }
            let name = try WebDriverKeys.name(key)
            action.kind = subtype == "keyDown" ? .keyDown(name) : .keyUp(name)
        case "pointerDown", "pointerUp":
            guard let button = fields["button"]?.integer(in: 0...Int(Int32.max)) else {
                throw bad(path + ".button", "must be an integer, 0 or more")
            }
            try pointerProperties(fields, path)
            action.kind = subtype == "pointerDown" ? .pointerDown(button) : .pointerUp(button)
        case "pointerMove":
            action.duration = try duration(fields, path)
            let origin = try origin(fields, path, allowPointer: true)
            // Numbers, as the spec has them since w3c/webdriver#1881 (2025); WPT at 845a0ae5 wants integers.
            let x = try integer(fields, "x", path, fractions: true), y = try integer(fields, "y", path, fractions: true)
            try pointerProperties(fields, path)
            action.kind = .pointerMove(x: x, y: y, origin: origin)
        case "pointerCancel":
            action.kind = .pointerCancel
        default: // scroll
            action.duration = try duration(fields, path)
            let origin = try origin(fields, path, allowPointer: false)
            let x = try integer(fields, "x", path), y = try integer(fields, "y", path)
            let deltaX = try integer(fields, "deltaX", path, limit: Limits.wheelDelta)
            let deltaY = try integer(fields, "deltaY", path, limit: Limits.wheelDelta)
            action.kind = .scroll(x: x, y: y, deltaX: deltaX, deltaY: deltaY, origin: origin)
        }
    }

    private static func duration(_ fields: [String: JSONValue], _ path: String) throws(WebDriverError) -> Int? {
        guard let value = fields["duration"] else { return nil }
        guard let ms = value.integer(in: 0...Int(Int32.max)) else {
            throw bad(path + ".duration", "must be an integer number of milliseconds, 0 or more")
        }
        return ms
    }

    // A coordinate or a delta: the spec's integers (or with `fractions`, numbers), within `limit`.
    private static func integer(
        _ fields: [String: JSONValue], _ key: String, _ path: String, limit: Double = Limits.coordinate,
        fractions: Bool = false
    ) throws(WebDriverError) -> Double {
        guard let value = fields[key]?.doubleValue, value.isFinite, fractions || value == value.rounded() else {
            throw bad("\(path).\(key)", fractions ? "must be a number" : "must be an integer")
        }
        guard abs(value) <= limit else {
            throw bad("\(path).\(key)", "must be from -\(limit.formatted(.number.grouping(.never))) to "
                      + "\(limit.formatted(.number.grouping(.never))), not \(value)")
        }
        return value
    }

    private static func origin(
        _ fields: [String: JSONValue], _ path: String, allowPointer: Bool
    ) throws(WebDriverError) -> InputAction.Origin {
        guard let value = fields["origin"] else { return .viewport }
        if value == .string("viewport") { return .viewport }
        if allowPointer, value == .string("pointer") { return .pointer }
        if value[ScriptRuntime.elementKey]?.stringValue != nil { return .element(value) }
        throw bad(path + ".origin", "must be \"viewport\"" + (allowPointer ? ", \"pointer\"" : "")
                  + " or an element reference")
    }

    // The optional pointer properties: only checked, the library's mouse has none of them.
    private static func pointerProperties(_ fields: [String: JSONValue], _ path: String) throws(WebDriverError) {
        let safe = 9_007_199_254_740_991.0  // JavaScript's largest safe integer
        let ranges: [(String, ClosedRange<Double>, integer: Bool)] = [
            ("width", 0...safe, true), ("height", 0...safe, true), ("pressure", 0...1, false),
            ("tangentialPressure", -1...1, false), ("tiltX", -90...90, true), ("tiltY", -90...90, true),
            ("twist", 0...359, true), ("altitudeAngle", 0...(Double.pi / 2), false),
            ("azimuthAngle", 0...(2 * Double.pi), false),
        ]
        for (key, range, integer) in ranges {
            guard let value = fields[key] else { continue }
            guard let number = value.doubleValue, range.contains(number), !integer || number == number.rounded() else {
                throw bad("\(path).\(key)", "must be \(integer ? "an integer" : "a number") from "
                          + "\(range.lowerBound.formatted(.number.grouping(.never))) to "
                          + "\(range.upperBound.formatted(.number.grouping(.never)))")
            }
        }
    }

    private static func bad(_ path: String, _ what: String) -> WebDriverError {
        WebDriverError(.invalidArgument, "\(path) \(what)")
    }
}
