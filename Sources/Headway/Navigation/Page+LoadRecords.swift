import CWebKit
import Foundation

// Every navigation's result, however it started: the ones a caller follows (`finish`) and the
// ones the page makes while nobody follows them (observed here), into `latestLoad` and the
// delegate's `didLoad`.
extension Page {
    // Records `result` as the page's latest load and returns it.
    func recorded(_ result: LoadResult) -> LoadResult {
        latestLoad = result
        chain.page(self, didLoad: result)
        return result
    }

    // The result of a same-document navigation (of `record`, when Headway asked for it): the
    // document's own load, at the URL shown now.
    func sameDocumentResult(_ record: NavigationTracker.Record?) -> LoadResult {
        let now = record?.finalURL ?? url ?? URL(string: "about:blank")!
        var result = latestLoad ?? LoadResult(url: now, finalURL: now, status: nil, title: title,
                                              timing: Timing(started: .zero, committed: .zero, finished: .zero,
                                                             responseStart: 0, domInteractive: 0,
                                                             domContentLoadedEventEnd: 0, loadEventEnd: 0))
        result.url = record?.requested ?? now
        result.finalURL = now
        result.title = title
        result.isSameDocument = true
        return result
    }

    // The timing probe's answer for `record`'s document (waiting for its load event unless it is
    // done at DOMContentLoaded), or nil when the page navigated meanwhile or did not answer
    // within `left` (at most 10 s): a page spinning in JavaScript is checked. Throws only
    // `CancellationError`.
    func timingProbe(of record: NavigationTracker.Record, within left: Duration) async throws -> JSONValue? {
        do {
            let probe = try await JavaScriptCall.callAsyncFunction(
                try liveView(),
                PageScripts.timing,
                arguments: [
                    "waitForLoad": record.completesAtDOMContentLoaded ? "no" : "yes",
                    "entriesWanted": network.recording ? "yes" : "no",
                ],
                world: PageScripts.world,
                sourceURI: nil,
                timeout: min(.seconds(10), max(.seconds(1), left)),
                what: "the timing probe"
            )
            return probe["navigated"] != nil ? nil : probe
        } catch let error as HeadwayError where error.code == .scriptTimeout {
            // The page may be spinning in JavaScript right after its load event.
            checkResponsiveness()
        } catch is CancellationError {
            throw CancellationError()
        } catch {}
        return nil
    }

    // Observes a navigation the page started itself: once it is done, unless a caller followed it
    // (who records it then), its result is recorded. No timeout: the next navigation ends it, or
    // the page's close.
    func observe(_ record: NavigationTracker.Record) {
        record.isObserved = true
        _ = tasks.start { [weak self] in
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                if record.isDone { return done.resume() }
                record.waiters.append { done.resume() }
            }
            guard let self, !Task.isCancelled, !record.isFollowed, record.error == nil, !record.sameDocument,
                  let probe = try? await self.timingProbe(of: record, within: .seconds(10)),
                  !record.isFollowed, let result = try? self.collectResult(record, probe: probe) else { return }
            _ = self.recorded(result)
        }
    }
}
