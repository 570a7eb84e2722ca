import Foundation
import Headway

// A BiDi command's handler: runs on the engine actor, inside the session's command queue (so that
// classic commands and BiDi commands take turns).
typealias BiDiHandler = @EngineActor (BiDiCall) async throws -> JSONValue

// One command as its handler sees it: the session, its events, the parameters.
@EngineActor
struct BiDiCall {
    let session: Session
    let events: BiDiEvents
    let parameters: CommandRequest

    // The top-level context `params.context` names (or `id`): its handle and page. A frame's id
    // is `invalid argument`, as the spec says where it takes top-level contexts only, or
    // `frameError` (`unsupported operation` where the spec takes a frame and Headway does not).
    func context(_ id: String? = nil, frameError: BiDiError.Code = .invalidArgument) throws
        -> (handle: String, page: Page) {
        let handle = try id ?? parameters.string("context")
        if let frame = ContextID(handle), !frame.isTopLevel,
           session.windows.contains(where: { $0.handle == frame.handle }) {
            throw BiDiError(frameError, "\(handle) is a frame: headway runs this command on top-level contexts "
                + "(a frame's are getTree, locateNodes and the script module's)")
        }
        session.syncWindows()
        guard let window = session.windows.first(where: { $0.handle == handle }), !window.page.isClosed else {
            throw BiDiError(.noSuchFrame, "no browsing context has the id \(handle)")
        }
        return (handle, window.page)
    }

    // `params.contexts`: top-level contexts (a frame's is `invalid argument`), or nil for every one.
    func contextList() throws -> Set<String>? {
        guard let value = parameters.body["contexts"], value != .null else { return nil }
        guard case .array(let ids) = value, !ids.isEmpty else {
            throw BiDiError(.invalidArgument, "\"contexts\" must be a non-empty array of context ids")
        }
        return Set(try ids.map { id throws in
            guard let text = id.stringValue else {
                throw BiDiError(.invalidArgument, "each context id must be a string")
            }
            return try context(text).handle
        })
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = parameters.body[key], value != .null else { return nil }
        guard let integer = value.integer(in: range) else {
            throw BiDiError(.invalidArgument,
                            "\"\(key)\" must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    // `params.wait` as the load to wait for: "none" (the default) waits for the navigation to
    // commit, "interactive" for DOMContentLoaded, "complete" for the load event.
    func wait() throws -> LoadCondition {
        switch try parameters.optionalString("wait") ?? "none" {
        case "none": .committed
        case "interactive": .domContentLoaded
        case "complete": .load
        case let other:
            throw BiDiError(.invalidArgument, "\"wait\" must be none, interactive or complete, not \(other)")
        }
    }

    // Runs a navigation of `page` within the session's pageLoad timeout. A navigation that ends
    // in no page (204, a download) answers nil; a failure is "unknown error".
    func navigate(
        _ page: Page, wait: LoadCondition,
        _ navigation: @escaping @Sendable @EngineActor (Page, LoadCondition, Duration) async throws -> LoadResult
    ) async throws -> LoadResult? {
        let timeout = session.timeouts.pageLoadDuration
        let watchdog = watch(page)
        defer { watchdog?.cancel() }
        do {
            return try await page.unlessDialogOpens(cancellingWork: false) {
                try await navigation(page, wait, timeout)
            }
        } catch let error as HeadwayError {
            watchdog?.cancel()
            if let watchdog, await watchdog.value {
                throw BiDiError(.unknownError, "the page ran JavaScript without a pause for longer than the script "
                    + "timeout (\(session.timeouts.script ?? 0) ms) while it loaded (a looping preload script?): its "
                    + "web process was terminated")
            }
            switch error.code {
            case .notAPage: return nil
            case .timeout: throw BiDiError(.unknownError, "the navigation did not end within the pageLoad timeout "
                + "(\(session.timeouts.pageLoad) ms)")
            default: throw BiDiError(.unknownError, error.description)
            }
        }
    }
}

extension BiDiCall {
    // While a navigation runs: once the script timeout has passed (and at least `watchFloor`),
    // probes the page every half second; a page that does not answer (a preload script or the
    // page's own in a loop) loses its web process (Page.evaluate's timeout does that), so the
    // navigation ends instead of holding the session. True when it did. The floor spares a page
    // busy for a few seconds while it loads in a session with a short script timeout.
    static let watchFloor: Duration = .seconds(10)

    private func watch(_ page: Page) -> Task<Bool, Never>? {
        guard session.timeouts.scriptDuration < Timeouts.unbounded else { return nil }
        let bound = max(session.timeouts.scriptDuration, Self.watchFloor)
        return Task { @EngineActor [weak page] in
            do { try await Task.sleep(for: bound) } catch { return false }
            while !Task.isCancelled {
                guard let page, !page.isClosed else { return false }
                do {
                    _ = try await page.evaluate("0", timeout: .seconds(1))
                } catch let error as HeadwayError where error.code == .scriptTimeout {
                    return error.message.contains("terminated")
                } catch {
                    return false
                }
                do { try await Task.sleep(for: .milliseconds(500)) } catch { return false }
            }
            return false
        }
    }
}

extension Session {
    // Runs `body` with `handle` as the current window and `frames` (element references from the
    // top-level document) as the current frame, then puts back the classic ones (inside the
    // command queue, no classic command sees it).
    func inContext<T>(_ handle: String, frames: [JSONValue] = [], _ body: () async throws -> T) async throws -> T {
        let saved = (currentHandle, framePath)
        try switchTo(handle: handle)
        framePath = frames
        defer { (currentHandle, framePath) = saved }
        return try await body()
    }
}
