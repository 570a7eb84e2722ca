"""Processes for scripts/third-party-suite: each runs in a session of its own and is stopped with
everything it started (TERM, then KILL); waits are bounded."""
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

PREFIX = "third-party-suite: "


class SuiteError(Exception):
    """A failure the suite reports as one line and exits non-zero for."""


def log(message):
    print(PREFIX + message, file=sys.stderr, flush=True)


def _stat(pid):
    """(session id, start time) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[3]), fields[19]  # fields 6 and 22 of proc(5)
    except (OSError, IndexError, ValueError):
        return None


def _comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def _members(sid):
    """{pid: start time} of the processes in session `sid`."""
    found = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (stat := _stat(int(name))) and stat[0] == sid:
            found[int(name)] = stat[1]
    return found


class Process:
    """A command in a session of its own; stop() ends the session's every process."""

    def __init__(self, name, argv, log_path, stdout=None, stderr=None, env=None, cwd=None, first=None):
        self.name, self.first = name, first  # first: the program that gets SIGTERM before the leader
        self.log_file = open(log_path, "wb")
        try:
            self.popen = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout or self.log_file,
                                          stderr=stderr or self.log_file, env=env, cwd=cwd,
                                          start_new_session=True)
        except OSError as error:
            raise SuiteError(f"cannot start {name}: {error}")

    def stop(self, grace=15):
        sid = self.popen.pid
        seen = _members(sid)
        if self.first:
            for pid in (pid for pid in seen if _comm(pid) == self.first):
                _kill(pid, signal.SIGTERM)
            self._wait(grace)
        self.popen.send_signal(signal.SIGTERM)  # nothing once it has exited
        self._wait(grace)
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            alive = {pid: start for pid, start in {**seen, **_members(sid)}.items()
                     if (stat := _stat(pid)) and stat[1] == start}
            for pid in alive:
                _kill(pid, sig)
            deadline = time.monotonic() + wait
            while alive and time.monotonic() < deadline:
                self.popen.poll()
                alive = {pid: s for pid, s in alive.items() if (stat := _stat(pid)) and stat[1] == s}
                time.sleep(0.1)
            seen = alive
        self.popen.poll()
        self.log_file.close()

    def _wait(self, seconds):
        try:
            self.popen.wait(seconds)
        except subprocess.TimeoutExpired:
            pass


def _kill(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def wait_ready(url, process, within=60):
    """Polls GET /status until it says ready; fails if the server exits or the wait runs out."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise SuiteError(f"{process.name} exited ({process.popen.returncode}) before it was ready; "
                             f"see {process.log_file.name}")
        try:
            with urllib.request.urlopen(url + "/status", timeout=5) as response:
                if json.load(response).get("value", {}).get("ready"):
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    raise SuiteError(f"{process.name} was not ready at {url} within {within} s; see {process.log_file.name}")


def start_headway(binary, log_path, within=120):
    """`headway webdriver --port 0`; returns (process, URL from its `Listening on URL` line)."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}  # its own Xvfb, as in scripts/test
    server = Process("headway webdriver", [binary, "webdriver", "--port", "0"], log_path,
                     stdout=subprocess.PIPE, env=env)
    out, line, deadline = server.popen.stdout, b"", time.monotonic() + within
    try:
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            if not select.select([out], [], [], 0.5)[0]:
                continue
            chunk = os.read(out.fileno(), 1)
            if not chunk:
                break
            line += chunk
        match = re.match(r"Listening on (http://\S+)", line.decode(errors="replace"))
        if not match:
            raise SuiteError(f"headway webdriver did not print `Listening on http://HOST:PORT` within {within} s "
                             f"(it printed {line!r}); see {log_path}")
        server.log_file.write(line)
        threading.Thread(target=_drain, args=(out, server.log_file), daemon=True).start()
        url = match.group(1).rstrip("/")
        wait_ready(url, server)
        return server, url
    except BaseException:
        server.stop()
        raise


def _drain(pipe, sink):
    for chunk in iter(lambda: pipe.read1(65536), b""):
        try:
            sink.write(chunk)
            sink.flush()
        except ValueError:  # closed by stop()
            return


def start_reference(log_path):
    """WebKitWebDriver under xvfb-run on a free loopback port; returns (process, URL)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # WebKitWebDriver is stopped first, so that xvfb-run ends its Xvfb and removes its Xauthority folder.
    server = Process("WebKitWebDriver", ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                                         "WebKitWebDriver", f"--port={port}"], log_path, first="WebKitWebDriver")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, server)
    except BaseException:
        server.stop()
        raise
    return server, url
