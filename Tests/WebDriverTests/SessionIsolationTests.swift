import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Nothing a session holds reaches another, whether the second comes from the warm pool after the
// first ended or runs beside it: cookies (script and HttpOnly), local and session storage,
// IndexedDB, the Cache API, service workers, the HTTP and memory caches, permissions, history,
// HTTP credentials, connections, BroadcastChannel and storage events, and pages left running.
// HSTS and TLS session caches need a certificate WebKit trusts, which a pooled (default) session
// cannot be given; like the rest of the network state they live in the session's own network
// process (docs/performance.md shows what a reused web context would keep).
@Suite("WebDriver sessions share no state", .serialized)
@EngineActor
struct SessionIsolationTests {
    // Every kind of state a page can read, as one JSON object.
    static let probe = """
        const done = arguments[arguments.length - 1];
        (async () => {
          const out = {cookie: document.cookie, local: localStorage.getItem('k'),
                       session: sessionStorage.getItem('k'), history: history.length, name: window.name};
          out.databases = (await indexedDB.databases()).map(d => d.name).sort();
          out.caches = (await caches.keys()).sort();
          out.workers = (await navigator.serviceWorker.getRegistrations()).length;
          out.controlled = !!navigator.serviceWorker.controller;
          out.swProbe = await (await fetch('/sw-probe')).text();
          out.notifications = typeof Notification === 'undefined' ? 'none' : Notification.permission;
          out.geolocation = (await navigator.permissions.query({name: 'geolocation'})).state;
          out.cached = performance.getEntriesByName(new URL('/cached.js', location).href)
            .map(e => e.transferSize > 0 ? 'network' : 'cache');
          return out;
        })().then(done, e => done('probe failed: ' + e));
        """

    // Stores something in every kind of state and leaves a beacon running.
    static let store = """
        const done = arguments[arguments.length - 1];
        (async () => {
          document.cookie = 'script=1; max-age=3600';
          localStorage.setItem('k', 'v');
          sessionStorage.setItem('k', 'v');
          await new Promise((resolve, reject) => {
            const open = indexedDB.open('isolation', 1);
            open.onupgradeneeded = () => open.result.createObjectStore('s');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const tx = open.result.transaction('s', 'readwrite');
              tx.objectStore('s').put('v', 'k');
              tx.oncomplete = () => { open.result.close(); resolve(); };
              tx.onerror = () => reject(tx.error);
            };
          });
          await (await caches.open('isolation')).put('/cache-key', new Response('v'));
          await navigator.serviceWorker.register('/sw.js');
          await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller) {
            await new Promise(r => navigator.serviceWorker.addEventListener('controllerchange', r, {once: true}));
          }
          try { await Notification.requestPermission(); } catch (_) {}
          await new Promise(r => navigator.geolocation.getCurrentPosition(r, r, {timeout: 1000}));
          window.name = 'first';
          setInterval(() => fetch('/beacon', {cache: 'no-store'}), 50);
          return 'stored';
        })().then(done, e => done('store failed: ' + e));
        """

    static func options(warm: Int) -> WebDriverService.Options {
        var options = WebDriverService.Options()
        options.warmBrowsers = warm
        options.maxSessions = 4
        return options
    }

    @Test func aSessionFromThePoolSeesNothingOfTheSessionBefore() async throws {
        let site = try IsolationSite()
        defer { site.stop() }
        let driver = WebDriverDriver(options: Self.options(warm: 1))
        defer { driver.service.shutdown() }
        let pool = driver.service.registry.pool
        await pool.waitUntilFull()
        let first = try await driver.newSession()
        #expect(pool.ready == 0, "the first session took the warm browser")
        try await go(driver, first, site, "page.html")
        let before = try await driver.send(.executeAsyncScript, first, ["script": .string(Self.probe), "args": []])
        try await go(driver, first, site, "cookie.html")
        // Credentials in the URL answer the challenge; the session then keeps them for the realm.
        try await go(driver, first, site, "auth", user: "u:p")
        try await go(driver, first, site, "auth")
        #expect(try await driver.send(.getTitle, first) == "authenticated", "the first session keeps its credentials")
        try await go(driver, first, site, "page.html")
        #expect(try await driver.send(.executeAsyncScript, first, ["script": .string(Self.store), "args": []])
            == "stored")
        _ = try await driver.script(first, "window.open('/page.html?popup'); return 1")
        let stored = try await driver.send(.executeAsyncScript, first, ["script": .string(Self.probe), "args": []])
        Self.expectEveryKindStored(stored, before: before)
        _ = try await driver.send(.deleteSession, first)
        await pool.waitUntilFull()
        // What the first session's pages still had in flight (the popup's script, seen arriving
        // after the session ended) is the first session's: counted once no request came for 300 ms.
        var firstRequests = site.requests.count
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(300))
            guard site.requests.count != firstRequests else { break }
            firstRequests = site.requests.count
        }
        let second = try await driver.newSession()
        #expect(pool.ready == 0, "the second session took the refilled warm browser")
        let beacons = site.requests(for: "/beacon").count
        try await go(driver, second, site, "page.html")
        let after = try await driver.send(.executeAsyncScript, second, ["script": .string(Self.probe), "args": []])
        #expect(after == before, "the second session sees what a fresh one does")
        let fetchedAgain = site.requests[firstRequests...].filter { $0.path == "/cached.js" }
        #expect(fetchedAgain.count == 1, "the second session fetched the cacheable script again")
        try await go(driver, second, site, "auth")
        #expect(try await driver.send(.getTitle, second) == "denied")
        #expect(Self.count(try await driver.send(.getWindowHandles, second)) == 1, "no window of the first session")
        try await Task.sleep(for: .milliseconds(300))
        #expect(site.requests(for: "/beacon").count == beacons, "the first session's pages stopped with it")
        let (one, two) = (Array(site.requests[..<firstRequests]), Array(site.requests[firstRequests...]))
        Self.expectNothingCarried(from: one, to: two.filter { $0.path != "/beacon" })
        _ = try await driver.send(.deleteSession, second)
    }

    @Test func twoSessionsOpenAtOnceShareNothing() async throws {
        let site = try IsolationSite()
        defer { site.stop() }
        let driver = WebDriverDriver(options: Self.options(warm: 2))
        defer { driver.service.shutdown() }
        await driver.service.registry.pool.waitUntilFull()
        let (one, two) = (try await driver.newSession(), try await driver.newSession())
        // The second session's requests, told apart by when they came: its commands run alone.
        var secondIndices: [Int] = []
        func second<T>(_ body: () async throws -> T) async throws -> T {
            let start = site.requests.count
            let result = try await body()
            let requests = site.requests
            secondIndices += (start..<requests.count).filter { requests[$0].path != "/beacon" }
            return result
        }
        try await go(driver, one, site, "page.html")
        try await second { try await go(driver, two, site, "page.html") }
        let before = try await second {
            try await driver.send(.executeAsyncScript, two, ["script": .string(Self.probe), "args": []])
        }
        _ = try await driver.script(two, """
            window.heard = [];
            new BroadcastChannel('isolation').onmessage = e => heard.push('message ' + e.data);
            addEventListener('storage', e => heard.push('storage ' + e.key));
            return 1
            """)
        try await go(driver, one, site, "cookie.html")
        try await go(driver, one, site, "auth", user: "u:p")
        try await go(driver, one, site, "page.html")
        #expect(try await driver.send(.executeAsyncScript, one, ["script": .string(Self.store), "args": []])
            == "stored")
        // The first session's own second listener hears the messages: the channel works.
        let echoed = try await driver.send(.executeAsyncScript, one, ["script": """
            const done = arguments[0], heard = [];
            new BroadcastChannel('isolation').onmessage = e => heard.push(e.data);
            const channel = new BroadcastChannel('isolation');
            for (let i = 0; i < 3; i++) channel.postMessage(i);
            localStorage.setItem('again', '1');
            setTimeout(() => done(heard), 300);
            """, "args": []])
        #expect(echoed == [0, 1, 2])
        let stored = try await driver.send(.executeAsyncScript, one, ["script": .string(Self.probe), "args": []])
        Self.expectEveryKindStored(stored, before: before)
        #expect(try await driver.script(two, "return window.heard") == [], "no message or storage event crossed")
        let after = try await second {
            try await driver.send(.executeAsyncScript, two, ["script": .string(Self.probe), "args": []])
        }
        #expect(after == before, "the second session still sees what it saw before the first stored anything")
        try await second { try await go(driver, two, site, "auth") }
        #expect(try await driver.send(.getTitle, two) == "denied")
        let requests = site.requests
        let firstRequests = requests.indices.filter { !secondIndices.contains($0) }.map { requests[$0] }
        #expect(!secondIndices.isEmpty)
        Self.expectNothingCarried(from: firstRequests, to: secondIndices.map { requests[$0] })
    }

    // Navigates the session to `path` on the site, with `user` (name:password) in the URL if given.
    func go(_ driver: WebDriverDriver, _ session: String, _ site: IsolationSite, _ path: String,
            user: String? = nil) async throws {
        let base = user.map { "http://\($0)@127.0.0.1:\(site.port)/" } ?? site.url.absoluteString
        _ = try await driver.send(.navigateTo, session, ["url": .string(base + path)])
    }

    static func count(_ value: JSONValue) -> Int? {
        if case .array(let items) = value { items.count } else { nil }
    }

    // The probe after `store` differs from `before` in every kind a page can read back.
    static func expectEveryKindStored(_ stored: JSONValue, before: JSONValue) {
        #expect(stored["cookie"] == "visible=1; script=1" || stored["cookie"] == "script=1; visible=1", "\(stored)")
        #expect(stored["local"] == "v" && stored["session"] == "v" && stored["name"] == "first", "\(stored)")
        #expect(stored["databases"] == ["isolation"] && stored["caches"] == ["isolation"], "\(stored)")
        #expect(stored["workers"] == 1 && stored["controlled"] == true && stored["swProbe"] == "from-sw", "\(stored)")
        #expect(before["workers"] == 0 && before["swProbe"] == "from-server" && before["databases"] == [], "\(before)")
        #expect(before["cookie"] == "" && before["local"] == .null && before["cached"] == ["network"], "\(before)")
    }

    // Requests of the second session carry none of the first's cookies or credentials, and come
    // on connections of their own.
    // What a page asks for on its own after its load (beacons, the page icon WebKit fetches) can
    // arrive while the other session's command runs, so when a request came cannot say whose it
    // was: those are left out.
    static func expectNothingCarried(from all: [IsolationSite.Request], to allSecond: [IsolationSite.Request]) {
        let late: Set = ["/beacon", "/favicon.ico"]
        let (first, second) = (all.filter { !late.contains($0.path) }, allSecond.filter { !late.contains($0.path) })
        #expect(first.contains { $0.path == "/auth" && $0.authorization != nil }, "the first session authenticated")
        #expect(first.contains { $0.cookie?.contains("server=1") == true }, "the first session sent its cookies")
        #expect(second.allSatisfy { $0.authorization == nil && $0.cookie == nil }, "\(second)")
        let shared = Set(first.map(\.connection)).intersection(second.map(\.connection))
        let seen = "first: \(first.map { "\($0.connection) \($0.path)" }), "
            + "second: \(second.map { "\($0.connection) \($0.path)" })"
        #expect(shared.isEmpty, "connections used by both sessions: \(shared); \(seen)")
    }
}
