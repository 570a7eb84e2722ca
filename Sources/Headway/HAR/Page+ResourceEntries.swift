import CWebKit
import Foundation

extension Page {
    /// The requests of the page's current load so far (requests its scripts made after the load
    /// included), joined with their Resource Timing phases. Empty unless
    /// `Browser.Configuration.recordsResources` is on. Throws `.closed` for a closed page,
    /// `.scriptTimeout` when the page does not answer within `timeout`, `.scriptError` when it
    /// navigated meanwhile.
    public func resourceEntries(timeout: Duration = .seconds(10)) async throws -> [ResourceEntry] {
        let view = try await readyView()
        guard browser?.configuration.recordsResources == true else { return [] }
        let answer = try await JavaScriptCall.callAsyncFunction(
            view, PageScripts.resourcePhases + "return resourcePhases();", arguments: [:], world: PageScripts.world,
            sourceURI: nil, timeout: timeout, what: "the resource timing probe")
        let phases: [JSONValue] = if case .array(let list) = answer { list } else { [] }
        return resourceEntries(phases: phases, view: view)
    }

    // The requests so far joined with `phases`, with the booster's cache hits marked.
    func resourceEntries(phases: [JSONValue], view: UnsafeMutablePointer<WebKitWebView>) -> [ResourceEntry] {
        ResourceEntries.join(network.requests, phases: phases, cacheHits: pageBooster?.cacheHits ?? [],
                             handlerWaits: pageBooster?.responseWaits ?? [:])
    }
}
