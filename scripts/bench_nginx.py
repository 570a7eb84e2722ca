"""nginx for scripts/bench: Debian's nginx on a free loopback port from a private config, with the
settings a production site has (gzip with Vary, ETags, max-age) and one JSON line per request in
its access log."""
import ctypes, json, os, pathlib, shutil, signal, socket, subprocess, tempfile, time

from benchlib import fail

NGINX_CONFIG = """daemon off;
master_process off;
pid {dir}/nginx.pid;
error_log {dir}/error.log notice;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path {dir}/temp/body;
    proxy_temp_path {dir}/temp/proxy;
    fastcgi_temp_path {dir}/temp/fastcgi;
    uwsgi_temp_path {dir}/temp/uwsgi;
    scgi_temp_path {dir}/temp/scgi;
    log_format bench escape=json '{{"method":"$request_method","uri":"$request_uri","status":$status,'
        '"bytesSent":$body_bytes_sent,"userAgent":"$http_user_agent"}}';
    access_log {dir}/access.log bench;
    sendfile on;
    gzip on;
    gzip_vary on;
    gzip_min_length 20;
    gzip_types text/css application/javascript text/javascript image/svg+xml application/json text/plain;
    etag on;
    server {{ listen 127.0.0.1:{port}; root "{root}"; expires 300s; {limit} }}
}}
"""


class Nginx:
    """nginx serving `root`, each response at `limit_rate` (e.g. "625k", about 5 Mbit/s) if given.
    Stopped on leaving the `with` block; it also gets SIGKILL if this process dies first."""

    def __init__(self, root, limit_rate=None):
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.access(binary, os.X_OK):
            fail("nginx is not installed; scripts/setup installs Debian's nginx-light")
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="headway-bench-nginx-"))
        (self.dir / "temp").mkdir()
        for _ in range(5):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            conf = self.dir / "nginx.conf"
            conf.write_text(NGINX_CONFIG.format(dir=self.dir, port=port, root=pathlib.Path(root).resolve(),
                                                limit=f"limit_rate {limit_rate};" if limit_rate else ""))
            if self._launch(binary, conf):
                self.url = f"http://127.0.0.1:{port}/"
                return
            if "Address already in use" not in self.logs():
                break
        logs = self.logs()
        shutil.rmtree(self.dir, ignore_errors=True)
        fail(f"nginx did not start: {logs.strip()[-400:]}")

    def _launch(self, binary, conf):
        pid_file = self.dir / "nginx.pid"
        pid_file.unlink(missing_ok=True)
        with open(self.dir / "stderr.log", "w") as errors:
            self.proc = subprocess.Popen([binary, "-c", str(conf), "-p", f"{self.dir}/"], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=errors, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 10
        while self.proc.poll() is None and time.monotonic() < deadline:
            if pid_file.exists() and pid_file.read_text().strip():
                return True  # nginx writes its pid file once its port is bound
            time.sleep(0.01)
        self._stop_process()
        return False

    def logs(self):
        return "".join((self.dir / name).read_text() for name in ["error.log", "stderr.log"] if (self.dir / name).exists())

    def requests(self):
        """Every request logged so far; nginx logs one when it has finished answering it."""
        log = self.dir / "access.log"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    def requests_after(self, mark, quiet=0.5, timeout=10):
        """The requests logged after the first `mark`, once the log has not grown for `quiet` s."""
        deadline, last, since = time.monotonic() + timeout, -1, time.monotonic()
        while time.monotonic() < deadline:
            count = len(self.requests())
            if count != last:
                last, since = count, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
            time.sleep(0.05)
        return self.requests()[mark:]

    def _stop_process(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._stop_process()
        shutil.rmtree(self.dir, ignore_errors=True)


def _die_with_parent():
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
