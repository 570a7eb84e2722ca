"""The WebDriver rows for scripts/bench: Selenium against `headway webdriver` and against
WebKitWebDriver + MiniBrowser (the same engine), each server started once and kept warm.

A: one session's round (new session, load a page, click a button, one execute_script, quit), alternating
   between the two servers, medians; then series of rounds back to back on one server, as a suite opens a
   session per test (the mean round of each series, medians over the series).
B: N sessions at once (threads) on headway against the same N one after another on WebKitWebDriver, which
   allows one session at a time.
C: Headway's Selenium scenario suite (Tests/WebDriver), whole, on each server (not in --smoke).
D: long-run memory of one headway server over many sessions (tree RSS after the first 50 and at the end),
   and the idle server with its warm browser.
Until `headway webdriver` works its rows say so and the bench goes on.
"""
import http.server, os, pathlib, select, shutil, signal, socket, socketserver, subprocess, sys, threading, time
import urllib.request

import benchlib
from benchlib import median, note, verdict

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
PAGE = (b"<!doctype html><title>WebDriver bench</title><button id=b onclick=\"this.textContent = 'pressed'\">"
        b"Press</button><p>" + b"Some text. " * 200 + b"</p>")


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


class _PageServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser that went away is no error
            super().handle_error(request, client_address)


def options(kind):
    if kind == "webkit":
        from selenium.webdriver.webkitgtk.options import Options
        result = Options()
        result.binary_location = MINIBROWSER
        result.add_argument("--automation")  # the arguments given replace WebKitWebDriver's defaults
        return result
    from selenium.webdriver.common.options import ArgOptions
    result = ArgOptions()
    result.set_capability("browserName", "headway")
    return result


def session_round(url, kind, page, click=True):
    """Seconds for one session: new session, load, click, one execute_script, quit."""
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.client_config import ClientConfig
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    start = time.monotonic()
    # A bounded wait for each answer: a stuck server fails its row instead of hanging the bench.
    connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=url, timeout=120))
    driver = webdriver.Remote(command_executor=connection, options=options(kind))
    try:
        driver.get(page)
        if click:
            driver.find_element(By.ID, "b").click()
            if driver.execute_script("return document.getElementById('b').textContent") != "pressed":
                raise RuntimeError("the click did not reach the page")
    finally:
        driver.quit()
    return time.monotonic() - start


class Headway:
    """`headway webdriver --port 0` without a DISPLAY (it starts its own Xvfb), with `extra` arguments."""

    def __init__(self, headway, env, max_sessions, extra=()):
        self.proc = subprocess.Popen([str(headway), "webdriver", "--port", "0", "--max-sessions", str(max_sessions),
                                      *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith("Listening on http://"):
            self.stop()
            error = self.proc.stderr.read().strip().splitlines()
            raise RuntimeError(f"headway webdriver did not start: {line.strip()!r} {(error or [''])[-1][:200]}")
        self.url = line.split()[-1]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class WebKit:
    """WebKitWebDriver under xvfb-run on a free port (its own process group, stopped as one)."""

    def __init__(self):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.proc = subprocess.Popen(["xvfb-run", "-a", "WebKitWebDriver", f"--port={port}"], start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/status", timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("WebKitWebDriver did not answer /status within 10 s")

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def scenario_suite(url, kind):
    """Seconds for Headway's Selenium scenario suite, whole, against the server at url (one run)."""
    suite = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "WebDriver"
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", str(suite), "-p", "test_*.py"],
                          env=dict(os.environ, WEBDRIVER_URL=url, WEBDRIVER_BROWSER=kind),
                          capture_output=True, text=True, timeout=1200)
    wall = time.monotonic() - start
    last = (done.stderr.strip().splitlines() or [""])[-1]
    note(f"webdriver: the scenario suite on {kind}: {wall:.1f} s, {last}")
    if kind == "headway" and done.returncode != 0:
        raise RuntimeError(f"the scenario suite failed on headway: {last}")
    return wall


def back_to_back(url, kind, page, n):
    """Mean seconds a round for n session rounds one after another, with nothing between them."""
    start = time.monotonic()
    for _ in range(n):
        session_round(url, kind, page)
    return (time.monotonic() - start) / n


def concurrently(url, kind, page, n):
    """Wall seconds for n session rounds in n threads at once."""
    errors = []

    def one():
        try:
            session_round(url, kind, page)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
    threads = [threading.Thread(target=one) for _ in range(n)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise RuntimeError(f"{len(errors)} of {n} concurrent sessions failed: {errors[0]}")
    return time.monotonic() - start


def rows(headway, runs, smoke, with_peers, env):
    try:
        import selenium  # noqa: F401
    except ImportError:
        note("webdriver: python3 cannot import selenium (run scripts/setup); section skipped")
        return [["WebDriver (Selenium)", "not run", "selenium is not installed", "", verdict(False)]], ""
    pages = _PageServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    page = f"http://127.0.0.1:{pages.server_address[1]}/page.html"
    counts = [1, 2] if smoke else [1, 2, 4]
    series = 3 if smoke else 10
    ours, peer, error = {"round": [], "series": [], "fast": []}, {"round": [], "series": []}, None
    webkit = WebKit() if with_peers and shutil.which("WebKitWebDriver") and shutil.which("xvfb-run") else None
    server = fast = None
    try:
        try:
            server = Headway(headway, env, max(counts))
        except Exception as failure:  # noqa: BLE001 - the row says why
            error = str(failure)
            note(f"webdriver: headway side not measured: {error}")
        # One unmeasured round on each server first: both are compared warm.
        if server:
            _guard(lambda: session_round(server.url, "headway", page), ours)
        if webkit:
            _guard(lambda: session_round(webkit.url, "webkit", page), peer, "WebKitWebDriver")
        for i in range(runs):
            note(f"webdriver session round {i + 1}/{runs}")
            if server:
                ours["round"].append(_guard(lambda: session_round(server.url, "headway", page), ours))
            if webkit:
                peer["round"].append(
                    _guard(lambda: session_round(webkit.url, "webkit", page), peer, "WebKitWebDriver"))
        for i in range(runs):
            note(f"webdriver: {series} rounds back to back, series {i + 1}/{runs}")
            if server:
                ours["series"].append(_guard(lambda: back_to_back(server.url, "headway", page, series), ours))
            if webkit:
                peer["series"].append(
                    _guard(lambda: back_to_back(webkit.url, "webkit", page, series), peer, "WebKitWebDriver"))
        if not smoke:
            note("webdriver: Headway's Selenium scenario suite, whole, on each server")
            if server:
                ours["suite"] = [_guard(lambda: scenario_suite(server.url, "headway"), ours)]
            if webkit:
                peer["suite"] = [_guard(lambda: scenario_suite(webkit.url, "webkit"), peer, "WebKitWebDriver")]
        for n in counts:
            note(f"webdriver: {n} sessions")
            ours[n] = [_guard(lambda: concurrently(server.url, "headway", page, n), ours) for _ in range(runs)] \
                if server else []
            peer[n] = [_guard(lambda: sum(session_round(webkit.url, "webkit", page) for _ in range(n)), peer,
                              "WebKitWebDriver") for _ in range(runs)] if webkit else []
        if server:
            # The same series on a server whose sessions draw without compositing (its own warm
            # browsers), after every row of the composited server, which stops first.
            server.stop()
            server = fast = _guard(lambda: Headway(headway, env, max(counts), ["--no-compositing"]), ours)
            if fast:
                _guard(lambda: session_round(fast.url, "headway", page), ours)  # unmeasured, as above
            for i in range(runs):
                note(f"webdriver: {series} rounds back to back, compositing off, series {i + 1}/{runs}")
                if fast:
                    ours["fast"].append(_guard(lambda: back_to_back(fast.url, "headway", page, series), ours))
    finally:
        if webkit:
            webkit.stop()
        if server:
            server.stop()
    sessions, early = (20, 5) if smoke else (1000, 50)
    long_run = long_run_rows(headway, env, page, sessions, early) if not error else [
        [f"WebDriver long run: tree RSS after {early} and after {sessions} sessions", "not measured", error,
         "≤ 10% growth", verdict(False)]]
    pages.shutdown()
    # A row whose headway figures are missing says why: the server did not start, or the first failure.
    error = error or ours.get("error")
    table = [_row("WebDriver: one session round (new session, load, click, execute_script, quit) with Selenium",
                  ours["round"], peer["round"], error, peer.get("error"))]
    table += [_row(f"WebDriver: one round back to back with the last (mean of {series} in a row)",
                   ours["series"], peer["series"], error, peer.get("error"))]
    table += [_row(f"WebDriver: the same, compositing off (headway webdriver --no-compositing)",
                   ours["fast"], peer["series"], error, peer.get("error"), target=0.3)]
    if not smoke:
        table += [_row("WebDriver: Headway's Selenium scenario suite (Tests/WebDriver), whole; WebKitWebDriver skips "
                       "the tests docs/webdriver-reference.md lists", ours.get("suite", []), peer.get("suite", []),
                       error, peer.get("error"), target=0.35)]
    table += [_row(f"WebDriver: {n} session rounds, at once on headway, one after another on WebKitWebDriver",
                   ours[n], peer[n], error, peer.get("error")) for n in counts]
    per_run = "WebDriver per run (s): " + "; ".join(
        f"{side} {key} " + ", ".join(f"{x:.2f}" for x in values if x is not None)
        for side, data in [("headway", ours), ("WebKitWebDriver", peer)]
        for key, values in data.items() if isinstance(values, list))
    return table + long_run, per_run


def _guard(measure, ours, side="headway webdriver"):
    """The measurement, or None with the first error kept in ours["error"] (ours: either side's figures)."""
    try:
        return measure()
    except Exception as failure:  # noqa: BLE001 - the row says why
        message = f"{side} failed: {_first_line(failure)}"
        ours.setdefault("error", message)
        note(f"webdriver: {message}")
        return None


def _first_line(failure):
    """An exception's message, without Selenium's link to its troubleshooting page, at most 200 characters."""
    return str(failure).splitlines()[0].split("; For documentation")[0][:200] if str(failure) else repr(failure)


def _row(what, ours, peer, error, peer_error=None, target=0.2):
    peer = [x for x in peer if x is not None]
    if not ours or None in ours:
        reference = f"; WebKitWebDriver {median(peer) * 1000:.0f} ms" if peer else ""
        return [what, "not measured", (error or "no headway figures") + reference, f"≤ {target}×", verdict(False)]
    if not peer:
        return [what, f"{median(ours) * 1000:.0f} ms", peer_error or "no peer", f"≤ {target}×", ""]
    ratio = median(ours) / median(peer)
    return [what, f"{median(ours) * 1000:.0f} ms", f"{ratio:.2f}× WebKitWebDriver ({median(peer) * 1000:.0f} ms)",
            f"≤ {target}×", verdict(ratio <= target)]


def long_run_rows(headway, env, page, sessions, early):
    """One headway server, `sessions` rounds of new session, load, quit: tree RSS after `early` and at the end."""
    what = f"WebDriver long run: tree RSS after {early} and after {sessions} sessions (new session, load, quit)"
    try:
        server = Headway(headway, env, 1)
    except Exception as failure:  # noqa: BLE001 - the row says why
        return [[what, "not measured", str(failure), "≤ 10% growth", verdict(False)]]
    try:
        # The idle engine: the server with its one warm browser, before any session.
        time.sleep(2)
        idle = [_settled_rss(server.proc.pid), _settled_rss(server.proc.pid, "Pss")]
        first = None
        for i in range(sessions):
            if i % 100 == 0:
                note(f"webdriver long run {i}/{sessions}")
            session_round(server.url, "headway", page, click=False)
            if i + 1 == early:
                first = _settled_rss(server.proc.pid)
        last = _settled_rss(server.proc.pid)
    except Exception as failure:  # noqa: BLE001 - the row says why
        return [[what, "not measured", f"headway webdriver failed: {_first_line(failure)}",
                 "≤ 10% growth", verdict(False)]]
    finally:
        server.stop()
    growth = last / first - 1
    return [["WebDriver: an idle server with one warm browser (tree RSS; proportional, PSS)",
             f"{idle[0] / 1024:.0f} MiB; PSS {idle[1] / 1024:.0f} MiB", "", "", ""],
            [what, f"{first / 1024:.0f} → {last / 1024:.0f} MiB", f"{growth * 100:+.1f}%", "≤ 10% growth",
             verdict(growth <= 0.10)]]


def _settled_rss(pid, field="VmRSS"):
    """Tree RSS once the last session's processes have gone and the pool's browser is warm: a sample
    right after Delete Session catches processes coming and going (it read -21% and +42% for the same build).
    The median of three samples, 2 s after the round and 0.5 s apart."""
    time.sleep(2)
    samples = []
    for _ in range(3):
        samples.append(benchlib.tree_rss_kib(pid, field))
        time.sleep(0.5)
    return median(samples)
