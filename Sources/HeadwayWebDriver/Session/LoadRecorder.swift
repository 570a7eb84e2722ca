import Foundation
import Headway

// Keeps each document load of a session's pages for its HAR log (with "har" on), and hands
// their requests to the session's BiDi events.
@EngineActor
final class LoadRecorder: NavigationDelegate {
    private weak var session: Session?

    init(session: Session) {
        self.session = session
    }

    func page(_ page: Page, didOpenDialog dialog: JavaScriptDialog) {
        guard let session, let events = session.bidi,
              let handle = session.handle(of: page) else { return }
        let behavior = session.capabilities.unhandledPromptBehavior
        events.promptOpened(dialog, handle: handle, behavior: behavior)
        // A BiDi session's prompt handler answers a prompt when it opens, as the BiDi spec (and
        // chromedriver) do; "ignore" leaves it to a command.
        guard behavior != .ignore else { return }
        Task { @EngineActor in try? page.closeDialog(accept: behavior.bidiHandler == "accept") }
    }

    func page(_ page: Page, didLoad result: LoadResult) {
        if let session, let events = session.bidi,
           let handle = session.handle(of: page) {
            events.loadMeasured(result, handle: handle)
        }
        guard let session, session.browser.configuration.recordsResources, !result.isSameDocument else { return }
        session.loads.append(result)
    }

    func page(_ page: Page, didRecordFilmstrip result: LoadResult) {
        guard let session, let handle = session.handle(of: page) else { return }
        if let frames = result.filmstrip { session.lastFilmstrip = (handle, result.url, frames, result.visualMetrics) }
        session.bidi?.filmstripRecorded(result, handle: handle)
    }

    func page(_ page: Page, didStartNavigation url: URL) { navigated(.started, page, url) }
    func page(_ page: Page, didCommitNavigation url: URL) { navigated(.committed, page, url) }
    func page(_ page: Page, didLoadDOMContent url: URL?) { navigated(.domContentLoaded, page, url) }
    func page(_ page: Page, didFinishNavigation url: URL) { navigated(.finished, page, url) }
    func page(_ page: Page, didFailNavigation url: URL?, error: HeadwayError) {
        // WebKit cancels a navigation another replaced before it committed, and some that fail
        // (a blocked document, a stop): which one BiDiEvents tells by what follows.
        let cancelled = error.gerror.map { $0.domain == "WebKitNetworkError" && $0.code == 302 } ?? false
        navigated(cancelled ? .cancelled : .failed, page, url)
    }

    func page(_ page: Page, didNavigateWithinDocument url: URL) {
        guard let session, let events = session.bidi, let handle = session.handle(of: page) else { return }
        events.sameDocument(url, handle: handle)
    }

    private func navigated(_ what: BiDiEvents.Navigation, _ page: Page, _ url: URL?) {
        guard let session, let events = session.bidi,
              let handle = session.handle(of: page) else { return }
        events.navigated(what, url: url, handle: handle)
    }

    func page(_ page: Page, didOpenFileChooser chooser: FileChooser) {
        guard let session, let events = session.bidi, let handle = session.handle(of: page) else { return }
        events.emit("input.fileDialogOpened", ["context": .string(handle), "userContext": "default",
                                               "multiple": .bool(chooser.allowsMultiple)], context: handle)
    }

    func page(_ page: Page, didPostMessage data: JSONValue) {
        guard let session, let events = session.bidi,
              let handle = session.handle(of: page) else { return }
        events.channelMessage(data, handle: handle)
    }

    func page(_ page: Page, didSendRequest request: ResourceRequest) {
        guard let session, let events = session.bidi else { return }
        events.requestSent(request, page: page, session: session)
    }

    func page(_ page: Page, didReceiveResponse request: ResourceRequest) {
        guard let session, let events = session.bidi else { return }
        events.responseStarted(request, page: page, session: session)
    }

    func page(_ page: Page, didEndRequest request: ResourceRequest) {
        guard let session, let events = session.bidi else { return }
        events.requestEnded(request, page: page, session: session)
    }
}
