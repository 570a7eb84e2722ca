"""scripts/bench's soak section: what a long run keeps, counted by loads, not seconds.

Each run samples its whole process tree's PSS (proportional set size, from smaps_rollup: shared
libraries counted once) as its loads complete, and compares the end with the reading at 20% of the
run. The reference beside it loads the same pages on the same engine with nothing of Headway's:
Selenium on WebKitWebDriver + MiniBrowser (skipped when peers are).
Run alone: python3 scripts/bench_soak.py HEADWAY COUNT (prints the samples of one CLI run).
"""
import json, os, pathlib, subprocess, sys, tempfile, threading, time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import benchlib  # noqa: E402
import bench_webdriver  # noqa: E402
from benchlib import note, verdict  # noqa: E402

GOAL = 0.10  # end within 10% of the reading at 20% of the run


def urls(server, count):
    return [f"{server.url}articles/article-{i % 10 + 1}.html?i={i}" for i in range(count)]


def growth(samples, resting=False):
    """(loads at 20% of the run, PSS then, PSS at the end, their ratio - 1) from (loads, KiB) samples.
    `resting`: each reading is the lowest of its window (15-25% of the run, the last 10%): for a server
    whose warm pool holds one or two browsers (about 100 MiB apart) depending on how sessions came."""
    total = samples[-1][0]
    nearest = min(samples, key=lambda s: abs(s[0] - total * 0.2))
    if resting:  # a window with no sample (a short run) falls back to the nearest one
        early = min((s for s in samples if 0.15 * total <= s[0] <= 0.25 * total), key=lambda s: s[1],
                    default=nearest)
        end = min((s for s in samples if s[0] >= 0.9 * total), key=lambda s: s[1], default=samples[-1])[1]
        return early[0], early[1], end, end / early[1] - 1
    at, early = nearest
    return at, early, samples[-1][1], samples[-1][1] / early - 1


def sampled(pid, count):
    """A function to call after each load `done`: samples `pid`'s tree PSS every 2% of `count`
    loads and at the last; returns the (loads, KiB) list it fills."""
    samples, every = [], max(1, count // 50)

    def after(done):
        if done % every == 0 or done == count:
            samples.append((done, benchlib.tree_rss_kib(pid, "Pss")))
    return samples, after


def cli_run(headway, server, count, jobs, env, every=None):
    """`headway load --urls` over `count` pages in one process; PSS samples by loads done."""
    listing = pathlib.Path(tempfile.mkstemp(suffix=".txt")[1])
    listing.write_text("\n".join(urls(server, count)) + "\n")
    every = every or max(1, count // 50)
    proc = subprocess.Popen([str(headway), "load", "--urls", str(listing), "--format", "jsonl", "--jobs", str(jobs)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    samples, done, start = [], 0, time.monotonic()
    for _ in proc.stdout:
        done += 1
        # The last sample comes a few loads before the end: after the last, the process is closing
        # (with --jobs 2, a page whose last load is done already).
        last = max(1, count - 2 * jobs)
        if (done % every == 0 and done < last) or done == last:
            samples.append((done, benchlib.tree_rss_kib(proc.pid, "Pss")))
            if done % (every * 10) == 0:
                note(f"soak: {done}/{count} loads, --jobs {jobs}, tree PSS {samples[-1][1] / 1024:.0f} MiB")
    proc.wait(timeout=60)
    listing.unlink()
    if proc.returncode != 0 or done != count:
        benchlib.fail(f"soak: headway load printed {done} of {count} loads and exited {proc.returncode}")
    return samples, time.monotonic() - start


def row(what, samples, unit="load"):
    at, early, end, grew = growth(samples, resting=unit == "session")
    per = (end - early) / max(1, samples[-1][0] - at)
    return [what, f"{early / 1024:.0f} → {end / 1024:.0f} MiB ({per:+.1f} KiB a {unit})", f"{grew * 100:+.1f}%",
            f"<= +{GOAL * 100:.0f}%", verdict(grew <= GOAL)]


def classic_run(url, kind, pages, pid):
    """One Selenium session over `pages`: a get and a script each; PSS samples of `pid`'s tree."""
    from selenium import webdriver
    from selenium.webdriver.remote.client_config import ClientConfig
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=url, timeout=120))
    driver = webdriver.Remote(command_executor=connection, options=bench_webdriver.options(kind))
    samples, after = sampled(pid, len(pages))
    try:
        for done, page in enumerate(pages, 1):
            driver.get(page)
            if driver.execute_script("return document.title") in (None, ""):
                raise RuntimeError(f"{page} has no title")
            after(done)
    finally:
        driver.quit()
    return samples


def bidi_run(url, pages, pid):
    """One BiDi session (`webSocketUrl`) over `pages`: every module's events subscribed, a preload
    script and a data collector, a navigate and a script.evaluate each; PSS samples of `pid`'s tree.
    As a client of a collector does, it reads each document's body (getData) and lets every body
    go (`disown`); bodies kept until disowned are the client's, up to the collector's 64 MiB."""
    import websocket
    body = json.dumps({"capabilities": {"alwaysMatch": {"webSocketUrl": True}}}).encode()
    created = json.load(http_request(url + "/session", body))["value"]
    # No Origin: headway refuses requests from web pages, and websocket-client sends one by default.
    socket = websocket.create_connection(created["capabilities"]["webSocketUrl"], timeout=120, suppress_origin=True)
    answers, events, lock, ids = {}, [0], threading.Condition(), iter(range(1, 1 << 30))
    completed = []  # (request id, URL) of each network.responseCompleted since the last navigation

    def read():
        while True:
            try:
                message = json.loads(socket.recv())
            except Exception:  # noqa: BLE001 - the socket closed
                return
            with lock:
                if "id" in message and message.get("type") != "event":
                    answers[message["id"]] = message
                    lock.notify_all()
                else:
                    events[0] += 1
                    if message.get("method") == "network.responseCompleted":
                        request = message["params"]["request"]
                        completed.append((request["request"], request["url"]))

    def send(method, params, allow=()):
        number = next(ids)
        socket.send(json.dumps({"id": number, "method": method, "params": params}))
        with lock:
            if not lock.wait_for(lambda: number in answers, timeout=120):
                raise RuntimeError(f"{method} had no answer within 120 s")
            answer = answers.pop(number)
        if answer.get("type") == "error":
            if answer.get("error") in allow:
                return None
            raise RuntimeError(f"{method}: {answer.get('error')}: {answer.get('message')}")
        return answer["result"]

    threading.Thread(target=read, daemon=True).start()
    samples, after = sampled(pid, len(pages))
    try:
        send("session.subscribe", {"events": ["browsingContext", "network", "log", "script"]})
        send("script.addPreloadScript", {"functionDeclaration": "() => { window.preloaded = true; }"})
        collector = send("network.addDataCollector", {"dataTypes": ["response"],
                                                      "maxEncodedDataSize": 1 << 20})["collector"]
        context = send("browsingContext.getTree", {})["contexts"][0]["context"]
        for done, page in enumerate(pages, 1):
            send("browsingContext.navigate", {"context": context, "url": page, "wait": "complete"})
            with lock:
                ended, completed[:] = list(completed), []
            for request, address in ended:
                # A body WebKit kept none of (or one still being read) is not the collector's.
                common = {"request": request, "collector": collector}
                if address == page:
                    body = send("network.getData", {"dataType": "response", "disown": True, **common},
                                allow=("no such network data", "unavailable network data"))
                    if body is not None and "<title>" not in body["bytes"].get("value", ""):
                        raise RuntimeError(f"network.getData gave no document for {page}")
                else:
                    send("network.disownData", {"dataType": "response", **common}, allow=("no such network data",))
            result = send("script.evaluate", {"expression": "document.title + preloaded", "awaitPromise": False,
                                              "target": {"context": context}})
            if result.get("result", {}).get("type") != "string":
                raise RuntimeError(f"script.evaluate on {page} gave {result}")
            after(done)
    finally:
        socket.close()
        http_request(url + "/session/" + created["sessionId"], method="DELETE").read()
    return samples, events[0]


def http_request(url, body=None, method=None):
    import urllib.request
    request = urllib.request.Request(url, data=body, method=method or ("POST" if body else "GET"),
                                     headers={"Content-Type": "application/json"})
    return urllib.request.urlopen(request, timeout=120)


def sessions_run(url, page, count, pid):
    """`count` sessions one after another (new session, get, quit) on one server: PSS samples."""
    samples, every = [], max(1, count // 50)
    for done in range(1, count + 1):
        bench_webdriver.session_round(url, "headway", page, click=False)
        if done % every == 0 or done == count:
            time.sleep(0.5)  # the last session's processes go
            samples.append((done, benchlib.tree_rss_kib(pid, "Pss")))
    return samples


def rows(headway, site, env, loads, gets, bidi, sessions, with_peers):
    out = []
    with benchlib.Server(headway, site) as server:
        for jobs in (1, 2):
            note(f"soak: {loads} loads in one headway load --urls, --jobs {jobs}")
            samples, _ = cli_run(headway, server, loads, jobs, env)
            out.append(row(f"soak: headway load --urls, {loads} loads, --jobs {jobs} (tree PSS at 20% → end)", samples))
        pages = urls(server, gets)
        note(f"soak: one classic session, {gets} gets + a script each, on headway webdriver")
        headway_server = bench_webdriver.Headway(headway, env, 2)
        try:
            out.append(row(f"soak: one classic WebDriver session, {gets} gets + a script each: headway",
                           classic_run(headway_server.url, "headway", pages, headway_server.proc.pid)))
            note(f"soak: one BiDi session, {bidi} navigations, everything subscribed, a preload script, a collector")
            samples, events = bidi_run(headway_server.url, urls(server, bidi), headway_server.proc.pid)
            out.append(row(f"soak: one BiDi session, {bidi} navigations + a script each, every event "
                           f"({events} events), a preload script and a data collector: headway", samples))
            note(f"soak: {sessions} sessions one after another on one headway webdriver")
            out.append(row(f"soak: headway webdriver serving {sessions} sessions one after another (Xvfb included)",
                           sessions_run(headway_server.url, pages[0], sessions, headway_server.proc.pid), "session"))
        finally:
            headway_server.stop()
        if with_peers:
            note(f"soak: the reference, one Selenium session on WebKitWebDriver + MiniBrowser, {gets} gets")
            reference = bench_webdriver.WebKit()
            try:
                # The baseline beside the rows above: the same engine with nothing of Headway's.
                out.append(row(f"soak: the same classic session on WebKitWebDriver + MiniBrowser (reference)",
                               classic_run(reference.url, "webkit", pages, reference.proc.pid))[:3] + ["", ""])
            finally:
                reference.stop()
    return out


if __name__ == "__main__":
    headway, count = sys.argv[1], int(sys.argv[2])
    site = benchlib.demo_site(headway)
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    with benchlib.Server(headway, site) as server:
        samples, wall = cli_run(headway, server, count, int(sys.argv[3]) if len(sys.argv) > 3 else 1, env)
    for loads, kib in samples:
        print(loads, round(kib / 1024, 1))
    _, early, end, grew = growth(samples)
    print(f"{count} loads in {wall:.1f} s: {early / 1024:.0f} -> {end / 1024:.0f} MiB ({grew * 100:+.1f}%)")
