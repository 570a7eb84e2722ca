import Headway

// Headway's extensions under /session/{id}/headway/.
extension Handlers {
    static let headway: [Command: Handler] = [:]
}
