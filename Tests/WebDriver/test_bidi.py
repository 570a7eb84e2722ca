"""WebDriver BiDi through Selenium's own BiDi API (`webSocketUrl: true`): console and error logs,
browsing contexts and their events, scripts with remote values, and the protocol's errors.

Against WebKitWebDriver these are skipped: it refuses `webSocketUrl` (docs/webdriver-reference.md).
With WEBDRIVER_BROWSER=chromium the same tests check the suite against chromedriver.
"""
import base64
import json
import threading
import time
import unittest
import urllib.request

import support


def bidi_driver():
    """A session with `webSocketUrl: true`, as Selenium's `enable_bidi` asks for it."""
    return support.new_driver(webSocketUrl=True)


def chromium_differs(reason):
    """Skips the test with `reason` only against chromedriver (documented in docs/webdriver-reference.md)."""
    return unittest.skipIf(support.BROWSER == "chromium", f"chromedriver differs: {reason}")


def _get(event, key):
    """A field of an event's parameters, whether Selenium gives them as a dict or an object."""
    return event[key] if isinstance(event, dict) else getattr(event, key)


def wait_until(condition, within=10):
    """Polls `condition` until it is true, at most `within` seconds; returns its last value."""
    deadline = time.monotonic() + within
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


@unittest.skipIf(support.BROWSER == "webkit", "WebKitWebDriver refuses webSocketUrl")
class BiDiTests(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        cls.base = support.page_server()
        cls.driver = bidi_driver()

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()

    def setUp(self):
        self.context = self.driver.current_window_handle

    def test_new_session_gives_the_websocket_url(self):
        url = self.driver.caps.get("webSocketUrl")
        self.assertTrue(url.startswith("ws://"), url)
        self.assertIn(self.driver.session_id, url)

    def test_console_messages_and_errors_are_logged(self):
        messages, errors = [], []
        console = self.driver.script.add_console_message_handler(messages.append)
        error = self.driver.script.add_javascript_error_handler(errors.append)
        try:
            self.driver.get(f"{self.base}/bidi.html")
            self.assertTrue(wait_until(lambda: len(messages) >= 3 and errors), (messages, errors))
        finally:
            self.driver.script.remove_console_message_handler(console)
            self.driver.script.remove_javascript_error_handler(error)
        self.assertEqual([(m.method, m.level) for m in messages[:3]],
                         [("log", "info"), ("warn", "warn"), ("error", "error")])
        self.assertTrue(messages[0].text.startswith("logged 1"), messages[0].text)
        self.assertEqual(messages[0].source["context"], self.context)
        self.assertIn("thrown later", errors[0].text)
        self.assertEqual(errors[0].level, "error")

    def test_navigate_waits_and_reports_the_load(self):
        loads, started = [], []
        on_load = self.driver.browsing_context.add_event_handler("load", loads.append)
        on_start = self.driver.browsing_context.add_event_handler("navigation_started", started.append)
        try:
            result = self.driver.browsing_context.navigate(context=self.context, url=f"{self.base}/title.html",
                                                           wait="complete")
            self.assertEqual(self.driver.title, "Title page")
            self.assertTrue(wait_until(lambda: loads and started))
        finally:
            self.driver.browsing_context.remove_event_handler("load", on_load)
            self.driver.browsing_context.remove_event_handler("navigation_started", on_start)
        self.assertEqual(result["url"], f"{self.base}/title.html")
        self.assertEqual(loads[-1].url, f"{self.base}/title.html")
        self.assertEqual(loads[-1].context, self.context)
        self.assertEqual(loads[-1].navigation, result["navigation"])

    def test_requests_are_reported(self):
        sent, completed = [], []
        on_sent = self.driver.network.add_event_handler("before_request_sent", sent.append)
        on_completed = self.driver.network.add_event_handler("response_completed", completed.append)
        url = f"{self.base}/next.html"
        try:
            result = self.driver.browsing_context.navigate(context=self.context, url=url, wait="complete")
            documents = lambda events: [e for e in events if _get(e, "request")["url"] == url]
            self.assertTrue(wait_until(lambda: documents(completed)), completed)
        finally:
            self.driver.network.remove_event_handler("before_request_sent", on_sent)
            self.driver.network.remove_event_handler("response_completed", on_completed)
        request, response = documents(sent)[0], documents(completed)[0]
        self.assertEqual(_get(request, "request")["method"], "GET")
        self.assertEqual(_get(request, "navigation"), result["navigation"])
        self.assertEqual(_get(response, "response")["status"], 200)
        self.assertEqual(_get(response, "request")["request"], _get(request, "request")["request"])

    def test_cookies_set_read_and_delete(self):
        from selenium.webdriver.common.bidi.storage import BytesValue, CookieFilter, PartialCookie
        self.driver.get(f"{self.base}/title.html")
        storage = self.driver.storage
        storage.set_cookie(cookie=PartialCookie(name="bidi", value=BytesValue(BytesValue.TYPE_STRING, "one"),
                                                domain="127.0.0.1", path="/"))
        found = storage.get_cookies(filter=CookieFilter(name="bidi"))
        cookies = found["cookies"] if isinstance(found, dict) else found.cookies
        self.assertEqual([(_get(c, "name"), _get(_get(c, "value"), "value")) for c in cookies], [("bidi", "one")])
        # A cookie BiDi set is the page's and classic's too.
        self.assertIn("bidi=one", self.driver.execute_script("return document.cookie"))
        self.assertEqual(self.driver.get_cookie("bidi")["value"], "one")
        storage.delete_cookies(filter=CookieFilter(name="bidi"))
        self.assertIsNone(self.driver.get_cookie("bidi"))

    def test_actions_type_into_a_field(self):
        self.driver.get(f"{self.base}/form.html")
        field = self.driver.find_element("css selector", "input[type=text], input:not([type])")
        origin = {"type": "element", "element": {"sharedId": field.id}}
        self.driver.input.perform_actions(context=self.context, actions=[
            {"type": "pointer", "id": "mouse", "actions": [
                {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]},
            {"type": "key", "id": "keys", "actions": [
                {"type": "pause"}, {"type": "pause"}, {"type": "pause"},
                {"type": "keyDown", "value": "h"}, {"type": "keyUp", "value": "h"},
                {"type": "keyDown", "value": "i"}, {"type": "keyUp", "value": "i"}]},
        ])
        self.driver.input.release_actions(context=self.context)
        self.assertTrue(field.get_property("value").endswith("hi"), field.get_property("value"))

    def test_preload_scripts_run_before_the_page_and_send_messages(self):
        pinned = self.driver.script.pin("() => { window.preloaded = 'yes'; }")
        try:
            self.driver.get(f"{self.base}/bidi.html")
            # It ran at document start: the page's own script saw what it set.
            self.assertEqual(self.driver.execute_script("return window.sawPreload"), "yes")
        finally:
            self.driver.script.unpin(pinned)
        self.driver.get(f"{self.base}/title.html")
        self.assertIsNone(self.driver.execute_script("return window.preloaded"))

    def test_dom_mutations_come_through_a_channel(self):
        mutations = []
        handler = self.driver.script.add_dom_mutation_handler(mutations.append)
        try:
            self.driver.get(f"{self.base}/bidi.html")
            self.driver.execute_script("document.getElementById('p').setAttribute('data-x', 'changed')")
            self.assertTrue(wait_until(lambda: mutations), "no mutation arrived")
        finally:
            self.driver.script.remove_dom_mutation_handler(handler)
        mutation = mutations[0]
        self.assertEqual((_get(mutation, "attribute_name"), _get(mutation, "current_value")), ("data-x", "changed"))

    def test_locate_nodes_and_print(self):
        self.driver.get(f"{self.base}/find.html")
        located = self.driver.browsing_context.locate_nodes(context=self.context,
                                                            locator={"type": "css", "value": "p.item"})
        nodes = [n if isinstance(n, dict) else n.__dict__ for n in located]
        self.assertEqual(len(nodes), 3)
        self.assertEqual([n["sharedId"] for n in nodes],
                         [e.id for e in self.driver.find_elements("css selector", "p.item")])
        by_text = self.driver.browsing_context.locate_nodes(
            context=self.context, locator={"type": "innerText", "value": "two"})
        self.assertEqual(len(by_text), 1)
        with self.assertRaises(Exception):
            self.driver.browsing_context.locate_nodes(context=self.context, locator={"type": "css", "value": "p[["})
        pdf = base64.b64decode(self.driver.browsing_context.print(context=self.context))
        self.assertEqual(pdf[:5], b"%PDF-")

    def test_tree_create_and_close(self):
        created = self.driver.browsing_context.create(type="tab")
        try:
            ids = [info.context for info in self.driver.browsing_context.get_tree()]
            self.assertIn(created, ids)
            self.assertIn(self.context, ids)
            # The new context is a classic window too.
            self.assertIn(created, self.driver.window_handles)
        finally:
            self.driver.browsing_context.close(created)
        self.assertNotIn(created, [info.context for info in self.driver.browsing_context.get_tree()])

    def test_screenshots_are_clipped(self):
        import struct
        self.driver.browsing_context.navigate(context=self.context, url=f"{self.base}/title.html", wait="complete")
        # A red box 300 px down a long page, scrolled 100 px: in the viewport at (40, 200).
        box = self.driver.execute_script(
            "document.body.style.height = '3000px'; const d = document.createElement('div');"
            "d.style.cssText = 'position:absolute;left:40px;top:300px;width:100px;height:50px;background:red';"
            "document.body.append(d); scrollTo(0, 100); return d;")
        element = box.id

        def shot(clip, origin=None):
            return base64.b64decode(self.driver.browsing_context.capture_screenshot(
                context=self.context, clip=clip, origin=origin))

        def size(clip, origin=None):
            return struct.unpack(">II", shot(clip, origin)[16:24])  # the IHDR's width and height

        red = (255, 0, 0)
        png = shot({"type": "element", "element": {"sharedId": element}})
        self.assertEqual(struct.unpack(">II", png[16:24]), (100, 50))
        if support.BROWSER == "headway":  # chromedriver cuts a scrolled page's element clip 100 px off
            self.assertEqual([support.png_pixel(png, x, y) for x, y in ((0, 0), (99, 49), (50, 25))], [red] * 3)
        # A box in the viewport's coordinates, and the same place in the document's.
        png = shot({"type": "box", "x": 50, "y": 210, "width": 30, "height": 20})
        self.assertEqual(struct.unpack(">II", png[16:24]), (30, 20))
        self.assertEqual(support.png_pixel(png, 15, 10), red)
        png = shot({"type": "box", "x": 50, "y": 310, "width": 30, "height": 20}, "document")
        self.assertEqual(support.png_pixel(png, 15, 10), red)
        self.assertNotEqual(support.png_pixel(shot({"type": "box", "x": 50, "y": 310, "width": 30, "height": 20}),
                                              15, 10), red)  # 310 in the viewport is below the box
        with self.assertRaisesRegex(Exception, "unable to capture screen"):
            size({"type": "box", "x": -500, "y": -500, "width": 10, "height": 10})
        with self.assertRaisesRegex(Exception, "no such node|no such element"):
            size({"type": "element", "element": {"sharedId": "00000000-0000000000000000-1"}})

    def test_frames_are_contexts(self):
        self.driver.browsing_context.navigate(context=self.context, url=f"{self.base}/frames.html", wait="complete")
        # A frame of another origin (localhost, not 127.0.0.1) is listed but cannot be entered.
        other = self.base.replace("127.0.0.1", "localhost") + "/next.html"
        self.driver.execute_async_script(
            "const f = document.createElement('iframe'); f.onload = () => arguments[1](); f.src = arguments[0];"
            " document.body.append(f);", other)
        top = [info for info in self.driver.browsing_context.get_tree() if info.context == self.context][0]
        frames = {info.url.rsplit("/", 1)[-1]: info for info in top.children}
        self.assertEqual(list(frames), ["frame_a.html", "frame_b.html", "next.html"])
        a = frames["frame_a.html"]
        self.assertEqual([info.url.rsplit("/", 1)[-1] for info in a.children], ["frame_inner.html"])
        inner = a.children[0]
        # Scripts and locateNodes run in the frame named, in its realm.
        realms = set()
        for info, text in ((a, "frame a"), (inner, "inner frame"), (frames["frame_b.html"], "frame b")):
            result = self.driver.script._evaluate("document.getElementById('which').textContent",
                                                  {"context": info.context}, await_promise=False)
            self.assertEqual(result.result, {"type": "string", "value": text})
            realm = self.driver.script.get_realms(context=info.context)["realms"]
            self.assertEqual([(r["realm"], r["context"]) for r in realm], [(result.realm, info.context)])
            realms.add(result.realm)
            nodes = self.driver.browsing_context.locate_nodes(
                context=info.context, locator={"type": "css", "value": "#which"})
            self.assertEqual(len(nodes), 1)
        self.assertEqual(len(realms), 3)
        self.assertEqual(self.driver.script._evaluate("window", {"context": inner.context}, False).result,
                         {"type": "window", "value": {"context": inner.context}})
        # Limited depth, a frame as the root.
        self.assertIsNone(self.driver.browsing_context.get_tree(max_depth=1)[0].children[0].children)
        subtree = self.driver.browsing_context.get_tree(root=a.context)
        self.assertEqual(subtree[0].parent, self.context)
        self.assertEqual([info.context for info in subtree[0].children], [inner.context])
        if support.BROWSER == "headway":  # chromedriver enters it (docs/webdriver-reference.md)
            with self.assertRaisesRegex(Exception, "another origin"):
                self.driver.script._evaluate("1", {"context": frames["next.html"].context}, await_promise=False)
        # A frame navigates, and keeps its context.
        b = frames["frame_b.html"].context
        self.driver.browsing_context.navigate(context=b, url=f"{self.base}/next.html", wait="complete")
        result = self.driver.script._evaluate("document.getElementById('p').textContent", {"context": b}, False)
        self.assertEqual(result.result, {"type": "string", "value": "Second page"})
        with self.assertRaisesRegex(Exception, "invalid argument"):  # the spec closes top-level contexts only
            self.driver.browsing_context.close(a.context)
        # A frame gone is no context any more.
        self.driver.execute_script("document.getElementById('fa').remove()")
        with self.assertRaisesRegex(Exception, "no such frame"):
            self.driver.script._evaluate("1", {"context": inner.context}, await_promise=False)

    def test_user_contexts_keep_cookies_apart(self):
        from selenium.webdriver.common.bidi.storage import StorageKeyPartitionDescriptor
        user_context = self.driver.browser.create_user_context()
        try:
            self.assertEqual(set(self.driver.browser.get_user_contexts()), {"default", user_context})
            other = self.driver.browsing_context.create(type="tab", user_context=user_context)
            # A preload script for the user context runs in its windows only.
            preload = self.driver.script._add_preload_script("() => { window.marked = 'yes'; }",
                                                            user_contexts=[user_context])
            url = f"{self.base}/title.html"
            marked = {}
            for context, who in ((self.context, "default"), (other, "other")):
                self.driver.browsing_context.navigate(context=context, url=url, wait="complete")
                self.driver.script._evaluate(f"document.cookie = 'who={who}'", {"context": context}, False)
                marked[who] = self.driver.script._evaluate("typeof window.marked", {"context": context}, False).result
            self.driver.script._remove_preload_script(preload)
            self.assertEqual(marked, {"default": {"type": "string", "value": "undefined"},
                                      "other": {"type": "string", "value": "string"}})
            # So do extra headers for it.
            self.driver.network.set_extra_headers(
                headers=[{"name": "X-Which", "value": {"type": "string", "value": "other"}}],
                user_contexts=[user_context])
            try:
                sent = {}
                for context, who in ((self.context, "default"), (other, "other")):
                    echo = self.driver.script._evaluate(
                        "fetch('/echo').then(r => r.json()).then(h => h['x-which'] || 'none')",
                        {"context": context}, True).result
                    sent[who] = echo["value"]
                self.assertEqual(sent, {"default": "none", "other": "other"})
            finally:
                self.driver.network.set_extra_headers(headers=[], user_contexts=[user_context])
            for partition, who in ((None, "default"), (StorageKeyPartitionDescriptor(user_context=user_context), "other")):
                result = self.driver.storage.get_cookies(partition=partition)
                self.assertEqual([(c.name, c.value.value) for c in result.cookies], [("who", who)])
            tree = {info.context: info for info in self.driver.browsing_context.get_tree()}
            self.assertEqual((tree[self.context].user_context, tree[other].user_context), ("default", user_context))
            self.assertIn(tree[other].client_window, [w.client_window for w in self.driver.browser.get_client_windows()])
            # Classic commands in its window see its cookies.
            self.driver.switch_to.window(other)
            try:
                self.assertEqual([c["value"] for c in self.driver.get_cookies()], ["other"])
            finally:
                self.driver.switch_to.window(self.context)
        finally:
            self.driver.browser.remove_user_context(user_context)
        self.assertNotIn(user_context, self.driver.browser.get_user_contexts())
        self.assertNotIn(other, self.driver.window_handles)
        with self.assertRaisesRegex(Exception, "invalid argument"):
            self.driver.browser.remove_user_context("default")
        with self.assertRaisesRegex(Exception, "no such user context"):
            self.driver.browser.remove_user_context(user_context)

    def test_client_window_states(self):
        window = [info for info in self.driver.browsing_context.get_tree() if info.context == self.context][0]
        window = window.client_window
        before = [w for w in self.driver.browser.get_client_windows() if w.client_window == window][0]

        def state(value):
            info = self.driver.browser.set_client_window_state(window, value)
            return info if isinstance(info, dict) else vars(info)

        try:
            maximized = state("maximized")
            self.assertEqual(maximized["state"], "maximized")
            if support.BROWSER == "headway":  # a screen's size; headless Chromium keeps the window's
                self.assertEqual((maximized["width"], maximized["height"]), (1920, 1080))
            normal = state({"state": "normal", "width": 800, "height": 600})
            self.assertEqual((normal["state"], normal["width"], normal["height"]), ("normal", 800, 600))
            self.assertEqual(state("minimized")["state"], "minimized")
            self.assertEqual(self.driver.execute_script("return document.visibilityState"), "hidden")
            self.assertEqual(state("normal")["state"], "normal")
            self.assertEqual(self.driver.execute_script("return document.visibilityState"), "visible")
        finally:
            state({"state": "normal", "width": before.width, "height": before.height})

    def test_screenshot_is_a_png(self):
        self.driver.get(f"{self.base}/title.html")
        data = base64.b64decode(self.driver.browsing_context.capture_screenshot(context=self.context))
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")

    def test_scripts_serialize_remote_values(self):
        self.driver.get(f"{self.base}/bidi.html")
        run = self.driver.script.execute
        self.assertEqual(run("(a, b) => a * b", 6, 7), {"type": "number", "value": 42})
        self.assertEqual(run("() => [NaN, -0, null, undefined, 'x']")["value"],
                         [{"type": "number", "value": "NaN"}, {"type": "number", "value": "-0"},
                          {"type": "null"}, {"type": "undefined"}, {"type": "string", "value": "x"}])
        self.assertEqual(run("() => new Map([['k', 1]])"),
                         {"type": "map", "value": [["k", {"type": "number", "value": 1}]]})
        self.assertEqual(run("async () => { await null; return 'later'; }"), {"type": "string", "value": "later"})
        node = run("() => document.getElementById('p')")
        self.assertEqual(node["type"], "node")
        self.assertEqual(node["value"]["localName"], "p")
        # The node's sharedId is the classic element reference, both ways.
        element = self.driver.find_element("id", "p")
        self.assertEqual(node["sharedId"], element.id)
        raw = self.driver.script.call_function(function_declaration="(e) => e.className", await_promise=True,
                                               target={"context": self.context},
                                               arguments=[{"sharedId": node["sharedId"]}])
        self.assertEqual(raw["result"], {"type": "string", "value": "para"})

    @chromium_differs("on this page its classic Find Element fails (deepSerializedValue missing)")
    def test_a_hostile_page_cannot_break_scripts(self):
        self.driver.get(f"{self.base}/bidi_hostile.html")
        target = {"context": self.context}
        raw = self.driver.script.evaluate(expression="1 + 2", target=target, await_promise=False)
        self.assertEqual(raw["result"], {"type": "number", "value": 3})
        raw = self.driver.script.evaluate(expression="Promise.resolve(4)", target=target, await_promise=True)
        self.assertEqual(raw["result"], {"type": "number", "value": 4})
        node = self.driver.find_element("id", "p")
        raw = self.driver.script.call_function(
            function_declaration="(o, e) => [o.x, e.id]", await_promise=False, target=target,
            arguments=[{"type": "object", "value": [["x", {"type": "number", "value": 5}]]}, {"sharedId": node.id}])
        self.assertEqual(raw["result"]["value"], [{"type": "number", "value": 5}, {"type": "string", "value": "p"}])
        raw = self.driver.script.evaluate(expression="({a: [1]})", target=target, await_promise=False)
        self.assertEqual(raw["result"], {"type": "object", "value": [["a", {"type": "array", "value": [
            {"type": "number", "value": 1}]}]]})

    def test_exceptions_are_results_not_errors(self):
        self.driver.get(f"{self.base}/title.html")
        raw = self.driver.script.evaluate(expression="throw new RangeError('out')", target={"context": self.context},
                                          await_promise=False)
        self.assertEqual(raw["type"], "exception")
        self.assertIn("out", raw["exceptionDetails"]["text"])
        raw = self.driver.script.evaluate(expression="var q = 20; q + 1", target={"context": self.context},
                                          await_promise=False)
        self.assertEqual(raw["result"], {"type": "number", "value": 21})


@unittest.skipIf(support.BROWSER == "webkit", "WebKitWebDriver refuses webSocketUrl")
class BiDiProtocolTests(unittest.TestCase):
    """The wire itself, through websocket-client (Selenium's own dependency)."""

    @classmethod
    def setUpClass(cls):
        cls.driver = bidi_driver()
        cls.url = cls.driver.caps["webSocketUrl"]

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def connect(self):
        import websocket
        return websocket.create_connection(self.url, timeout=30, suppress_origin=True)

    def exchange(self, socket, message):
        """Sends `message` and returns its answer (events and earlier commands' answers skipped)."""
        socket.send(message if isinstance(message, str) else json.dumps(message))
        wanted = message.get("id") if isinstance(message, dict) else None
        while True:
            answer = json.loads(socket.recv())
            if answer.get("type") != "event" and answer.get("id") in (wanted, None):
                return answer

    def test_realms_follow_documents(self):
        socket = self.connect()
        try:
            base = support.page_server()
            context = self.driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {
                "events": ["script.realmCreated", "script.realmDestroyed"], "contexts": [context]}})
            realms = self.exchange(socket, {"id": 2, "method": "script.getRealms", "params": {"context": context}})
            old = realms["result"]["realms"][0]["realm"]
            socket.send(json.dumps({"id": 3, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
            seen = []
            while True:
                message = json.loads(socket.recv())
                if message.get("type") == "event":
                    seen.append((message["method"], message["params"]))
                elif message.get("id") == 3:
                    break
            methods = [method for method, _ in seen]
            self.assertIn("script.realmDestroyed", methods)
            destroyed = [params for method, params in seen if method == "script.realmDestroyed"]
            self.assertIn(old, [params["realm"] for params in destroyed])
            created = [params for method, params in seen if method == "script.realmCreated"
                       and params.get("origin") == base]
            self.assertTrue(created, seen)
            self.assertEqual((created[-1]["type"], created[-1]["context"]), ("window", context))
            realms = self.exchange(socket, {"id": 4, "method": "script.getRealms", "params": {"context": context}})
            self.assertEqual(realms["result"]["realms"][0]["realm"], created[-1]["realm"])
            # A new document is a new realm; the old one is gone.
            self.assertNotEqual(created[-1]["realm"], old)
            answer = self.exchange(socket, {"id": 5, "method": "script.evaluate", "params": {
                "expression": "document.title", "target": {"realm": created[-1]["realm"]}, "awaitPromise": False}})
            self.assertEqual((answer["result"]["result"]["value"], answer["result"]["realm"]),
                             ("Title page", created[-1]["realm"]))
            answer = self.exchange(socket, {"id": 6, "method": "script.evaluate", "params": {
                "expression": "1", "target": {"realm": old}, "awaitPromise": False}})
            self.assertEqual(answer.get("error"), "no such frame", answer)
        finally:
            socket.close()

    def test_channels_shared_objects_and_children(self):
        socket = self.connect()
        try:
            context = self.driver.current_window_handle
            # A page that logs nothing (the session keeps what a page logged for a later subscriber),
            # with no eval, whose globals a function sees as they are.
            self.driver.get(f"{support.page_server()}/csp.html")
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {"events": ["script.message"]}})
            channel = {"type": "channel", "value": {"channel": "c1", "serializationOptions": {"maxObjectDepth": 1}}}
            socket.send(json.dumps({"id": 2, "method": "script.callFunction", "params": {
                "functionDeclaration": "(send, x) => { send({a: {b: x}}); return 1; }", "awaitPromise": False,
                "target": {"context": context}, "arguments": [channel, {"type": "number", "value": 7}]}}))
            message = None
            for _ in range(20):
                answer = json.loads(socket.recv())
                if answer.get("method") == "script.message":
                    message = answer["params"]
                    break
            self.assertEqual((message["channel"], message["data"]),
                             ("c1", {"type": "object", "value": [["a", {"type": "object"}]]}), message)
            self.assertEqual(message["source"]["context"], context)
            answer = self.exchange(socket, {"id": 7, "method": "script.callFunction", "params": {
                "functionDeclaration": "() => [serialize, post, channel].join()", "awaitPromise": False,
                "target": {"context": context}}})
            self.assertEqual(answer["result"]["result"], {"type": "string", "value": "page,page,page"}, answer)
            # One object met twice: both places name it by one internalId, the second without a value.
            answer = self.exchange(socket, {"id": 3, "method": "script.callFunction", "params": {
                "functionDeclaration": "() => { const o = {k: 1}; return [o, o, {}]; }", "target": {"context": context},
                "awaitPromise": False}})
            first, second, other = answer["result"]["result"]["value"]
            self.assertEqual(first["internalId"], second["internalId"])
            self.assertEqual(second, {"type": "object", "internalId": first["internalId"]})
            self.assertNotIn("internalId", other)
            # maxDomDepth 1: the element's children, each with a sharedId and no children of its own.
            answer = self.exchange(socket, {"id": 4, "method": "script.callFunction", "params": {
                "functionDeclaration": "() => document.body", "target": {"context": context}, "awaitPromise": False,
                "serializationOptions": {"maxDomDepth": 1}}})
            body = answer["result"]["result"]["value"]
            self.assertEqual(len(body["children"]), body["childNodeCount"])
            self.assertTrue(all("sharedId" in child and "children" not in child["value"] for child in body["children"]))
            # A malformed local value is refused before anything runs.
            for bad in [42, {"type": "channel", "value": {"channel": 1}}, {"type": "array", "value": [1]}]:
                answer = self.exchange(socket, {"id": 5, "method": "script.callFunction", "params": {
                    "functionDeclaration": "(x) => x", "awaitPromise": False, "target": {"context": context},
                    "arguments": [bad]}})
                self.assertEqual(answer.get("error"), "invalid argument", answer)
            self.exchange(socket, {"id": 6, "method": "session.unsubscribe", "params": {"events": ["script.message"]}})
        finally:
            socket.close()
            # The class's later tests evaluate expressions, which the CSP page refuses.
            self.driver.get(f"{support.page_server()}/title.html")

    @chromium_differs("chromedriver sends no navigationAborted for a navigation the page replaced")
    def test_a_navigation_superseded_before_commit_is_aborted(self):
        socket = self.connect()
        try:
            base = support.page_server()
            context = self.driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {
                "events": ["browsingContext.navigationStarted", "browsingContext.navigationAborted"],
                "contexts": [context]}})
            self.driver.get(f"{base}/title.html")
            # The page starts a navigation to a slow page, then another before the first commits.
            # Not waited for: the events may come before its answer.
            socket.send(json.dumps({"id": 2, "method": "script.evaluate", "params": {
                "expression": f"location.href = '{base}/slow?=3'; setTimeout(() => location.href = '{base}/next.html', 300)",
                "awaitPromise": False, "target": {"context": context}}}))
            seen = self.events_until(socket, "browsingContext.navigationAborted")
            started = [m["params"] for m in seen if m.get("method") == "browsingContext.navigationStarted"]
            aborted = seen[-1]["params"]
            self.assertEqual((aborted["context"], aborted["url"]), (context, f"{base}/slow?=3"))
            self.assertIn(aborted["navigation"], [s["navigation"] for s in started if s["url"] == f"{base}/slow?=3"])
        finally:
            socket.close()

    def test_a_cookie_value_may_be_base64(self):
        socket = self.connect()
        try:
            base = support.page_server()
            self.driver.get(f"{base}/title.html")
            answer = self.exchange(socket, {"id": 1, "method": "storage.setCookie", "params": {"cookie": {
                "name": "b64", "domain": "127.0.0.1", "path": "/",
                "value": {"type": "base64", "value": base64.b64encode(b"from base64").decode()}}}})
            self.assertEqual(answer["type"], "success", answer)
            self.assertEqual(self.driver.get_cookie("b64")["value"], "from base64")
            answer = self.exchange(socket, {"id": 2, "method": "storage.setCookie", "params": {"cookie": {
                "name": "bad", "domain": "127.0.0.1", "value": {"type": "base64", "value": "!!not base64"}}}})
            # The spec's error; chromedriver answers "unknown error".
            self.assertEqual(answer["error"], "unknown error" if support.BROWSER == "chromium" else "invalid argument")
            self.driver.delete_cookie("b64")
        finally:
            socket.close()

    def test_handles_name_objects_until_disowned(self):
        socket = self.connect()
        base = support.page_server()
        context = self.driver.current_window_handle
        target = {"context": context}

        def call(ident, function, arguments=(), this=None, ownership="root"):
            params = {"functionDeclaration": function, "arguments": list(arguments), "target": target,
                      "awaitPromise": False, "resultOwnership": ownership}
            if this is not None:
                params["this"] = this
            return self.exchange(socket, {"id": ident, "method": "script.callFunction", "params": params})

        try:
            self.exchange(socket, {"id": 1, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}})
            # The page's own Map methods, Uint8Array and Object.prototype changed: the handles still work.
            call(2, "() => { Map.prototype.get = () => 'page'; Map.prototype.set = () => {}; "
                    "window.Uint8Array = function() { throw new Error('no'); }; Object.prototype.type = 'x'; }",
                 ownership="none")
            if support.BROWSER == "headway":  # the table opens to Headway's key only
                answer = call(20, "() => __headwayPristine.handles('a guess') === null", ownership="none")
                self.assertEqual(answer["result"]["result"], {"type": "boolean", "value": True})
            answer = call(3, "() => ({ a: 1 })")
            handle = answer["result"]["result"]["handle"]
            self.assertEqual(answer["result"]["result"]["value"], [["a", {"type": "number", "value": 1}]])
            self.assertNotIn("handle", call(4, "() => 5")["result"]["result"])  # no handle for a primitive
            self.assertNotIn("handle", call(5, "() => ({})", ownership="none")["result"]["result"])
            answer = call(6, "function(o) { return this.a + o.a; }", [{"handle": handle}], this={"handle": handle})
            self.assertEqual(answer["result"]["result"], {"type": "number", "value": 2})
            answer = self.exchange(socket, {"id": 7, "method": "script.disown", "params": {
                "handles": [handle], "target": target}})
            self.assertEqual(answer["type"], "success", answer)
            self.assertEqual(call(8, "(o) => o", [{"handle": handle}]).get("error"), "no such handle")
            # A handle goes with its document.
            handle = call(9, "() => document.body")["result"]["result"]["handle"]
            self.exchange(socket, {"id": 10, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/next.html", "wait": "complete"}})
            self.assertEqual(call(11, "(o) => o", [{"handle": handle}]).get("error"), "no such handle")
        finally:
            socket.close()

    def test_a_file_picker_is_reported_and_cancelled(self):
        socket = self.connect()
        base = support.page_server()
        context = self.driver.current_window_handle
        try:
            self.exchange(socket, {"id": 1, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/files.html", "wait": "complete"}})
            self.exchange(socket, {"id": 2, "method": "session.subscribe", "params": {
                "events": ["input.fileDialogOpened"]}})
            self.exchange(socket, {"id": 3, "method": "script.evaluate", "params": {
                "expression": "window.cancelled = false; one.addEventListener('cancel', () => { window.cancelled = true; })",
                "target": {"context": context}, "awaitPromise": False}})
            node = self.exchange(socket, {"id": 4, "method": "browsingContext.locateNodes", "params": {
                "context": context, "locator": {"type": "css", "value": "#one"}}})["result"]["nodes"][0]
            socket.send(json.dumps({"id": 5, "method": "input.performActions", "params": {
                "context": context, "actions": [{"type": "pointer", "id": "mouse", "actions": [
                    {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": {
                        "sharedId": node["sharedId"]}}},
                    {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]}}))
            event = None
            while event is None:
                message = json.loads(socket.recv())
                if message.get("method") == "input.fileDialogOpened":
                    event = message["params"]
            self.assertEqual((event["context"], event["multiple"]), (context, False))
            self.exchange(socket, {"id": 6, "method": "session.unsubscribe", "params": {
                "events": ["input.fileDialogOpened"]}})
            if support.BROWSER == "headway":  # Headway closes the picker at once, as a user's cancel
                cancelled = wait_until(lambda: self.driver.execute_script("return window.cancelled"), within=5)
                self.assertTrue(cancelled)
        finally:
            socket.close()

    def test_sandboxes_share_the_dom_not_the_globals(self):
        socket = self.connect()
        base = support.page_server()
        context = self.driver.current_window_handle

        def run(ident, expression, target):
            answer = self.exchange(socket, {"id": ident, "method": "script.evaluate", "params": {
                "expression": expression, "target": target, "awaitPromise": False}})
            self.assertEqual(answer["type"], "success", answer)
            return answer["result"]

        try:
            self.exchange(socket, {"id": 1, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}})
            self.exchange(socket, {"id": 2, "method": "session.subscribe", "params": {
                "events": ["script.realmCreated"], "contexts": [context]}})
            sandbox = {"context": context, "sandbox": "tools"}
            socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
                "expression": "window.secret = 'kept'; document.title", "target": sandbox, "awaitPromise": False}}))
            created = []
            while True:
                message = json.loads(socket.recv())
                if message.get("method") == "script.realmCreated":
                    created.append(message["params"])
                elif message.get("id") == 3:
                    result = message["result"]
                    break
            self.assertEqual(result["result"], {"type": "string", "value": "Title page"})
            self.assertEqual([(c["realm"], c.get("sandbox"), c["origin"]) for c in created if c.get("sandbox")],
                             [(result["realm"], "tools", base)])
            page = run(4, "typeof window.secret", {"context": context})
            self.assertEqual(page["result"]["value"], "undefined")
            self.assertNotEqual(page["realm"], result["realm"])
            # The sandbox's realm is listed, and names it again.
            realms = self.exchange(socket, {"id": 5, "method": "script.getRealms", "params": {"context": context}})
            listed = [r for r in realms["result"]["realms"] if r.get("sandbox") == "tools"]
            self.assertEqual([r["realm"] for r in listed], [result["realm"]])
            again = run(6, "window.secret", {"realm": result["realm"]})
            self.assertEqual(again["result"]["value"], "kept")
            # A node crosses from the sandbox to the page's realm by its sharedId.
            node = run(7, "document.getElementById('h')", sandbox)["result"]
            answer = self.exchange(socket, {"id": 8, "method": "script.callFunction", "params": {
                "functionDeclaration": "(el) => el.textContent", "arguments": [{"sharedId": node["sharedId"]}],
                "target": {"context": context}, "awaitPromise": False}})
            self.assertEqual(answer["result"]["result"]["value"], "Hello")
            # A page that breaks its own built-ins leaves the sandbox's alone.
            run(9, "JSON.stringify = () => 'page'; Array.prototype.map = null; const d = document.createElement('div');"
                   " d.id = '__headwayPristine'; document.body.append(d); 0", {"context": context})
            self.assertEqual(run(10, "JSON.stringify([1].map(x => x + 1))", sandbox)["result"]["value"], "[2]")
            # A new document has a new sandbox of that name.
            self.exchange(socket, {"id": 11, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/next.html", "wait": "complete"}})
            fresh = run(12, "typeof window.secret", sandbox)
            self.assertEqual(fresh["result"]["value"], "undefined")
            self.assertNotEqual(fresh["realm"], result["realm"])
        finally:
            socket.close()

    def test_errors_are_answered(self):
        socket = self.connect()
        try:
            self.assertEqual(self.exchange(socket, "not json")["error"], "invalid argument")
            answer = self.exchange(socket, {"id": 1, "method": "nope.nothing", "params": {}})
            self.assertEqual((answer["id"], answer["error"]), (1, "unknown command"))
            answer = self.exchange(socket, {"id": 2, "method": "browsingContext.navigate",
                                            "params": {"context": "none", "url": "about:blank"}})
            self.assertEqual((answer["id"], answer["error"]), (2, "no such frame"))
            answer = self.exchange(socket, {"id": 3, "method": "session.subscribe", "params": {"events": ["no.such"]}})
            self.assertEqual(answer["error"], "invalid argument")
            answer = self.exchange(socket, {"id": 4, "method": "session.status", "params": {}})
            self.assertEqual((answer["id"], answer["type"]), (4, "success"))
            if support.BROWSER == "headway":  # as Firefox; chromedriver closes the browser
                answer = self.exchange(socket, {"id": 5, "method": "browser.close", "params": {}})
                self.assertEqual(answer["error"], "unsupported operation")
        finally:
            socket.close()

    def test_javascript_urls_and_history_deltas_answer(self):
        socket = self.connect()
        try:
            base = support.page_server()
            context = self.driver.current_window_handle
            for i, page in enumerate(["/title.html", "/next.html"]):
                self.exchange(socket, {"id": 20 + i, "method": "browsingContext.navigate", "params": {
                    "context": context, "url": base + page, "wait": "complete"}})
            # A javascript: URL runs in the document and is answered at once, with no navigation.
            answer = self.exchange(socket, {"id": 30, "method": "browsingContext.navigate", "params": {
                "context": context, "url": "javascript:void(document.title = 'ran')", "wait": "complete"}})
            self.assertEqual(answer["result"], {"navigation": None, "url": base + "/next.html"})
            self.assertEqual(wait_until(lambda: self.driver.title == "ran"), True)
            # A delta out of range is refused before the page moves.
            answer = self.exchange(socket, {"id": 31, "method": "browsingContext.traverseHistory", "params": {
                "context": context, "delta": -1000}})
            self.assertEqual(answer["error"], "no such history entry")
            self.assertEqual(self.driver.current_url, base + "/next.html")
            answer = self.exchange(socket, {"id": 32, "method": "browsingContext.traverseHistory", "params": {
                "context": context, "delta": -1}})
            self.assertEqual(answer["type"], "success")
            self.assertEqual(self.driver.current_url, base + "/title.html")
        finally:
            socket.close()

    def test_a_promise_that_never_settles_holds_only_its_own_command(self):
        socket = self.connect()
        try:
            context = self.driver.current_window_handle
            socket.send(json.dumps({"id": 40, "method": "script.evaluate", "params": {
                "expression": "new Promise(() => {})", "target": {"context": context}, "awaitPromise": True}}))
            # Answered while the first waits: within 10 s, where the script timeout is 30 s.
            socket.settimeout(10)
            answer = self.exchange(socket, {"id": 41, "method": "script.evaluate", "params": {
                "expression": "1 + 1", "target": {"context": context}, "awaitPromise": False}})
            self.assertEqual(answer["result"]["result"], {"type": "number", "value": 2})
            answer = self.exchange(socket, {"id": 42, "method": "browsingContext.getTree", "params": {}})
            self.assertEqual(answer["type"], "success")
            self.assertEqual(self.driver.title, self.driver.execute_script("return document.title"))
        finally:
            socket.close()

    def test_log_entries_before_a_subscription_are_kept_within_bounds(self):
        socket = self.connect()
        try:
            context = self.driver.current_window_handle
            # What earlier tests logged unsubscribed goes to a first subscription, ended at once.
            for number, method in ((48, "session.subscribe"), (49, "session.unsubscribe")):
                self.exchange(socket, {"id": number, "method": method, "params": {"events": ["log.entryAdded"]}})
            # 1,100 entries and one of 2 MB while nothing is subscribed: the newest 1,000 are kept,
            # and the large one is not (a window keeps at most 1 MiB of them).
            self.driver.execute_script(
                "for (let i = 0; i < 1100; i++) console.log('entry ' + i); console.log('x'.repeat(2000000));")
            time.sleep(2)  # the page's messages reach the server (any still on their way come live below)
            socket.send(json.dumps({"id": 50, "method": "session.subscribe",
                                    "params": {"events": ["log.entryAdded"]}}))
            texts, kept = [], None
            while "entry 1099" not in texts:
                message = json.loads(socket.recv())
                if message.get("id") == 50:
                    kept = list(texts)
                elif message.get("method") == "log.entryAdded" and message["params"]["source"]["context"] == context:
                    texts.append(message["params"]["text"])
            kept = texts if kept is None else kept
            self.assertLessEqual(len(kept), 1000)
            self.assertNotIn("x" * 2000000, kept)
            first = 1100 - len(texts)
            self.assertEqual(texts, [f"entry {i}" for i in range(first, 1100)])
            if "entry 1099" in kept:  # all had come: the newest 1,000
                self.assertEqual(first, 100)
            # Sent once: a second subscription gets none of them.
            answer = self.exchange(socket, {"id": 51, "method": "session.subscribe", "params": {
                "events": ["log.entryAdded"]}})
            self.assertEqual(answer["type"], "success")
            self.exchange(socket, {"id": 52, "method": "session.unsubscribe", "params": {
                "subscriptions": [answer["result"]["subscription"]]}})
        finally:
            socket.close()

    def test_many_commands_unread_then_read(self):
        socket = self.connect()
        try:
            count = 2000
            sender = threading.Thread(target=lambda: [socket.send(json.dumps(
                {"id": i, "method": "session.status", "params": {}})) for i in range(count)])
            sender.start()
            time.sleep(1)  # the server stops reading while answers wait; the sender blocks, not the server
            ids = set()
            while len(ids) < count:
                ids.add(json.loads(socket.recv())["id"])
            sender.join(30)
            self.assertEqual(len(ids), count)
        finally:
            socket.close()

    def test_a_bidi_only_session(self):
        import websocket
        from urllib.parse import urlsplit
        parts = urlsplit(self.url)
        socket = websocket.create_connection(f"ws://{parts.netloc}/session", timeout=60, suppress_origin=True)
        try:
            answer = self.exchange(socket, {"id": 1, "method": "browsingContext.getTree", "params": {}})
            self.assertEqual(answer["error"], "invalid session id")
            answer = self.exchange(socket, {"id": 2, "method": "session.new", "params": {"capabilities": {
                "alwaysMatch": support.options().to_capabilities()}}})
            self.assertEqual(answer["type"], "success", answer)
            self.assertTrue(answer["result"]["sessionId"])
            contexts = self.exchange(socket, {"id": 3, "method": "browsingContext.getTree", "params": {}})
            context = contexts["result"]["contexts"][0]["context"]
            base = support.page_server()
            answer = self.exchange(socket, {"id": 4, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}})
            self.assertEqual(answer["result"]["url"], f"{base}/title.html")
            answer = self.exchange(socket, {"id": 5, "method": "script.evaluate", "params": {
                "expression": "document.title", "target": {"context": context}, "awaitPromise": False}})
            self.assertEqual(answer["result"]["result"], {"type": "string", "value": "Title page"})
            self.assertEqual(self.exchange(socket, {"id": 6, "method": "session.end", "params": {}})["type"], "success")
        finally:
            socket.close()
        # browser.close ends a session session.new began, as session.end does, and the connection.
        socket = websocket.create_connection(f"ws://{parts.netloc}/session", timeout=60, suppress_origin=True)
        try:
            answer = self.exchange(socket, {"id": 1, "method": "session.new", "params": {"capabilities": {
                "alwaysMatch": support.options().to_capabilities()}}})
            self.assertEqual(answer["type"], "success", answer)
            self.assertEqual(self.exchange(socket, {"id": 2, "method": "browser.close", "params": {}})["type"], "success")
            try:
                self.assertEqual(socket.recv(), "")  # closed by a close frame (Headway)
            except websocket.WebSocketConnectionClosedException:
                pass  # or dropped (chromedriver)
        finally:
            socket.close()

    def test_a_looping_preload_script_is_bounded_by_the_script_timeout(self):
        import websocket
        from urllib.parse import urlsplit
        # The socket's 60 s bound is the test's: far below the pageLoad timeout (300 s) the
        # navigation would otherwise hold the session for.
        socket = websocket.create_connection(f"ws://{urlsplit(self.url).netloc}/session", timeout=60,
                                             suppress_origin=True)
        try:
            capabilities = dict(support.options().to_capabilities(), timeouts={"script": 1000})
            answer = self.exchange(socket, {"id": 1, "method": "session.new", "params": {"capabilities": {
                "alwaysMatch": capabilities}}})
            self.assertEqual(answer["type"], "success", answer)
            tree = self.exchange(socket, {"id": 2, "method": "browsingContext.getTree", "params": {}})
            context = tree["result"]["contexts"][0]["context"]
            added = self.exchange(socket, {"id": 3, "method": "script.addPreloadScript", "params": {
                "functionDeclaration": "() => { for (;;) {} }"}})
            base = support.page_server()
            answer = self.exchange(socket, {"id": 4, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}})
            self.assertEqual(answer.get("error"), "unknown error", answer)
            self.assertIn("script timeout", answer["message"])
            # The session goes on: without the script, the next navigation loads.
            self.exchange(socket, {"id": 5, "method": "script.removePreloadScript", "params": {
                "script": added["result"]["script"]}})
            answer = self.exchange(socket, {"id": 6, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}})
            self.assertEqual(answer["result"]["url"], f"{base}/title.html", answer)
            self.assertEqual(self.exchange(socket, {"id": 7, "method": "session.end", "params": {}})["type"], "success")
        finally:
            socket.close()

    @chromium_differs("each session starts a browser: slow, and unrelated to the protocol")
    def test_a_closed_connection_ends_its_bidi_only_session(self):
        import websocket
        from urllib.parse import urlsplit
        # More than the server's 8 sessions: each must end when its connection closes.
        for attempt in range(10):
            socket = websocket.create_connection(f"ws://{urlsplit(self.url).netloc}/session", timeout=60,
                                                 suppress_origin=True)
            try:
                answer = self.exchange(socket, {"id": 1, "method": "session.new", "params": {"capabilities": {
                    "alwaysMatch": support.options().to_capabilities()}}})
                self.assertEqual(answer["type"], "success", (attempt, answer))
            finally:
                socket.close()
            time.sleep(0.1)

    @unittest.skipIf(support.BROWSER != "headway", "Headway's own module")
    def test_headway_module_reports_each_load(self):
        socket = self.connect()
        base = support.page_server()
        try:
            context = self.exchange(socket, {"id": 1, "method": "browsingContext.getTree",
                                             "params": {}})["result"]["contexts"][0]["context"]
            self.exchange(socket, {"id": 2, "method": "session.subscribe", "params": {"events": ["headway:load"]}})
            socket.send(json.dumps({"id": 3, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
            measured = self.events_until(socket, "headway:load.measured")[-1]["params"]
            self.assertEqual(measured["result"]["finalURL"], f"{base}/title.html")
            self.assertGreater(measured["result"]["timing"]["loadEventEnd"], 0)
            timing = self.exchange(socket, {"id": 4, "method": "headway:load.timing", "params": {"context": context}})
            self.assertEqual(timing["result"]["finalURL"], f"{base}/title.html")
            stats = self.exchange(socket, {"id": 5, "method": "headway:booster.stats", "params": {}})
            self.assertIsNone(stats["result"])  # no booster in this session
        finally:
            socket.close()

    @unittest.skipIf(support.BROWSER != "headway", "Headway's own module")
    def test_a_filmstrip_session_reports_each_navigations_visual_metrics(self):
        import websocket
        driver = support.new_driver(webSocketUrl=True, **{"headway:options": {"filmstrip": {"framesPerSecond": 20}}})
        base = support.page_server()
        socket = websocket.create_connection(driver.caps["webSocketUrl"], timeout=30, suppress_origin=True)
        try:
            context = driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {
                "events": ["headway:load.filmstrip"]}})
            socket.send(json.dumps({"id": 2, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
            event = self.events_until(socket, "headway:load.filmstrip")[-1]["params"]
            self.assertEqual(event["context"], context)
            self.assertEqual(event["url"], f"{base}/title.html")
            metrics = event["visualMetrics"]
            self.assertEqual(metrics["progress"][0], {"time": 0, "percent": 0})
            self.assertEqual(metrics["progress"][-1]["percent"], 100)
            self.assertEqual(len(metrics["progress"]), event["frames"])
            # The frames themselves, over HTTP: one for each point of the progress.
            url = f"{support.URL}/session/{driver.session_id}/headway/filmstrip"
            with urllib.request.urlopen(url, timeout=60) as answer:
                film = json.load(answer)["value"]
            self.assertEqual([frame["time"] for frame in film["frames"]],
                             [point["time"] for point in metrics["progress"]])
            self.assertTrue(base64.b64decode(film["frames"][0]["png"]).startswith(b"\x89PNG"))
        finally:
            socket.close()
            driver.quit()

    @unittest.skipIf(support.BROWSER != "headway", "Headway's own module")
    def test_the_boosters_requests_are_reported(self):
        import websocket
        driver = support.new_driver(webSocketUrl=True, **{"headway:options": {"booster": {"prefetch": True}}})
        base = support.page_server()
        socket = websocket.create_connection(driver.caps["webSocketUrl"], timeout=30, suppress_origin=True)
        try:
            context = driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {
                "events": ["headway:booster.prefetched"]}})
            socket.send(json.dumps({"id": 2, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/links.html", "wait": "complete"}}))
            report = self.events_until(socket, "headway:booster.prefetched")[-1]["params"]
            self.assertEqual((report["url"], report["page"]), (f"{base}/title.html", f"{base}/links.html"))
            self.assertEqual((report["status"], report["isPage"], report["context"]), (200, True, context))
            self.assertGreater(report["bytes"], 0)
            # The next page comes from the booster's cache: its network events say so.
            self.exchange(socket, {"id": 3, "method": "session.subscribe", "params": {
                "events": ["headway:booster.served", "network.responseCompleted"]}})
            socket.send(json.dumps({"id": 4, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
            served = self.events_until(socket, "headway:booster.served")
            event = served[-1]["params"]
            self.assertEqual((event["url"], event["status"], event["context"]), (f"{base}/title.html", 200, context))
            completed = [m["params"] for m in served if m.get("method") == "network.responseCompleted"
                         and m["params"]["request"]["request"] == event["request"]]
            self.assertEqual([c["response"]["fromCache"] for c in completed], [True])
        finally:
            socket.close()
            driver.quit()

    def test_a_prerendered_page_is_reported(self):
        import websocket
        driver = support.new_driver(webSocketUrl=True,
                                    **{"headway:options": {"booster": {"prefetch": True, "prerender": 1}}})
        base = support.page_server()
        socket = websocket.create_connection(driver.caps["webSocketUrl"], timeout=30, suppress_origin=True)
        try:
            context = driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "session.subscribe", "params": {
                "events": ["headway:booster.prefetched", "headway:booster.prerendered"]}})
            socket.send(json.dumps({"id": 2, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/links.html", "wait": "complete"}}))
            self.events_until(socket, "headway:booster.prefetched")
            # The hidden page loads on its own time: a navigation before it is ready loads anew,
            # so each try waits longer first (bounded: 0.5 + 1 + 2 + 4 s).
            for ident, pause in enumerate((0.5, 1, 2, 4), start=3):
                time.sleep(pause)
                socket.send(json.dumps({"id": ident, "method": "browsingContext.navigate", "params": {
                    "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
                seen = []
                while not seen or seen[-1].get("id") != ident:
                    seen.append(json.loads(socket.recv()))
                shown = [m["params"] for m in seen if m.get("method") == "headway:booster.prerendered"]
                if shown:
                    break
                self.exchange(socket, {"id": 100 + ident, "method": "browsingContext.navigate", "params": {
                    "context": context, "url": f"{base}/links.html", "wait": "complete"}})
            else:
                self.fail("no page was shown prerendered in four tries")
            self.assertEqual((shown[0]["url"], shown[0]["context"]), (f"{base}/title.html", context))
            self.assertEqual(shown[0]["navigation"], seen[-1]["result"]["navigation"])
        finally:
            socket.close()
            driver.quit()

    def events_until(self, socket, method):
        """Every message up to and including the first event `method`."""
        seen = []
        while not seen or seen[-1].get("method") != method:
            seen.append(json.loads(socket.recv()))
        return seen

    def test_document_fragment_and_prompt_events(self):
        socket = self.connect()
        base = support.page_server()
        try:
            context = self.exchange(socket, {"id": 1, "method": "browsingContext.getTree",
                                             "params": {}})["result"]["contexts"][0]["context"]
            self.exchange(socket, {"id": 2, "method": "session.subscribe", "params": {"events": ["browsingContext"]}})
            socket.send(json.dumps({"id": 3, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/title.html", "wait": "complete"}}))
            seen = self.events_until(socket, "browsingContext.load")
            methods = [m.get("method") for m in seen if m.get("type") == "event"]
            self.assertLess(methods.index("browsingContext.navigationStarted"),
                            methods.index("browsingContext.domContentLoaded"))
            navigation = next(m for m in seen if m.get("method") == "browsingContext.load")["params"]["navigation"]
            self.assertEqual(next(m for m in seen if m.get("method") == "browsingContext.domContentLoaded")
                             ["params"]["navigation"], navigation)
            socket.send(json.dumps({"id": 4, "method": "script.evaluate", "params": {
                "expression": "location.hash = 'part'", "target": {"context": context}, "awaitPromise": False}}))
            fragment = self.events_until(socket, "browsingContext.fragmentNavigated")[-1]["params"]
            self.assertEqual(fragment["url"], f"{base}/title.html#part")
            socket.send(json.dumps({"id": 41, "method": "script.evaluate", "params": {
                "expression": "history.pushState(null, '', 'pushed.html')", "target": {"context": context},
                "awaitPromise": False}}))
            pushed = self.events_until(socket, "browsingContext.historyUpdated")[-1]["params"]
            self.assertEqual((pushed["url"], pushed["context"]), (f"{base}/pushed.html", context))
            socket.send(json.dumps({"id": 5, "method": "script.evaluate", "params": {
                "expression": "setTimeout(() => confirm('sure?'), 0)", "target": {"context": context},
                "awaitPromise": False}}))
            opened = self.events_until(socket, "browsingContext.userPromptOpened")[-1]["params"]
            self.assertEqual((opened["type"], opened["message"], opened["context"], opened["handler"]),
                             ("confirm", "sure?", context, "dismiss"))
            # The session's prompt handler (dismiss, by default) answers it as it opens.
            closed = self.events_until(socket, "browsingContext.userPromptClosed")[-1]["params"]
            self.assertEqual((closed["type"], closed["accepted"]), ("confirm", False))
        finally:
            socket.close()

    @chromium_differs("a connection opened after others to the same session gets no events")
    def test_windows_a_page_opens_and_classic_closes_are_reported(self):
        socket = self.connect()
        try:
            context = self.driver.current_window_handle
            socket.send(json.dumps({"id": 1, "method": "session.subscribe", "params": {
                "events": ["browsingContext.contextCreated", "browsingContext.contextDestroyed"]}}))
            # The subscription reports the context open now.
            self.assertEqual(self.events_until(socket, "browsingContext.contextCreated")[-1]["params"]["context"],
                             context)
            socket.send(json.dumps({"id": 2, "method": "script.evaluate", "params": {
                "expression": "window.open('about:blank', '_blank'); 1", "target": {"context": context},
                "awaitPromise": False}}))
            opened = self.events_until(socket, "browsingContext.contextCreated")[-1]["params"]["context"]
            self.assertNotEqual(opened, context)
            self.driver.switch_to.window(opened)
            self.driver.close()
            self.driver.switch_to.window(context)
            self.assertEqual(self.events_until(socket, "browsingContext.contextDestroyed")[-1]["params"]["context"],
                             opened)
        finally:
            socket.close()

    @chromium_differs("a 65 MiB message is neither answered nor refused within 30 s")
    def test_an_oversized_message_closes_the_connection(self):
        import websocket
        socket = self.connect()
        try:
            # Refused from the frame's header: the server closes (1009) while the rest is still being sent.
            with self.assertRaises((websocket.WebSocketConnectionClosedException, ConnectionError, OSError)):
                socket.send("x" * (65 << 20))
                for _ in range(10):
                    socket.recv()
        finally:
            socket.close()
        # The session lives on, and a new connection works.
        socket = self.connect()
        try:
            self.assertEqual(self.exchange(socket, {"id": 1, "method": "session.status", "params": {}})["type"],
                             "success")
        finally:
            socket.close()

    @chromium_differs("a second connection to a session gets no events (Firefox, as headway, sends them to each)")
    def test_connections_share_the_session(self):
        first, second = self.connect(), self.connect()
        try:
            answer = self.exchange(first, {"id": 9, "method": "browsingContext.getTree", "params": {}})
            context = answer["result"]["contexts"][0]["context"]
            self.assertEqual(context, self.driver.current_window_handle)
            self.assertEqual(self.exchange(second, {"id": 1, "method": "session.subscribe",
                                                    "params": {"events": ["log.entryAdded"]}})["type"], "success")
            # Events go to every connection of the session; answers to the one that asked.
            first.send(json.dumps({"id": 10, "method": "script.evaluate", "params": {
                "expression": "console.info('to both')", "target": {"context": context}, "awaitPromise": False}}))
            got = [json.loads(first.recv()), json.loads(first.recv())]
            self.assertEqual(sorted(m["type"] for m in got), ["event", "success"], got)
            for event in [m for m in got if m["type"] == "event"] + [json.loads(second.recv())]:
                self.assertEqual((event["method"], event["params"]["text"]), ("log.entryAdded", "to both"))
            self.exchange(second, {"id": 2, "method": "session.unsubscribe", "params": {"events": ["log.entryAdded"]}})
        finally:
            first.close()
            second.close()

    def test_a_response_starts_before_its_body_ends(self):
        base = support.page_server()
        socket = self.connect()
        try:
            context = self.driver.current_window_handle
            self.exchange(socket, {"id": 1, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{base}/next.html", "wait": "complete"}})
            self.exchange(socket, {"id": 2, "method": "session.subscribe", "params": {
                "events": ["network.responseStarted", "network.responseCompleted"]}})
            socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
                "expression": "fetch('/trickle').then(r => r.text())", "awaitPromise": True,
                "target": {"context": context}}}))
            seen, arrived = [], {}  # the trickle's events and the fetch's answer, in the order they came
            while len(seen) < 3:
                message = json.loads(socket.recv())
                if message.get("id") == 3:
                    self.assertEqual(message["result"]["result"], {"type": "string", "value": "done"}, message)
                    seen.append("answer")
                elif message.get("params", {}).get("request", {}).get("url", "").endswith("/trickle"):
                    seen.append(message["method"])
                    arrived[message["method"]] = time.monotonic()
                    if message["method"] == "network.responseStarted":
                        started = message["params"]
            self.assertEqual(seen[0], "network.responseStarted", seen)
            self.assertIn("network.responseCompleted", seen)
            self.assertEqual(started["response"]["status"], 200)
            timings = started["request"]["timings"]
            self.assertGreaterEqual(timings["responseStart"], timings["requestStart"])
            # The server sends the body a second after the headers: responseStarted came as the
            # headers did, not with the end.
            self.assertGreater(arrived["network.responseCompleted"] - arrived["network.responseStarted"], 0.5)
            self.exchange(socket, {"id": 4, "method": "session.unsubscribe", "params": {
                "events": ["network.responseStarted", "network.responseCompleted"]}})
        finally:
            socket.close()


@unittest.skipIf(support.BROWSER == "webkit", "WebKitWebDriver refuses webSocketUrl")
@chromium_differs("chromedriver never answers network.continueRequest (the request stays blocked)")
class BiDiInterceptTests(unittest.TestCase):
    """network.addIntercept and what a client decides for a blocked request, through Selenium's
    `driver.network.add_request_handler` and the wire."""

    @classmethod
    def setUpClass(cls):
        cls.base = support.page_server()
        cls.driver = bidi_driver()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def tearDown(self):
        self.driver.network.clear_request_handlers()
        self.driver.network.clear_extra_headers()

    def fetched(self):
        """What /intercept.html's fetch of /api/data gave."""
        return self.driver.execute_async_script("window.fetched.then(arguments[0])")

    def test_provide_response_answers_a_script_and_a_fetch(self):
        def handler(request):
            if request.url.endswith("/api/data"):
                request.provide_response(status=201, headers={"Content-Type": "text/plain"}, body="stubbed")
            elif request.url.endswith("/api/script.js"):
                request.provide_response(status=200, headers={"Content-Type": "text/javascript"},
                                         body="window.fromStub = 42;")
        self.driver.network.add_request_handler(handler)
        self.driver.get(f"{self.base}/intercept.html")
        self.assertEqual(self.driver.execute_script("return window.fromStub"), 42)
        self.assertEqual(self.fetched(), "201 stubbed")

    def test_fail_request_fails_the_fetch(self):
        def handler(request):
            if request.url.endswith("/api/data"):
                request.fail()
        self.driver.network.add_request_handler(handler)
        self.driver.get(f"{self.base}/intercept.html")
        self.assertEqual(self.fetched(), "failed: TypeError")

    def test_headers_and_url_changed_reach_the_server(self):
        def handler(request):
            if request.url.endswith("/api/data"):
                request.set_url(f"{self.base}/echo")
                request.set_headers({**request.headers, "X-Changed": "by the client"})
        self.driver.network.add_request_handler(handler)
        self.driver.get(f"{self.base}/intercept.html")
        status, _, body = self.fetched().partition(" ")
        self.assertEqual(status, "200")
        self.assertEqual(json.loads(body).get("x-changed"), "by the client")

    def test_an_auth_handler_answers_the_challenge(self):
        handler = self.driver.network.add_auth_handler("ada", "lovelace")
        try:
            self.driver.get(f"{self.base}/auth")
            self.assertEqual(self.driver.title, "Signed in")
        finally:
            self.driver.network.remove_auth_handler(handler)

    def test_extra_headers_reach_the_server(self):
        self.driver.network.add_extra_header("X-Extra", "every request")
        self.driver.get(f"{self.base}/echo")
        echoed = json.loads(self.driver.find_element("tag name", "body").text)
        self.assertEqual(echoed.get("x-extra"), "every request")

    def test_a_held_document_is_released_while_navigate_waits(self):
        seen = []

        def handler(request):
            if request.url.endswith("/title.html"):
                seen.append(request.url)
        self.driver.network.add_request_handler(handler)
        result = self.driver.browsing_context.navigate(context=self.driver.current_window_handle,
                                                       url=f"{self.base}/title.html", wait="complete")
        self.assertEqual(result["url"], f"{self.base}/title.html")
        self.assertEqual(seen, [f"{self.base}/title.html"])
        self.assertEqual(self.driver.title, "Title page")


@unittest.skipIf(support.BROWSER == "webkit", "WebKitWebDriver refuses webSocketUrl")
class BiDiInterceptProtocolTests(unittest.TestCase):
    """Intercepts on the wire: the blocked event, patterns, and the errors."""

    @classmethod
    def setUpClass(cls):
        cls.base = support.page_server()
        cls.driver = bidi_driver()
        cls.url = cls.driver.caps["webSocketUrl"]

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        self.added = []

    def tearDown(self):
        """Removes the intercepts a test added, even one that failed halfway."""
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            for ident, intercept in enumerate(self.added, start=900):
                self.call(socket, ident, "network.removeIntercept", {"intercept": intercept})
        finally:
            socket.close()

    def call(self, socket, ident, method, params):
        socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            answer = json.loads(socket.recv())
            if answer.get("id") == ident:
                return answer

    def next_event(self, socket, method):
        while True:
            message = json.loads(socket.recv())
            if message.get("method") == method:
                return message["params"]

    def block_data_request(self, socket):
        """Intercepts /api/data, loads /intercept.html and returns (intercept id, blocked event)."""
        self.call(socket, 1, "session.subscribe", {"events": ["network.beforeRequestSent", "network.fetchError"]})
        intercept = self.call(socket, 2, "network.addIntercept", {
            "phases": ["beforeRequestSent"],
            "urlPatterns": [{"type": "pattern", "pathname": "/api/data"}]})["result"]["intercept"]
        self.added.append(intercept)
        # Not waited for: its answer may come after the events (a navigation still ending first).
        socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
            "expression": f"location.href = '{self.base}/intercept.html'", "awaitPromise": False,
            "target": {"context": self.driver.current_window_handle}}}))
        while True:
            event = self.next_event(socket, "network.beforeRequestSent")
            if event["request"]["url"].endswith("/api/data"):
                return intercept, event
            self.assertFalse(event["isBlocked"], event)

    def fetched(self):
        return self.driver.execute_async_script("window.fetched.then(arguments[0])")

    def test_a_blocked_request_can_be_failed(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            intercept, event = self.block_data_request(socket)
            self.assertEqual((event["isBlocked"], event["intercepts"]), (True, [intercept]))
            self.assertEqual(sorted(event), ["context", "initiator", "intercepts", "isBlocked", "navigation",
                                             "redirectCount", "request", "timestamp", "userContext"])
            request = event["request"]["request"]
            self.assertEqual(self.call(socket, 4, "network.failRequest", {"request": request})["type"], "success")
            while self.next_event(socket, "network.fetchError")["request"]["request"] != request:
                pass
            self.assertEqual(self.fetched(), "failed: TypeError")
            self.call(socket, 5, "network.removeIntercept", {"intercept": intercept})
        finally:
            socket.close()

    def test_a_blocked_request_can_be_answered(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            intercept, event = self.block_data_request(socket)
            answer = self.call(socket, 4, "network.provideResponse", {
                "request": event["request"]["request"], "statusCode": 201,
                "headers": [{"name": "Content-Type", "value": {"type": "string", "value": "text/plain"}}],
                "body": {"type": "base64", "value": base64.b64encode(b"from the client").decode()}})
            self.assertEqual(answer["type"], "success", answer)
            self.assertEqual(self.fetched(), "201 from the client")
            self.call(socket, 5, "network.removeIntercept", {"intercept": intercept})
        finally:
            socket.close()

    @chromium_differs("chromedriver never answers network.continueRequest (the request stays blocked)")
    def test_a_blocked_request_is_reported_and_continued(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            context = self.driver.current_window_handle
            self.call(socket, 1, "session.subscribe", {"events": ["network.beforeRequestSent",
                                                                  "network.responseCompleted"]})
            answer = self.call(socket, 2, "network.addIntercept", {
                "phases": ["beforeRequestSent"],
                "urlPatterns": [{"type": "pattern", "pathname": "/api/data"}]})
            intercept = answer["result"]["intercept"]
            self.added.append(intercept)
            socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
                "expression": f"location.href = '{self.base}/intercept.html'", "awaitPromise": False,
                "target": {"context": context}}}))
            while True:
                event = self.next_event(socket, "network.beforeRequestSent")
                if event["request"]["url"].endswith("/api/data"):
                    break
                self.assertFalse(event["isBlocked"], event)
            self.assertTrue(event["isBlocked"])
            self.assertEqual(event["intercepts"], [intercept])
            self.assertEqual(event["context"], context)
            request = event["request"]["request"]
            answer = self.call(socket, 4, "network.continueRequest", {"request": "nope"})
            self.assertEqual(answer["error"], "no such request")
            answer = self.call(socket, 5, "network.continueRequest", {"request": request})
            self.assertEqual(answer["type"], "success", answer)
            answer = self.call(socket, 6, "network.continueRequest", {"request": request})
            self.assertEqual(answer["error"], "no such request")
            while True:
                done = self.next_event(socket, "network.responseCompleted")
                if done["request"]["request"] == request:
                    break
            self.assertEqual(done["response"]["status"], 404)
            self.assertEqual(self.call(socket, 7, "network.removeIntercept", {"intercept": intercept})["type"],
                             "success")
            answer = self.call(socket, 8, "network.removeIntercept", {"intercept": intercept})
            self.assertEqual(answer["error"], "no such intercept")
        finally:
            socket.close()

    def test_a_challenge_is_reported_and_cancelled(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            context = self.driver.current_window_handle
            self.call(socket, 1, "session.subscribe", {"events": ["network.authRequired"]})
            intercept = self.call(socket, 2, "network.addIntercept", {"phases": ["authRequired"]})["result"]["intercept"]
            self.added.append(intercept)
            socket.send(json.dumps({"id": 3, "method": "browsingContext.navigate", "params": {
                "context": context, "url": f"{self.base}/auth", "wait": "complete"}}))
            event = self.next_event(socket, "network.authRequired")
            self.assertEqual((event["isBlocked"], event["intercepts"]), (True, [intercept]))
            # The spec's response is the 401 with its challenges; chromedriver reports status -1 and
            # no authChallenges (docs/webdriver-reference.md).
            if support.BROWSER != "chromium":
                self.assertEqual(event["response"]["status"], 401)
                self.assertEqual(event["response"]["authChallenges"], [{"scheme": "Basic", "realm": "headway"}])
            self.assertEqual(event["request"]["url"], f"{self.base}/auth")
            answer = self.call(socket, 4, "network.continueWithAuth", {"request": event["request"]["request"],
                                                                      "action": "cancel"})
            self.assertEqual(answer["type"], "success", answer)
            while True:
                message = json.loads(socket.recv())
                if message.get("id") == 3:
                    break
            self.assertEqual(self.driver.title, "Unauthorized")
            answer = self.call(socket, 5, "network.continueWithAuth", {"request": event["request"]["request"],
                                                                      "action": "cancel"})
            self.assertEqual(answer["error"], "no such request")
        finally:
            socket.close()

    def test_a_failed_document_is_a_failed_navigation(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            self.call(socket, 1, "session.subscribe", {"events": [
                "network.beforeRequestSent", "browsingContext.navigationFailed", "browsingContext.navigationAborted"]})
            intercept = self.call(socket, 2, "network.addIntercept", {
                "phases": ["beforeRequestSent"],
                "urlPatterns": [{"type": "pattern", "pathname": "/next.html"}]})["result"]["intercept"]
            self.added.append(intercept)
            socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
                "expression": f"location.href = '{self.base}/next.html'", "awaitPromise": False,
                "target": {"context": self.driver.current_window_handle}}}))
            while True:
                event = self.next_event(socket, "network.beforeRequestSent")
                if event["isBlocked"]:
                    break
            socket.send(json.dumps({"id": 4, "method": "network.failRequest", "params": {
                "request": event["request"]["request"]}}))
            while True:
                message = json.loads(socket.recv())
                if message.get("method", "").startswith("browsingContext.navigation"):
                    break
            self.assertEqual(message["method"], "browsingContext.navigationFailed")
            self.assertEqual(message["params"]["url"], f"{self.base}/next.html")
        finally:
            socket.close()

    @chromium_differs("chromedriver answers a document with provideResponse; headway refuses it")
    def test_a_blocked_document_cannot_be_answered(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            self.call(socket, 1, "session.subscribe", {"events": ["network.beforeRequestSent"]})
            intercept = self.call(socket, 2, "network.addIntercept", {
                "phases": ["beforeRequestSent"],
                "urlPatterns": [{"type": "pattern", "pathname": "/title.html"}]})["result"]["intercept"]
            self.added.append(intercept)
            # Not waited for: the blocked event may come before the evaluation's answer.
            socket.send(json.dumps({"id": 3, "method": "script.evaluate", "params": {
                "expression": f"location.href = '{self.base}/title.html'", "awaitPromise": False,
                "target": {"context": self.driver.current_window_handle}}}))
            event = self.next_event(socket, "network.beforeRequestSent")
            self.assertTrue(event["isBlocked"], event)
            request = event["request"]["request"]
            answer = self.call(socket, 4, "network.provideResponse", {"request": request, "statusCode": 200})
            self.assertEqual(answer["error"], "unsupported operation")
            self.assertEqual(self.call(socket, 5, "network.continueRequest", {"request": request})["type"], "success")
            self.call(socket, 6, "network.removeIntercept", {"intercept": intercept})
        finally:
            socket.close()

    def test_bad_intercepts_are_refused(self):
        import websocket
        socket = websocket.create_connection(self.url, timeout=30, suppress_origin=True)
        try:
            for ident, params in enumerate([{"phases": []}, {"phases": ["nope"]},
                                            {"phases": ["beforeRequestSent"], "urlPatterns": [{"type": "x"}]},
                                            {"phases": ["beforeRequestSent"],
                                             "urlPatterns": [{"type": "pattern", "pathname": "/api/*"}]},
                                            {"phases": ["beforeRequestSent"], "contexts": ["none"]}], start=1):
                answer = self.call(socket, ident, "network.addIntercept", params)
                self.assertIn(answer.get("error"), ("invalid argument", "no such frame"), (params, answer))
        finally:
            socket.close()


if __name__ == "__main__":
    unittest.main()
