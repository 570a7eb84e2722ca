import Headway

// the cookie commands.
extension Handlers {
    static let cookies: [Command: Handler] = [:]
}
