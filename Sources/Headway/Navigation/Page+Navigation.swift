import CWebKit
public import Foundation

extension Page {
    /// Loads `url` and returns once it finished (after the load event) and a request for the
    /// page icon that WebKit had started by then has ended (at most 1 s more, outside every
    /// timing; not with `.domContentLoaded`).
    ///
    /// `timeout` bounds the whole load, client redirects included. Throws a
    /// `HeadwayError`: `.timeout` when it runs out, `.loadFailed` or `.blockedURL` when WebKit
    /// refuses or cannot reach the URL or (with the booster) a redirect leads out of http(s),
    /// `.notAPage` for a response that is no page (204, a download), `.engine` when the web
    /// process or WebKit's network process ends during the load, `.closed` for a closed page.
    /// Cancelling the calling task stops the load and throws `CancellationError`.
    ///
    /// `until` says when the load is done: at the load event (`.load`, the default), at
    /// DOMContentLoaded (`.domContentLoaded`: `finished` and `loadEventEnd` are then 0 if the load
    /// event had not come yet), or once the network has then been idle for 500 ms
    /// (`.networkIdle`, see `waitForNetworkIdle`), all within `timeout`; or as soon as the
    /// navigation committed (`.committed`: the document may not have parsed, the load goes on,
    /// and the result's Navigation Timing and resources are 0).
    ///
    /// With `filmstrip`, the load also records frames of the viewport from its start until the
    /// view is visually stable after the load event (see `FilmstripOptions`): the result's
    /// `filmstrip` and `visualMetrics`, and `load` returns once the recording has ended. Throws
    /// `.invalidArgument` for options out of bounds; a view WebKit gave no frame of has no
    /// `visualMetrics`.
    @discardableResult
    public func load(
        _ url: URL,
        until condition: LoadCondition = .load,
        timeout: Duration = .seconds(30),
        filmstrip: FilmstripOptions? = nil
    ) async throws -> LoadResult {
        guard let filmstrip else { return try await loading(url, until: condition, timeout: timeout, recorder: nil) }
        let recorder = FrameRecorder(page: self, options: try filmstrip.validated())
        do {
            var result = try await loading(url, until: condition, timeout: timeout, recorder: recorder)
            // A load whose view WebKit never drew has its result, without visual metrics.
            if let (strip, metrics) = try await recorder.finish() {
                (result.filmstrip, result.visualMetrics) = (strip, metrics)
            }
            // `latestLoad` gets the metrics (not the frames, which the caller holds).
            if latestLoad?.startTime == result.startTime, latestLoad?.url == result.url {
                latestLoad?.visualMetrics = result.visualMetrics
            }
            chain.page(self, didRecordFilmstrip: result)
            return result
        } catch {
            recorder.stop()
            throw error
        }
    }

    private func loading(_ url: URL, until condition: LoadCondition, timeout: Duration,
                         recorder: FrameRecorder?) async throws -> LoadResult {
        let view = try await readyView()
        // The view as it is, taken before the navigation starts: the snapshot does not compete with it.
        await recorder?.takeFirstFrame()
        if let prerendered = takePrerender(of: url) {
            recorder?.start()
            return try await show(prerendered, for: url, timeout: timeout, condition: condition)
        }
        let target = booster != nil ? MirrorScheme.mirror(url) : url
        let started = Engine.now()
        let result = try await navigate(url, timeout: timeout, condition: condition,
                                        mayBeSameDocument: isFragment(of: self.url, url)) {
            booster?.willNavigate(to: target, from: pageBooster)
            recorder?.start()
            webkit_web_view_load_uri(view, target.absoluteString)
        }
        guard condition == .networkIdle else { return result }
        try await waitForNetworkIdle(timeout: (timeout.clamped - started.duration(to: Engine.now())).clamped)
        var idle = result
        if browser?.configuration.recordsResources == true { idle.resourceEntries = try await resourceEntries() }
        return idle
    }

    /// Reloads the current page; errors and cancellation as for `load`.
    @discardableResult
    public func reload(timeout: Duration = .seconds(30)) async throws -> LoadResult {
        let view = try await readyView()
        return try await navigate(url, timeout: timeout) { webkit_web_view_reload(view) }
    }

    /// Goes back one entry in the history; errors and cancellation as for `load`, and
    /// `.invalidArgument` when there is no entry to go back to.
    @discardableResult
    public func goBack(timeout: Duration = .seconds(30)) async throws -> LoadResult {
        let view = try await readyView()
        guard webkit_web_view_can_go_back(view) != 0 else {
            throw HeadwayError(.invalidArgument, "there is no page to go back to")
        }
        return try await navigate(nil, timeout: timeout, mayBeSameDocument: true) { webkit_web_view_go_back(view) }
    }

    /// Goes forward one entry in the history; errors and cancellation as for `goBack`.
    @discardableResult
    public func goForward(timeout: Duration = .seconds(30)) async throws -> LoadResult {
        let view = try await readyView()
        guard webkit_web_view_can_go_forward(view) != 0 else {
            throw HeadwayError(.invalidArgument, "there is no page to go forward to")
        }
        return try await navigate(nil, timeout: timeout, mayBeSameDocument: true) {
            webkit_web_view_go_forward(view)
        }
    }

    /// Stops the current load; a pending `load` then fails.
    public func stop() {
        tracker.send(.stop)
        guard let view = view?.pointer else { return }
        webkit_web_view_stop_loading(view)
        if let pageBooster { booster?.pageStopped(pageBooster) }
    }

    // Whether `target` is the document `shown` with a fragment: WebKit navigates within it.
    private func isFragment(of shown: URL?, _ target: URL) -> Bool {
        guard target.fragment != nil, let shown else { return false }
        func document(_ url: URL) -> Substring { url.absoluteString.prefix { $0 != "#" } }
        return document(shown) == document(target)
    }

    // Navigates to a redirect's target for the booster's handler, as the same navigation.
    func followMainFrameRedirect(to target: URL) {
        guard let view = view?.pointer else { return }
        guard ["http", "https"].contains(target.scheme?.lowercased()) else {
            // A web page may not send the browser to a local file (or any other scheme).
            if tracker.refusedRedirect(to: target) { webkit_web_view_stop_loading(view) }
            return
        }
        if tracker.tooManyReplayedRedirects() {
            webkit_web_view_stop_loading(view)
            return
        }
        tracker.send(.replayingRedirect(target))
        booster?.willNavigate(to: target, from: pageBooster)
        webkit_web_view_load_uri(view, MirrorScheme.mirror(target).absoluteString)
    }

    // Forgets the console, errors and dialogs of the page being left.
    func clearPageRecords() {
        console.removeAll()
        errors.removeAll()
        consoleTotal = 0
        errorsTotal = 0
        dialogs.removeAll()
    }

    private func navigate(_ requested: URL?, timeout: Duration, condition: LoadCondition = .load,
                          mayBeSameDocument: Bool = false, start: () -> Void) async throws -> LoadResult {
        try Task.checkCancellation()
        clearPageRecords()
        if let booster, view != nil { booster.navigationStarts(to: requested, in: pageBooster) }
        let record = tracker.begin(requested, until: condition, mayBeSameDocument: mayBeSameDocument)
        network.reset()
        start()
        return try await finish(record, timeout: timeout)
    }

    // Waits for `record` to complete, follows the client redirects the page makes during or
    // right after its load, then gathers the result. `timeout` bounds the whole chain.
    func finish(_ first: NavigationTracker.Record, timeout: Duration) async throws -> LoadResult {
        let timeout = timeout.clamped
        let deadline = Engine.now() + timeout
        var record = first
        while true {
            record.isFollowed = true
            do {
                try await wait(for: record, until: deadline, timeout: timeout)
            } catch var error as HeadwayError where error.code == .timeout {
                guard record.documentWasArriving else { throw try await explained(error) }
                error.message += ": its document was still arriving (a document that never ends?)"
                throw try await explained(error, busyWith: "parsing it")
            }
            if record.sameDocument { return recorded(sameDocumentResult(record)) }
            // A load done at commit does not wait for its document: no probe, no redirect check.
            if record.completesAtCommit { return recorded(try collectResult(record, probe: .null)) }
            var probe: JSONValue?
            do {
                probe = try await timingProbe(of: record, within: Engine.now().duration(to: deadline))
            } catch is CancellationError {
                // The load ends here: its client-redirect check too, or the page's next own
                // navigation would be taken for this load's redirect.
                if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil }
                throw CancellationError()
            }
            if record.redirects.count < NavigationTiming.maxRedirects,
               let next = await clientRedirect(after: record, probe: probe, deadline: deadline) {
                record = next
                continue
            }
            // Read before the icon wait, so that a navigation the page starts meanwhile cannot
            // leak into this load's result.
            let result = try collectResult(record, probe: probe ?? .null)
            await letIconRequestEnd(of: record, probe: probe, until: deadline)
            try Task.checkCancellation()
            return recorded(result)
        }
    }

    // Waits until `record` completes. At the deadline the load is stopped and fails with
    // `.timeout` (and a page stuck in JavaScript loses its web process); when the task is
    // cancelled the load is stopped and this throws `CancellationError`.
    private func wait(for record: NavigationTracker.Record, until deadline: ContinuousClock.Instant,
                      timeout: Duration) async throws {
        do {
            try await EngineWait<Void>.run(
                timeout: Engine.now().duration(to: deadline),
                onTimeout: { [weak self] in
                    guard let self else { return .success(()) }
                    // A document that never ends (streamed without end) is still arriving.
                    let document = record.finalURL.map { MirrorScheme.real($0).absoluteString }
                    record.documentWasArriving = document.map {
                        self.network.isLoading(anyOf: [$0], key: { MirrorScheme.real($0).absoluteString })
                    } ?? false
                    if self.tracker.timeOut(record, after: timeout) { self.stop() }
                    return .success(())
                },
                onCancel: { [weak self] in
                    guard let self, !record.isDone else { return }
                    self.stop()
                    self.tracker.fail(record, with: HeadwayError(.loadFailed, "the load was cancelled"))
                    self.checkResponsiveness()
                }
            ) { wait in
                tracker.whenDone(record) { wait.resume(.success(())) }
            }
        } catch {
            if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil }
            throw error
        }
        if let error = record.error {
            if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil }
            throw error
        }
    }

    // The record of a navigation the page started right after `record`'s load (a script in
    // its load handler or a task after it, or a meta refresh of at most 1 s), or nil.
    private func clientRedirect(after record: NavigationTracker.Record, probe: JSONValue?,
                                deadline: ContinuousClock.Instant) async -> NavigationTracker.Record? {
        defer { if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil } }
        if let current = tracker.current, current !== record, current.redirects.count > record.redirects.count {
            return current
        }
        let finishedAt = record.origin + (record.finished ?? .zero)
        let navigated = record.pageNavigation.map { $0.at >= finishedAt } ?? false
        let refresh = probe?["metaRefresh"]?.doubleValue
        guard tracker.awaitingClientRedirect === record, navigated || refresh != nil || probe == nil else { return nil }
        // decide-policy reports frame navigations too: a main-frame one starts within a moment.
        let wait = Duration(clampedMilliseconds: (refresh ?? 0) * 1000) + NavigationTiming.clientRedirectStart
        let grace = min(wait, Engine.now().duration(to: deadline).clamped)
        guard let next = await tracker.nextRecord(after: record, within: grace),
              next.redirects.count > record.redirects.count else { return nil }
        return next
    }
}
