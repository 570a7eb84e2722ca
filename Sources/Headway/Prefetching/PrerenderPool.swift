import CWebKit
import Foundation

// The booster's hidden web views (`BoosterConfiguration.prerender`): the likeliest next pages
// of the last finished load, loaded ahead through the prefetch cache, at most `capacity` at
// once, the least recently wanted ended first. A navigation to one of them takes its view.
@EngineActor
final class PrerenderPool {
    let capacity: Int
    // Least recently wanted first.
    private var prerenders: [Prerender] = []
    // How long a hidden page may take to load before it is ended.
    static let loadTimeout: Duration = .seconds(15)

    init(capacity: Int) {
        self.capacity = capacity
    }

    // Prerenders `urls` (real URLs, likeliest first; the first `capacity` of them), keeping
    // those already under way, and ends the least recently wanted beyond the capacity.
    func prerender(_ urls: [URL], browser: Browser) {
        prerenders.removeAll { $0.state == .discarded }
        for url in urls.prefix(capacity).reversed() {
            if let index = prerenders.firstIndex(where: { $0.url == url }) {
                prerenders.append(prerenders.remove(at: index))
            } else {
                prerenders.append(Prerender(url: url, browser: browser, loadTimeout: Self.loadTimeout))
            }
        }
        while prerenders.count > capacity { prerenders.removeFirst().discard() }
    }

    // Whether a ready prerender of `url` is there, and not older than the cache lets a
    // response stay fresh (an older one is ended).
    func hasReady(_ url: URL) -> Bool {
        for prerender in prerenders where prerender.url == url && prerender.state == .ready {
            if let readyAt = prerender.readyAt, readyAt.duration(to: Engine.now()) > CachePolicy.lifetimeCap {
                prerender.discard()
                continue
            }
            return true
        }
        return false
    }

    // The ready prerender of `url`, taken out of the pool, or nil.
    func take(_ url: URL) -> Prerender? {
        guard hasReady(url), let index = prerenders.firstIndex(where: { $0.url == url && $0.state == .ready }) else {
            return nil
        }
        return prerenders.remove(at: index)
    }

    // How many hidden pages are loading or ready.
    var count: Int { prerenders.filter { $0.state != .discarded }.count }

    // Waits until no hidden page is loading, at most `timeout` seconds.
    func settle(timeout: Duration) async {
        let deadline = Engine.now() + timeout.clamped
        for prerender in prerenders where prerender.state == .loading {
            let left = Engine.now().duration(to: deadline)
            guard left > .zero else { return }
            _ = try? await EngineWait<Void>.run(timeout: left, onTimeout: { .success(()) }, onCancel: {}) { wait in
                prerender.whenSettled { wait.resume(.success(())) }
            }
        }
    }

    // Ends every hidden page.
    func close() {
        for prerender in prerenders { prerender.discard() }
        prerenders.removeAll()
    }
}
