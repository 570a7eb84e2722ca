import Headway

// Element Click, Element Clear, Element Send Keys.
extension Handlers {
    static let elementInteraction: [Command: Handler] = [:]
}
