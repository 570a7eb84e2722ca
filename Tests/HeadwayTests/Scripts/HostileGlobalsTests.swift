import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A page that replaces JSON, Promise, Function.prototype.call and other globals cannot break
/// what Headway runs in it: snippets and their values, the timing figures, console and error
/// capture, selector waits and the booster's link extraction.
@Suite("Pages that replace JavaScript globals", .serialized)
@EngineActor
struct HostileGlobalsTests {
    static let hostile = """
        <!doctype html><html><head><title>Hostile</title><script>
        JSON.stringify = () => '"';
        JSON.parse = () => { throw 1; };
        const saved = { log: console.log, map: new Map([[1, 2]]) };
        Object.defineProperty(Array.prototype, 0, { set() { throw 24; }, configurable: true });
        const mirror = { get self() { console.log(mirror); return 1; } };
        console.log(mirror);
        Array.prototype[Symbol.iterator] = function () { throw 21; };
        String.prototype.slice = function () { throw 22; };
        Object.prototype.toString = function () { throw 23; };
        Object.defineProperty = () => { throw 2; };
        Object.keys = () => { throw 3; };
        Object.fromEntries = () => { throw 4; };
        Array.from = () => { throw 5; };
        Array.prototype.push = function () { throw 6; };
        Array.prototype.map = function () { throw 7; };
        Array.prototype.join = function () { throw 8; };
        String.prototype.split = function () { throw 9; };
        Function.prototype.call = function () { throw 10; };
        Function.prototype.apply = function () { throw 11; };
        Function.prototype.bind = function () { throw 12; };
        window.Promise = function () { throw 13; };
        window.WeakSet = function () { throw 14; };
        window.Map = function () { throw 15; };
        window.Set = function () { throw 16; };
        window.Error = function () { throw 17; };
        window.Symbol = function () { throw 18; };
        window.setTimeout = function () { throw 19; };
        Math.max = () => { throw 20; };
        saved.log('hello', { a: 1 }, [1, 'x'], saved.map);
        </script></head><body><a href="/second.html">next</a><p id="here">here</p>
        <script>missingFunction();</script></body></html>
        """

    @Test func snippetsAndFiguresSurviveReplacedGlobals() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/hostile.html", .html(Self.hostile))
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("hostile.html"))
            #expect(result.title == "Hostile")
            #expect(result.timing.loadEventEnd > 0)
            #expect(result.timing.domContentLoadedEventEnd > 0)
            // The arguments as remote values, read with the page's replaced built-ins left alone.
            let message = try #require(page.console.first { $0.text.hasPrefix("hello") }, "\(page.console)")
            #expect(message.text == "hello {\"a\":1} [1,\"x\"] {}" && message.method == "log")
            let one: JSONValue = ["type": "number", "value": 1]
            #expect(message.arguments == [
                ["type": "string", "value": "hello"], ["type": "object", "value": [["a", one]]],
                ["type": "array", "value": [one, ["type": "string", "value": "x"]]],
                ["type": "map", "value": [[one, ["type": "number", "value": 2]]]],
            ])
            #expect(page.errors.contains { $0.message.contains("missingFunction") }, "\(page.errors)")

            let plain = try await page.run(Snippet(file: "plain.js",
                                                   source: "({ title: document.title, list: [1, 'two', null] })"))
            #expect(plain.error == nil, "\(String(describing: plain.error))")
            #expect(plain.value == ["title": "Hostile", "list": [1, "two", nil]])
            let awaited = try await page.run(Snippet(file: "await.js",
                                                     source: "await null;\ndocument.querySelector('#here').id"))
            #expect(awaited.error == nil, "\(String(describing: awaited.error))")
            #expect(awaited.value == "here")
            let thrown = try await page.run(Snippet(file: "throws.js", source: "1;\nnull.x;"))
            #expect(thrown.error?.message.contains("TypeError") == true, "\(String(describing: thrown.error))")
            #expect(thrown.error?.line == 2)

            try await page.waitFor(selector: "#here", timeout: .seconds(10))
        }
    }

    @Test func theBoosterStillFindsTheLinksOfAHostilePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/hostile.html", .html(Self.hostile))
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        let browser = try Browser(configuration: configuration)
        defer { browser.close() }
        let page = try browser.newPage()
        let result = try await page.load(server.url.appendingPathComponent("hostile.html"))
        #expect(result.title == "Hostile")
        await browser.settlePrefetch(timeout: .seconds(20))
        #expect(browser.prefetchStats?.linksFound == 1, "\(String(describing: browser.prefetchStats))")
        #expect(server.requestCount(path: "/second.html") == 1)
    }
}
