import Headway

// window handles, new, close, switch, rect.
extension Handlers {
    static let windows: [Command: Handler] = [:]
}
