import Headway

// Perform Actions, Release Actions.
extension Handlers {
    static let actions: [Command: Handler] = [:]
}
