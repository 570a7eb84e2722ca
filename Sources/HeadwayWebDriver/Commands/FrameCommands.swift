import Headway

// Switch To Frame, Switch To Parent Frame.
extension Handlers {
    static let frames: [Command: Handler] = [:]
}
