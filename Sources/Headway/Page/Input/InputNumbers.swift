// The numbers a caller gives the mouse and the wheel, checked before any event is made: the C
// shims convert coordinates to `int`, undefined for NaN, infinities and values beyond it.
enum InputNumbers {

    static func checkPoint(x: Double, y: Double) throws {
        try check(x, name: "x", limit: Limits.coordinate)
        try check(y, name: "y", limit: Limits.coordinate)
    }

    static func checkWheel(deltaX: Double, deltaY: Double) throws {
        try check(deltaX, name: "deltaX", limit: Limits.wheelDelta)
        try check(deltaY, name: "deltaY", limit: Limits.wheelDelta)
    }

    private static func check(_ value: Double, name: String, limit: Double) throws {
        guard value.isFinite, abs(value) <= limit else {
            throw HeadwayError(.invalidArgument,
                "\(name) must be a finite number of CSS pixels between -\(Int(limit)) and \(Int(limit)), not \(value)")
        }
    }
}
