import Headway

// Keeps each document load of a session's pages for its HAR log (with "har" on).
@EngineActor
final class LoadRecorder: NavigationDelegate {
    private weak var session: Session?

    init(session: Session) {
        self.session = session
    }

    func page(_ page: Page, didLoad result: LoadResult) {
        guard let session, session.browser.configuration.recordsResources, !result.isSameDocument else { return }
        session.loads.append(result)
    }
}
