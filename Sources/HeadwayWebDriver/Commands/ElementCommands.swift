import Headway

// Find Element(s) from the document, an element or a shadow root; element state and properties.
extension Handlers {
    static let elements: [Command: Handler] = [:]
}
