import Headway

// Dismiss Alert, Accept Alert, Get Alert Text, Send Alert Text.
extension Handlers {
    static let prompts: [Command: Handler] = [:]
}

extension Session {
    // https://www.w3.org/TR/webdriver2/#dfn-handle-any-user-prompts, before `command`.
    func handleUserPrompt(before command: Command) async throws {}
}
