import Foundation

// Same-document navigations, which WebKit reports with no load event, and followers that count a
// load done earlier than it was asked for.
//
// A load Headway asks for (`load` of a fragment of the page shown, `goBack` to an entry of the
// same document) ends that way: the view's is-loading goes true, then false, with no STARTED
// (which a fresh view's first load does too, so only a load that may be one is taken for one). One
// the page makes itself (a fragment link, `history.pushState`, `history.back()` within the
// document) changes only the view's URL, while no load runs.
extension NavigationTransition.Step {
    mutating func loadingStopped(_ url: URL?) {
        guard let current = state.current, current.phase == .requested, current.mayBeSameDocument,
              !current.replacedLoadEnded, let url else { return }
        endAsSameDocument(at: url)
    }

    // A requested load that may be same-document gained its history entry before it started: it
    // was one, in a document still loading (WebKit goes on loading it, so is-loading stays true).
    mutating func historyItemAdded(_ url: URL) {
        guard let current = state.current, current.phase == .requested, current.mayBeSameDocument,
              current.requested.map(MirrorScheme.real) == url else { return }
        endAsSameDocument(at: url)
    }

    private mutating func endAsSameDocument(at url: URL) {
        state.current?.sameDocument = true
        state.current?.finalURL = url
        state.sameDocumentNavigations += 1
        complete(error: nil)
        effects.append(.sameDocument(url))
    }

    mutating func urlChanged(_ url: URL) {
        if let current = state.current, !current.isDone { return }
        state.sameDocumentNavigations += 1
        effects.append(.sameDocumentSeen)
        effects.append(.sameDocument(url))
    }

    // A requested load's predecessor ended (its failure or FINISHED came late): the moment WebKit
    // is not loading between the two is not a same-document navigation.
    mutating func replacedLoadEnded() {
        guard let current = state.current, current.phase == .requested else { return }
        state.current?.replacedLoadEnded = true
    }

    mutating func completes(_ id: Int, at condition: LoadCondition) {
        guard let current = state.current, current.id == id, !current.isDone else { return }
        switch condition {
        case .domContentLoaded:
            state.current?.completesAtDOMContentLoaded = true
            if current.domContentLoaded != nil, current.phase == .loading { complete(error: current.error) }
        case .committed:
            state.current?.completesAtCommit = true
            if current.committed != nil, current.phase == .loading { complete(error: current.error) }
        case .load, .networkIdle:
            break
        }
    }
}
