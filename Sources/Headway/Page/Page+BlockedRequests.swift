import Foundation

extension Page {
    // The web-process extension kept a request to `url` off the network.
    func blockedRequest(_ url: String) {
        guard let parsed = URL(string: url) else { return }
        tracker.blocked(parsed)
    }
}
