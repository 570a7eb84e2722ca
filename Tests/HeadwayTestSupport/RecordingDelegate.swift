import Foundation
import Headway

/// A navigation delegate that writes down every callback, in order.
@EngineActor
public final class RecordingDelegate: NavigationDelegate {
    public private(set) var calls: [String] = []
    /// Navigations to URLs whose path is in here are cancelled.
    public var cancelPaths: Set<String> = []

    public init() {}

    public func page(_ page: Page, didStartNavigation url: URL) { calls.append("started \(url.path)") }
    public func page(_ page: Page, didRedirectNavigation url: URL) { calls.append("redirected \(url.path)") }
    public func page(_ page: Page, didCommitNavigation url: URL) { calls.append("committed \(url.path)") }
    public func page(_ page: Page, didFinishNavigation url: URL) { calls.append("finished \(url.path)") }
    public func page(_ page: Page, didFailNavigation url: URL?, error: HeadwayError) {
        calls.append("failed \(url?.path ?? "-")")
    }
    public func page(_ page: Page, decidePolicyFor action: NavigationAction) -> NavigationPolicy? {
        calls.append("policy \(action.kind.rawValue) \(action.url.path)")
        return cancelPaths.contains(action.url.path) ? .cancel : nil
    }
    public func page(_ page: Page, didStartLoadingResource url: URL, method: String) {
        calls.append("resource \(method) \(url.path)")
    }
    public func page(_ page: Page, webProcessDidTerminate reason: WebProcessTermination) {
        calls.append("terminated \(reason.rawValue)")
    }

    public func reset() { calls.removeAll() }
}
