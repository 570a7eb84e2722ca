import Headway

// Dismiss Alert, Accept Alert, Get Alert Text, Send Alert Text
// (https://www.w3.org/TR/webdriver2/#user-prompts). The session's pages hold every alert, confirm
// and prompt open (`Page.holdsDialogs`) until one of these, or the prompt handler, answers it.
extension Handlers {
    static let prompts: [Command: Handler] = [
        .dismissAlert: { session, _ in
            try session.closePrompt(accept: false)
            return .null
        },
        .acceptAlert: { session, _ in
            try session.closePrompt(accept: true)
            return .null
        },
        .getAlertText: { session, _ in
            .string(try session.openPrompt().message)
        },
        .sendAlertText: { session, request in
            let text = try request.string("text")
            let dialog = try session.openPrompt()
            switch dialog.type {
            case .prompt: session.promptText = (dialog, text)
            case .alert, .confirm:
                let kind = dialog.type == .alert ? "an alert" : "a confirm"
                throw WebDriverError(.elementNotInteractable, "the user prompt is \(kind), "
                    + "which takes no text: only a prompt() does")
            case .beforeUnload:
                throw WebDriverError(.unsupportedOperation, "a beforeunload prompt takes no text")
            }
            return .null
        },
    ]
}

extension Session {
    // The commands that leave an open user prompt alone: the prompt commands themselves, and
    // those whose algorithms do not "handle any user prompts".
    static let promptFreeCommands: Set<Command> = [
        .getTimeouts, .setTimeouts, .getWindowHandle, .getWindowHandles, .switchToWindow,
        .dismissAlert, .acceptAlert, .getAlertText, .sendAlertText,
        .headwayTiming, .headwayBoosterStats, .headwayHAR, .headwayFilmstrip,
    ]

    // The user prompt open in the current window: "no such window" when it was closed,
    // "no such alert" when none is open.
    func openPrompt() throws(WebDriverError) -> JavaScriptDialog {
        guard let dialog = try currentPage().openDialog else {
            throw WebDriverError(.noSuchAlert, "no user prompt (alert, confirm or prompt) is open")
        }
        return dialog
    }

    // Answers the open prompt: accepted with the text Send Alert Text gave it, if any.
    func closePrompt(accept: Bool) throws {
        let dialog = try openPrompt()
        let text = promptText.flatMap { $0.dialog == dialog ? $0.text : nil }
        promptText = nil
        try currentPage().closeDialog(accept: accept, text: accept ? text : nil)
    }

    // https://www.w3.org/TR/webdriver2/#dfn-handle-any-user-prompts, before `command`: under the
    // session's unhandledPromptBehavior, an open prompt is dismissed or accepted (and, to notify,
    // the command fails with "unexpected alert open" and the prompt's text), or left open and the
    // command fails ("ignore").
    func handleUserPrompt(before command: Command) async throws {
        guard !Self.promptFreeCommands.contains(command), let page = try? currentPage(),
              let dialog = page.openDialog else { return }
        let behavior = capabilities.unhandledPromptBehavior
        let data: JSONValue = ["text": .string(dialog.message)]
        if behavior == .ignore {
            throw WebDriverError(.unexpectedAlertOpen, "a user prompt is open (\"\(dialog.message)\"): "
                + "accept or dismiss it first (unhandledPromptBehavior is ignore)", data: data)
        }
        try closePrompt(accept: behavior.accepts)
        guard behavior.notifies else { return }
        throw WebDriverError(.unexpectedAlertOpen, "a user prompt was open (\"\(dialog.message)\"): "
            + "it was \(behavior.accepts ? "accepted" : "dismissed") (unhandledPromptBehavior is \(behavior.rawValue))",
            data: data)
    }
}
