"""What scripts/wpt runs the WPT WebDriver tests in: the pinned venv, the test host names, a self-signed
certificate, wptserve, and one pytest run of a module against a headway webdriver of its own."""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from thirdparty_procs import Process, SuiteError, log, start_headway
from thirdparty_setup import make_venv, run

HOSTS = [f"{sub}{domain}" for domain in ("web-platform.test", "not-web-platform.test")
         for sub in ("", "www.", "www1.", "www2.", "xn--n8j6ds53lwwkrqhv28a.", "xn--lve-6lad.")]


def units(root):
    """Every module: bidi/NAME and classic/NAME, as folders of webdriver/tests."""
    tests = root / "webdriver/tests"
    return [f"{kind}/{d.name}" for kind in ("bidi", "classic") for d in sorted((tests / kind).iterdir())
            if d.is_dir() and d.name not in ("support", "__pycache__")]


def collect_tests(root, module):
    """The module's test files, relative to root, by WPT's manifest rule: every .py but __init__.py,
    conftest.py, _*.py and what is under a support folder."""
    base = root / "webdriver/tests" / module
    return sorted(str(p.relative_to(root)) for p in base.rglob("*.py")
                  if p.name not in ("__init__.py", "conftest.py") and not p.name.startswith("_")
                  and "support" not in p.relative_to(base).parts[:-1])


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _ensure_hosts():
    missing = []
    for name in HOSTS:
        try:
            if socket.gethostbyname(name) != "127.0.0.1":
                missing.append(name)
        except OSError:
            missing.append(name)
    if not missing:
        return
    log(f"adding {len(missing)} test host names to /etc/hosts (127.0.0.1)")
    lines = "".join(f"127.0.0.1 {name}\n" for name in missing)
    if os.geteuid() == 0:
        with open("/etc/hosts", "a") as hosts:
            hosts.write(lines)
    else:
        done = subprocess.run(["sudo", "-n", "tee", "-a", "/etc/hosts"], input=lines, text=True,
                              capture_output=True, timeout=30)
        if done.returncode != 0:
            raise SuiteError("cannot add the test host names to /etc/hosts: run as root or with sudo, or add "
                             f"127.0.0.1 for {', '.join(missing)}")


class Environment:
    """The venv, host names, certificate and wptserve, for the runs of one scripts/wpt; a context manager."""

    def __init__(self, cache, headway, harness):
        if not os.access(headway, os.X_OK):
            raise SuiteError(f"{headway} is not an executable; build it first (swift build)")
        if not shutil.which("openssl"):
            raise SuiteError("openssl is not on PATH (Debian package openssl; scripts/setup installs it)")
        self.cache, self.headway, self.harness = cache, headway, harness
        self.root = harness / "upstream"
        (cache / "results").mkdir(parents=True, exist_ok=True)
        self.python = make_venv(cache / "venv", sys.executable, harness / "requirements.txt")
        _ensure_hosts()
        self.key, self.certificate = cache / "key.pem", cache / "certificate.pem"
        if not self.certificate.exists():
            names = ",".join(f"DNS:{name}" for name in HOSTS)
            run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj",
                 "/CN=web-platform.test", "-addext", f"subjectAltName={names}", "-keyout", str(self.key),
                 "-out", str(self.certificate)], "openssl req (the test certificate)", 120)
        self.ports = {"http": _free_port(), "https": _free_port()}
        self.server = None

    def __enter__(self):
        self.server = Process("wptserve", [str(self.python), str(self.harness / "serve.py"), str(self.root),
                                           str(self.ports["http"]), str(self.ports["https"]), str(self.key),
                                           str(self.certificate)],
                              self.cache / "results/wptserve.log", stdout=subprocess.PIPE)
        line = self.server.popen.stdout.readline()
        if line.strip() != b"ready":
            self.server.stop()
            raise SuiteError(f"wptserve did not start; see {self.cache / 'results/wptserve.log'}")
        return self

    def __exit__(self, *_):
        self.server.stop(grace=5)

    def config(self, url):
        """The file the tests' fixtures read (WDSPEC_CONFIG_FILE at this commit)."""
        host, port = re.match(r"http://(.+):(\d+)$", url).groups()
        domains = {alias: {sub.rstrip("."): f"{sub}{domain}" for sub in ("", "www.", "www1.", "www2.",
                                                                         "xn--n8j6ds53lwwkrqhv28a.", "xn--lve-6lad.")}
                   for alias, domain in (("", "web-platform.test"), ("alt", "not-web-platform.test"))}
        return {"host": host, "port": int(port), "capabilities": {"acceptInsecureCerts": True},
                "timeout_multiplier": 1, "webdriver": {"binary": str(self.headway), "args": ["webdriver"]},
                "wptserve": {"browser_host": "web-platform.test", "domains": domains,
                             "ports": {scheme: [port] for scheme, port in self.ports.items()},
                             "doc_root": str(self.root)}}


def run_module(environment, module, tests, timeout, name=None):
    """One pytest of `tests` (files or node ids) against a fresh headway webdriver: {node id: (outcome, message)}."""
    name = (name or module).replace("/", "-")
    out = environment.cache / "results"
    server, url = start_headway(str(environment.headway), out / f"{name}.headway.log")
    config, results = out / f"{name}.config.json", out / f"{name}.results.json"
    config.write_text(json.dumps(environment.config(url)))
    results.unlink(missing_ok=True)
    root = environment.root
    env = dict(os.environ, WDSPEC_CONFIG_FILE=str(config), WPT_RESULTS=str(results), PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=f"{root / 'tools/webdriver'}:{environment.harness}")
    bound = 600 + 60 * len(tests)
    pytest = Process(f"pytest ({module})", [str(environment.python), "-m", "pytest", "-p", "no:cacheprovider",
                                            "-p", "results_plugin", "-v", f"--timeout={timeout}",
                                            f"--rootdir={root}", *tests], out / f"{name}.log", cwd=root, env=env)
    try:
        start = last = time.monotonic()
        while pytest.popen.poll() is None:
            time.sleep(1)
            if time.monotonic() - start > bound:
                raise SuiteError(f"{module}: pytest did not finish within {bound} s; see {out / name}.log")
            if time.monotonic() - last > 60:
                last = time.monotonic()
                log(f"{module}: {_done(out / f'{name}.log')} tests done")
    finally:
        pytest.stop(grace=5)
        server.stop()
    if pytest.popen.returncode not in (0, 1) or not results.exists():
        raise SuiteError(f"{module}: pytest exited {pytest.popen.returncode} (not a test failure); "
                         f"see {out / name}.log")
    return {test: tuple(value) for test, value in json.loads(results.read_text()).items()}


def _done(log_path):
    try:
        return len(re.findall(rb" (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)", log_path.read_bytes()))
    except OSError:
        return 0
