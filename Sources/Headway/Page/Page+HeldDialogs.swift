import CWebKit
import Foundation

// A dialog kept open until the client answers it (`Page.holdsDialogs`): WebKit's dialog, with
// the reference Headway took, and its record. While it is open, the page's script (and so any
// `evaluate`) waits in the web process.
@EngineActor
final class DialogHold {
    var holds = false
    private(set) var held: (dialog: OpaquePointer, record: JavaScriptDialog)?
    private var waiters: [UUID: @EngineActor (JavaScriptDialog?) -> Void] = [:]

    // Keeps `dialog` open: takes a reference that `close` or `release` gives back.
    func hold(_ dialog: OpaquePointer, record: JavaScriptDialog) {
        webkit_script_dialog_ref(dialog)
        held = (dialog, record)
        wake(record)
    }

    // Answers the held dialog and closes it; returns its record with the answer.
    func close(accept: Bool, text: String?) -> JavaScriptDialog? {
        guard let (dialog, record) = held else { return nil }
        held = nil
        var answered = record
        switch record.type {
        case .confirm, .beforeUnload:
            webkit_script_dialog_confirm_set_confirmed(dialog, accept ? 1 : 0)
            answered.answer = .bool(accept)
        case .prompt:
            // Left unset, the prompt returns null.
            let value = text ?? record.defaultText ?? ""
            if accept { webkit_script_dialog_prompt_set_text(dialog, value) }
            answered.answer = accept ? .string(value) : .null
        case .alert:
            answered.answer = .null
        }
        webkit_script_dialog_close(dialog)
        webkit_script_dialog_unref(dialog)
        return answered
    }

    // The page closes: the held dialog is closed unanswered and never touched again; waiters
    // get nil.
    func release() {
        if let (dialog, _) = held {
            held = nil
            webkit_script_dialog_close(dialog)
            webkit_script_dialog_unref(dialog)
        }
        wake(nil)
    }

    // Waits until a dialog is held, at most `timeout`; nil at the timeout or on cancellation.
    func opened(timeout: Duration) async -> JavaScriptDialog? {
        if let held { return held.record }
        let key = UUID()
        let record = try? await EngineWait<JavaScriptDialog?>.run(
            timeout: timeout.clamped,
            onTimeout: { [weak self] in
                self?.waiters[key] = nil
                return .success(nil)
            },
            onCancel: { [weak self] in self?.waiters[key] = nil }
        ) { wait in
            waiters[key] = { wait.resume(.success($0)) }
        }
        return record ?? nil
    }

    private func wake(_ record: JavaScriptDialog?) {
        let all = waiters.values
        waiters.removeAll()
        for waiter in all { waiter(record) }
    }
}

extension Page {
    /// Whether `alert`, `confirm` and `prompt` stay open until `closeDialog(accept:text:)`
    /// answers them, as WebDriver's user prompts do; false (the default) answers each at once by
    /// `dialogPolicy`. A `beforeunload` confirmation is always accepted at once. While a dialog
    /// is open the page's script waits, so `evaluate` and loads wait (or time out) too; closing
    /// the page closes the dialog.
    public var holdsDialogs: Bool {
        get { dialogHold.holds }
        set { dialogHold.holds = newValue }
    }

    /// The dialog held open now (its `answer` is `.undefined` until answered), or nil if none.
    public var openDialog: JavaScriptDialog? { dialogHold.held?.record }

    /// Answers the open dialog and closes it: `accept` confirms a `confirm()` and makes a
    /// `prompt()` return `text` (or its default text when `text` is nil); declining makes
    /// `confirm()` false and `prompt()` null. The answer is recorded in `dialogs` and as a
    /// `.dialog` event. Throws `.invalidArgument` when no dialog is open.
    public func closeDialog(accept: Bool, text: String? = nil) throws {
        guard let answered = dialogHold.close(accept: accept, text: text) else {
            throw HeadwayError(.invalidArgument, "no dialog is open")
        }
        record(answered)
    }

    /// Waits until a dialog is held open (at once when one is), at most `timeout`. Returns it,
    /// or nil at the timeout, when the page closes, or when the task is cancelled.
    public func dialogOpened(timeout: Duration) async -> JavaScriptDialog? {
        await dialogHold.opened(timeout: timeout)
    }

    // Records an answered dialog and reports it.
    func record(_ dialog: JavaScriptDialog) {
        if dialogs.count < 10_000 { dialogs.append(dialog) }
        emit(.dialog(dialog))
    }
}
