"""Shared fixtures for the WebDriver scenario suite.

The suite runs against any W3C WebDriver server: WEBDRIVER_URL (e.g. http://127.0.0.1:4444) and
WEBDRIVER_BROWSER, which chooses the capabilities: "headway" or "webkit" (WebKitWebDriver, the
reference); "chromium" (chromedriver) only cross-checks the suite (docs/webdriver-reference.md).
Test pages come from a loopback http.server thread started here. With NGINX_URL set, the nginx test
loads the same pages from that server; NGINX_URL=auto starts a private nginx for it.
"""
import functools
import json
import http.server
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.options import ArgOptions
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.remote_connection import RemoteConnection

import pages

URL = os.environ.get("WEBDRIVER_URL", "http://127.0.0.1:4444")
BROWSER = os.environ.get("WEBDRIVER_BROWSER", "headway")
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


def options():
    """The capabilities WEBDRIVER_BROWSER asks for, as Selenium options."""
    if BROWSER == "webkit":
        from selenium.webdriver.webkitgtk.options import Options
        result = Options()
        result.binary_location = MINIBROWSER
        # The arguments given replace WebKitWebDriver's defaults, so --automation must be among them.
        result.add_argument("--automation")
        return result
    if BROWSER == "chromium":
        from selenium.webdriver.chrome.options import Options
        result = Options()
        result.binary_location = "/usr/bin/chromium"
        result.add_argument("--headless=new")
        result.add_argument("--no-sandbox")
        return result
    if BROWSER != "headway":
        raise SystemExit(f"WEBDRIVER_BROWSER must be headway or webkit, not {BROWSER!r}")
    result = ArgOptions()
    result.set_capability("browserName", "headway")
    result.set_capability("headway:options", {})
    return result


def new_driver(**capabilities):
    """A new session on the server under test (extra capabilities merged in)."""
    chosen = options()
    for key, value in capabilities.items():
        chosen.set_capability(key, value)
    # A RemoteConnection built from a ClientConfig: Selenium 4.51 warns (deprecated) when given the URL itself.
    # Every answer within 300 s (the default is to wait forever): a stuck server fails, never hangs.
    connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=URL, timeout=300))
    return webdriver.Remote(command_executor=connection, options=chosen)


def webkit_differs(reason):
    """Skips the test with `reason` only against WebKitWebDriver; against headway it always runs.

    Each use documents a case where the reference differs from the spec (docs/webdriver-reference.md).
    """
    def decorate(test):
        if BROWSER == "webkit":
            return unittest.skip(f"WebKitWebDriver differs: {reason}")(test)
        return test
    return decorate


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        path = self.path.split("?")[0]
        if path.startswith("/slow"):
            time.sleep(float(self.path.split("=")[-1]) if "=" in self.path else 5)
        body = pages.PAGES.get(path)
        if path == "/echo":  # the request's headers, as JSON
            body = json.dumps({name.lower(): value for name, value in self.headers.items()})
        if path == "/auth" and self.headers.get("Authorization") != "Basic YWRhOmxvdmVsYWNl":  # ada:lovelace
            data = b"<title>Unauthorized</title>"
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="headway"')
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if path == "/auth":
            body = "<title>Signed in</title>"
        if path == "/trickle":  # the headers at once, the body a second later
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.flush()
            time.sleep(1)
            self.wfile.write(b"done")
            return
        status = 200 if body is not None else 404
        data = (body if body is not None else "<title>Not found</title>").encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser that went away is no error
            super().handle_error(request, client_address)


@functools.lru_cache(maxsize=None)
def page_server():
    """The base URL (no trailing slash) of the loopback server for pages.PAGES, started once."""
    server = _Server(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


@functools.lru_cache(maxsize=None)
def nginx_server():
    """The base URL of nginx serving pages.PAGES: NGINX_URL, or with NGINX_URL=auto a private nginx."""
    given = os.environ.get("NGINX_URL", "")
    if given != "auto":
        return given.rstrip("/")
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if binary is None:
        raise RuntimeError("NGINX_URL=auto needs nginx (package nginx-light; run scripts/setup)")
    directory = tempfile.mkdtemp(prefix="webdriver-nginx-")
    root = os.path.join(directory, "root")
    for path, body in pages.PAGES.items():
        target = os.path.join(root, path.lstrip("/") or "index.html")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as file:
            file.write(body)
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    temp = os.path.join(directory, "temp")
    os.makedirs(temp)
    config = os.path.join(directory, "nginx.conf")
    with open(config, "w") as file:
        file.write(f"""daemon off; master_process off; pid {directory}/nginx.pid;
error_log {directory}/error.log notice; events {{ worker_connections 64; }}
http {{ default_type text/html; access_log off; client_body_temp_path {temp}/body;
proxy_temp_path {temp}/proxy; fastcgi_temp_path {temp}/fastcgi; uwsgi_temp_path {temp}/uwsgi;
scgi_temp_path {temp}/scgi; server {{ listen 127.0.0.1:{port}; root {root}; gzip on; gzip_types text/html;
location = /title.html {{ add_header Set-Cookie "served=nginx; Path=/"; }} }} }}
""")
    process = subprocess.Popen([binary, "-p", directory, "-e", f"{directory}/error.log", "-c", config],
                               stderr=subprocess.DEVNULL)
    import atexit

    def stop():
        # SIGTERM first; a parent may have left it blocked (seen under `swift test`), so then SIGKILL.
        process.terminate()
        try:
            process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=3)
        shutil.rmtree(directory, ignore_errors=True)

    atexit.register(stop)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/title.html", timeout=1).read()
            return base
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the private nginx did not answer within 5 s")


class SessionCase(unittest.TestCase):
    """One WebDriver session for the whole class (sessions are expensive); `page(name)` is a URL."""

    driver = None

    @classmethod
    def setUpClass(cls):
        cls.base = page_server()
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        if cls.driver is not None:
            cls.driver.quit()

    def setUp(self):
        self.driver.implicitly_wait(0)

    def page(self, name):
        return f"{self.base}/{name}"

    def open(self, name):
        self.driver.get(self.page(name))
        return self.driver


def png_pixel(data, x, y):
    """The (red, green, blue) of pixel (x, y) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    import struct
    import zlib
    width, height, depth, color = struct.unpack(">IIBB", data[16:26])
    if depth != 8 or color not in (2, 6):
        raise ValueError(f"png_pixel reads 8-bit RGB(A) PNGs, not depth {depth} color type {color}")
    size = 4 if color == 6 else 3
    compressed, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            compressed += data[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride, previous = zlib.decompress(compressed), width * size, bytearray(width * size)
    for row in range(y + 1):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up, corner = previous[i], previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        previous = line
    return tuple(previous[x * size:x * size + 3])
