import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `ScriptWorld.isolated`: globals of its own, and `headwayPage.call`, which runs a function body
/// in the page's world with DOM nodes crossing both ways, however the page replaced its globals.
@Suite("The isolated world and its bridge to the page", .serialized)
@EngineActor
struct IsolatedWorldTests {
    static let page = """
        <!doctype html><title>Worlds</title>
        <p id="a">first</p><p id="b">second</p><iframe srcdoc="<p id=inner>inner</p>"></iframe>
        <script>
        window.answer = 42;
        window.echo = (x) => x;
        </script>
        """

    // Replaces what a script in the page's world, or an atom, would reach for.
    static let hostile = page + """
        <script>
        Symbol.for = () => { throw 1; };
        Object.defineProperty = () => { throw 2; };
        Object.keys = () => { throw 3; };
        JSON.stringify = () => '"';
        JSON.parse = () => { throw 4; };
        Array.isArray = () => { throw 5; };
        Reflect.apply = () => { throw 6; };
        Promise.prototype.then = function () { throw 7; };
        window.Promise = function () { throw 8; };
        Object.defineProperty(Object.prototype, 'then', { get() { return undefined; }, configurable: true });
        Element.prototype.getBoundingClientRect = () => { throw 9; };
        document.querySelector = () => { throw 10; };
        window.getComputedStyle = () => { throw 11; };
        </script>
        """

    @Test(arguments: [false, true])
    func nodesCrossBothWays(hostile: Bool) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/worlds.html", .html(hostile ? Self.hostile : Self.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("worlds.html"))
            // The page's global is not the isolated world's.
            let own = try await page.callAsyncFunction("return typeof window.answer", in: .isolated)
            #expect(own == "undefined")
            let sum = try await page.callAsyncFunction("""
                const a = document.getElementById('a');
                const [value, back, list] = await headwayPage.call(
                  'return [window.answer + arguments[1], arguments[0], document.querySelectorAll("p")]', [a, 1]);
                return [value, back === a, list.length, list[1].id, list[1] === document.getElementById('b')];
                """, in: .isolated)
            #expect(sum == [43, true, 2, "b", true])
            let rect = try await page.callAsyncFunction(
                "return Math.round(document.getElementById('a').getBoundingClientRect().width) > 0", in: .isolated)
            #expect(rect == true)
        }
    }

    @Test func windowsErrorsAndAsyncScripts() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/worlds.html", .html(Self.page))
        server.route("/hostile.html", .html(Self.hostile))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("worlds.html"))
            let answers = try await page.callAsyncFunction("""
                const top = await headwayPage.call('return window', []);
                const frame = await headwayPage.call('return frames[0]', []);
                const late = await headwayPage.call('setTimeout(() => arguments[1](arguments[0] * 2), 10)', [21],
                                                    { async: true });
                const promised = await headwayPage.call('return new Promise((r) => setTimeout(() => r(7), 5))', []);
                let thrown = null, syntax = null;
                try { await headwayPage.call('throw new TypeError("nope")', []); } catch (e) { thrown = e.message; }
                try { await headwayPage.call('return )', []); } catch (e) { syntax = e.name; }
                return [top === window, frame === frames[0], late, promised, thrown, syntax];
                """, in: .isolated)
            #expect(answers == [true, true, 42, 7, "TypeError: nope", "SyntaxError"])
            try await page.load(server.url.appendingPathComponent("hostile.html"))
            // A plain value comes back as itself, whatever Object.prototype.then does.
            let two = try await page.callAsyncFunction("return await headwayPage.call('return 2', [])", in: .isolated)
            #expect(two == 2)
            let cyclic = try await page.callAsyncFunction("""
                try { await headwayPage.call('const o = {}; o.o = o; return o', []); return 'no error'; }
                catch (e) { return e.message; }
                """, in: .isolated)
            #expect(cyclic.stringValue?.contains("cyclic") == true, "\(cyclic)")
        }
    }

    @Test func theBridgeReachesFramesAndThePageCannotSeeIt() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/worlds.html", .html(Self.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("worlds.html"))
            let inner = try await page.callAsyncFunction("""
                const frame = frames[0];
                const node = await frame.headwayPage.call('return document.getElementById("inner")', []);
                return [node.textContent, node.ownerDocument === frame.document];
                """, in: .isolated)
            #expect(inner == ["inner", true])
            let seen = try await page.evaluate("typeof headwayPage + ' ' + Object.getOwnPropertyNames(window).filter("
                                               + "(n) => n.startsWith('headway')).length")
            #expect(seen == "undefined 0")
        }
    }

    @Test func aDocumentBackFromTheBackForwardCacheKeepsItsBridge() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/worlds.html", .html(Self.page))
        server.route("/other.html", .html("<title>Other</title><p id=a>other</p>"))
        try await Browser.withPage { page in
            let read = #"return (await headwayPage.call('return [document.title, document.getElementById("a")]', []))"#
                + ".map((v) => typeof v === 'string' ? v : v.textContent)"
            try await page.load(server.url.appendingPathComponent("worlds.html"))
            #expect(try await page.callAsyncFunction(read, in: .isolated) == ["Worlds", "first"])
            try await page.load(server.url.appendingPathComponent("other.html"))
            #expect(try await page.callAsyncFunction(read, in: .isolated) == ["Other", "other"])
            try await page.goBack()
            #expect(try await page.callAsyncFunction(read, in: .isolated) == ["Worlds", "first"])
        }
    }
}
