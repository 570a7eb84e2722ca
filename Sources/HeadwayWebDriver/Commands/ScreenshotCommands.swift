import Headway

// Take Screenshot, Take Element Screenshot, Print Page.
extension Handlers {
    static let screenshots: [Command: Handler] = [:]
}
