// The numbers a caller gives the mouse and the wheel, checked before any event is made: the C
// shims convert coordinates to `int`, undefined for NaN, infinities and values beyond it.
enum InputNumbers {
    // Coordinates, in CSS pixels, fit an Int32 either way.
    static let coordinateLimit = Double(Int32.max)
    // A wheel turn of more than a million CSS pixels is no user's.
    static let wheelDeltaLimit = 1_000_000.0

    static func checkPoint(x: Double, y: Double) throws {
        try check(x, name: "x", limit: coordinateLimit)
        try check(y, name: "y", limit: coordinateLimit)
    }

    static func checkWheel(deltaX: Double, deltaY: Double) throws {
        try check(deltaX, name: "deltaX", limit: wheelDeltaLimit)
        try check(deltaY, name: "deltaY", limit: wheelDeltaLimit)
    }

    private static func check(_ value: Double, name: String, limit: Double) throws {
        guard value.isFinite, abs(value) <= limit else {
            throw HeadwayError(.invalidArgument,
                "\(name) must be a finite number of CSS pixels between -\(Int(limit)) and \(Int(limit)), not \(value)")
        }
    }
}
