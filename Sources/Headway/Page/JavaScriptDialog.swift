import CWebKit
import Foundation

/// How Headway answers the page's JavaScript dialogs at once. No dialog waits for a person, unless
/// the page holds them open for its client (`Page.holdsDialogs`).
public enum DialogPolicy: String, Sendable, CaseIterable {
    /// `confirm()` gets false, `prompt()` gets null; the default.
    case dismiss
    /// `confirm()` gets true, `prompt()` gets its default text.
    case accept
}

/// A JavaScript dialog the page opened (`alert`, `confirm`, `prompt`, or the confirmation a
/// `beforeunload` handler asks for) and the answer Headway gave it. A page is always allowed to
/// leave: `beforeUnload` is answered true under either policy.
public struct JavaScriptDialog: Sendable, Codable, Equatable {
    /// Which kind of dialog the page opened.
    public enum Kind: String, Sendable, Codable {
        case alert, confirm, prompt, beforeUnload
    }

    /// The kind of dialog.
    public var type: Kind
    /// The text the page showed in it.
    public var message: String
    /// The default text a `prompt()` offered; nil for other kinds.
    public var defaultText: String?
    /// What the page's call returned: `.null` for an alert, `.bool` for confirm and
    /// beforeunload, `.string` or `.null` for a prompt.
    public var answer: JSONValue

    /// A dialog of `type` with `message`, a prompt's `defaultText`, and the `answer` given.
    public init(type: Kind, message: String, defaultText: String? = nil, answer: JSONValue) {
        self.type = type
        self.message = message
        self.defaultText = defaultText
        self.answer = answer
    }
}

extension Page {
    // Answers a dialog WebKit is about to show (synchronously, so the page's call returns at
    // once) and records it. `dialog` is borrowed for the duration of the signal.
    func answer(_ dialog: OpaquePointer) {
        let message = webkit_script_dialog_get_message(dialog).map { String(cString: $0) } ?? ""
        if holdsDialogs, openDialog == nil, let held = Self.unanswered(dialog, message: message) {
            dialogHold.hold(dialog, record: held)
            return chain.page(self, didOpenDialog: held)
        }
        let accept = dialogPolicy == .accept
        let record: JavaScriptDialog
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_CONFIRM:
            webkit_script_dialog_confirm_set_confirmed(dialog, accept ? 1 : 0)
            record = JavaScriptDialog(type: .confirm, message: message, answer: .bool(accept))
        case WEBKIT_SCRIPT_DIALOG_PROMPT:
            let defaultText = webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) } ?? ""
            // Left unset, the prompt returns null.
            if accept { webkit_script_dialog_prompt_set_text(dialog, defaultText) }
            record = JavaScriptDialog(type: .prompt, message: message, defaultText: defaultText,
                                      answer: accept ? .string(defaultText) : .null)
        case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM:
            webkit_script_dialog_confirm_set_confirmed(dialog, 1)
            record = JavaScriptDialog(type: .beforeUnload, message: message, answer: .bool(true))
        default:
            record = JavaScriptDialog(type: .alert, message: message, answer: .null)
        }
        self.record(record)
    }

    // The record of a dialog to hold open (not yet answered), or nil for a beforeunload one.
    private static func unanswered(_ dialog: OpaquePointer, message: String) -> JavaScriptDialog? {
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_CONFIRM: return JavaScriptDialog(type: .confirm, message: message, answer: .undefined)
        case WEBKIT_SCRIPT_DIALOG_PROMPT:
            let defaultText = webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) } ?? ""
            return JavaScriptDialog(type: .prompt, message: message, defaultText: defaultText, answer: .undefined)
        case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM: return nil
        default: return JavaScriptDialog(type: .alert, message: message, answer: .undefined)
        }
    }
}
