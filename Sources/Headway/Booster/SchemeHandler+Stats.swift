import Foundation

// What the handler noted of each view's current load: how it answered (`PrefetchLoadStats`),
// which URLs came from the cache, and how long each request waited for its response headers.
extension SchemeHandler {
    func stats(forView view: UnsafeMutableRawPointer) -> PrefetchLoadStats {
        stats[UInt(bitPattern: view)] ?? PrefetchLoadStats()
    }

    func resetStats(forView view: UnsafeMutableRawPointer) {
        stats[UInt(bitPattern: view)] = nil
        servedFromCache[UInt(bitPattern: view)] = nil
        waits[UInt(bitPattern: view)] = nil
    }

    // How long each of the view's current load's requests waited for its response headers, in
    // ms, by URL.
    func responseWaits(forView view: UnsafeMutableRawPointer) -> [URL: Double] {
        waits[UInt(bitPattern: view)] ?? [:]
    }

    // Notes that `exchange` has its response headers now.
    func answered(_ exchange: Exchange) {
        guard waits[exchange.viewKey, default: [:]].count < NetworkActivity.keptRecords else { return }
        waits[exchange.viewKey, default: [:]][exchange.url] = Engine.now() - exchange.received
    }

    // The URLs the view's current load got from the prefetch cache.
    func cacheHits(forView view: UnsafeMutableRawPointer) -> Set<URL> {
        servedFromCache[UInt(bitPattern: view)] ?? []
    }
}
