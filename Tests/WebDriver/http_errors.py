"""Plain-HTTP error cases for `headway webdriver` (no Selenium): what malformed, oversized, misrouted
and abandoned requests get, and that the server keeps serving after each.

Run: WEBDRIVER_URL=http://127.0.0.1:PORT python3 Tests/WebDriver/http_errors.py -v
"""
import http.client
import json
import os
import socket
import time
import unittest
import urllib.parse

URL = urllib.parse.urlparse(os.environ.get("WEBDRIVER_URL", "http://127.0.0.1:4444"))
CAPABILITIES = {"capabilities": {"alwaysMatch": {"browserName": "headway", "headway:options": {}}}}
if os.environ.get("WEBDRIVER_BROWSER") == "webkit":  # Only to try the cases against the reference.
    CAPABILITIES = {"capabilities": {"alwaysMatch": {"browserName": "MiniBrowser", "webkitgtk:browserOptions": {
        "binary": "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "args": ["--automation"]}}}}


def request(method, path, body=None, raw=None, timeout=60):
    """(status, decoded JSON or None, content type) for one request on a fresh connection."""
    connection = http.client.HTTPConnection(URL.hostname, URL.port, timeout=timeout)
    try:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        headers = {"Content-Type": "application/json; charset=utf-8"} if data is not None else {}
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
        try:
            decoded = json.loads(text)
        except ValueError:
            decoded = None
        return response.status, decoded, response.getheader("Content-Type", "")
    finally:
        connection.close()


class HTTPErrorTests(unittest.TestCase):
    def assertError(self, answer, status, error):
        code, body, content_type = answer
        self.assertEqual(code, status, body)
        self.assertIn("application/json", content_type)
        self.assertIsInstance(body, dict, "the body is not a JSON object")
        self.assertEqual(set(body), {"value"}, body)
        value = body["value"]
        self.assertEqual(value.get("error"), error, body)
        self.assertIsInstance(value.get("message"), str, body)
        self.assertIsInstance(value.get("stacktrace"), str, body)

    def assertServing(self, old):
        """/status answers, the session `old` answers and ends, and a new session works (one at a time)."""
        code, body, _ = request("GET", "/status", timeout=10)
        self.assertEqual(code, 200)
        self.assertIn("ready", body["value"])
        code, body, _ = request("POST", f"/session/{old}/execute/sync", {"script": "return 7", "args": []})
        self.assertEqual((code, body["value"]), (200, 7))
        self.assertEqual(request("DELETE", f"/session/{old}")[0], 200)
        session = self.new_session()
        code, body, _ = request("POST", f"/session/{session}/execute/sync", {"script": "return 1 + 1", "args": []})
        self.assertEqual((code, body["value"]), (200, 2))

    def new_session(self):
        code, body, _ = request("POST", "/session", CAPABILITIES)
        self.assertEqual(code, 200, body)
        session = body["value"]["sessionId"]
        self.addCleanup(request, "DELETE", f"/session/{session}")
        return session

    def test_malformed_json_is_invalid_argument(self):
        self.assertError(request("POST", "/session", raw=b'{"capabilities": '), 400, "invalid argument")
        session = self.new_session()
        self.assertError(request("POST", f"/session/{session}/url", raw=b"not json"), 400, "invalid argument")
        self.assertError(request("POST", f"/session/{session}/url", raw=b"[1, 2]"), 400, "invalid argument")

    def test_wrong_types_are_invalid_argument(self):
        self.assertError(request("POST", "/session", {"capabilities": 5}), 400, "invalid argument")
        session = self.new_session()
        self.assertError(request("POST", f"/session/{session}/url", {"url": 5}), 400, "invalid argument")
        self.assertError(request("POST", f"/session/{session}/timeouts", {"script": "x"}), 400, "invalid argument")
        self.assertError(request("POST", f"/session/{session}/element", {"using": "css selector"}),
                         400, "invalid argument")
        self.assertError(request("POST", f"/session/{session}/execute/sync", {"script": 1, "args": []}),
                         400, "invalid argument")

    def test_unknown_path_is_unknown_command(self):
        self.assertError(request("GET", "/no/such/endpoint"), 404, "unknown command")
        session = self.new_session()
        self.assertError(request("POST", f"/session/{session}/no-such-command", {}), 404, "unknown command")

    def test_wrong_method_is_unknown_method(self):
        self.assertError(request("DELETE", "/status"), 405, "unknown method")
        session = self.new_session()
        self.assertError(request("PUT", f"/session/{session}/url", {"url": "about:blank"}), 405, "unknown method")

    def test_deleted_session_is_invalid_session_id(self):
        code, body, _ = request("POST", "/session", CAPABILITIES)
        session = body["value"]["sessionId"]
        self.assertEqual(request("DELETE", f"/session/{session}")[0], 200)
        self.assertError(request("GET", f"/session/{session}/url"), 404, "invalid session id")
        self.assertError(request("GET", "/session/not-a-session/title"), 404, "invalid session id")

    def test_huge_body_gets_an_error_and_no_crash(self):
        session = self.new_session()
        size = 100 * 1024 * 1024
        sock = socket.create_connection((URL.hostname, URL.port), timeout=30)
        answered = b""
        try:
            sock.sendall(f"POST /session/{session}/url HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {size}\r\n\r\n".encode())
            chunk = b'{"url": "' + b"a" * (1024 * 1024 - 9)
            try:
                for _ in range(100):
                    sock.sendall(chunk)
                    chunk = b"a" * (1024 * 1024)
            except (BrokenPipeError, ConnectionResetError):
                pass  # The server may answer and close before reading it all.
            try:
                answered = sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                pass
        finally:
            sock.close()
        # Either an error status line, or the server closed the connection (a reset can drop its answer).
        if answered:
            status = int(answered.split(b" ", 2)[1])
            self.assertGreaterEqual(status, 400, answered[:200])
        self.assertServing(session)

    def test_client_that_sends_half_a_body_and_closes(self):
        session = self.new_session()
        sock = socket.create_connection((URL.hostname, URL.port), timeout=10)
        sock.sendall(f"POST /session/{session}/execute/sync HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     "\r\nContent-Length: 1000\r\n\r\n{\"script\": \"ret".encode())
        sock.close()
        self.assertServing(session)

    def test_client_that_closes_during_a_slow_async_script(self):
        session = self.new_session()
        sock = socket.create_connection((URL.hostname, URL.port), timeout=10)
        body = json.dumps({"script": "setTimeout(arguments[0], 3000)", "args": []}).encode()
        sock.sendall(f"POST /session/{session}/execute/async HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        time.sleep(0.5)
        sock.close()
        # The abandoned session answers its next command (after the script finished or was dropped).
        self.assertServing(session)

    def raw_status(self, data):
        """The status of the answer to `data` sent raw on a fresh connection."""
        with socket.create_connection((URL.hostname, URL.port), timeout=30) as sock:
            sock.sendall(data)
            answer = b""
            while b"\r\n" not in answer:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
        return int(answer.split(b" ", 2)[1])

    def test_a_head_over_64_KiB_in_one_write_is_431(self):
        host = f"{URL.hostname}:{URL.port}".encode()
        self.assertEqual(self.raw_status(b"GET /status HTTP/1.1\r\nHost: " + host + b"\r\nX-Long: "
                                         + b"a" * 70000 + b"\r\n\r\n"), 431)
        self.assertEqual(request("GET", "/status")[0], 200)

    def test_two_hosts_or_an_absolute_target_naming_another_host_is_400(self):
        host = f"{URL.hostname}:{URL.port}".encode()
        self.assertEqual(self.raw_status(b"GET /status HTTP/1.1\r\nHost: " + host + b"\r\nHost: " + host
                                         + b"\r\n\r\n"), 400)
        self.assertEqual(self.raw_status(b"GET http://elsewhere.example/status HTTP/1.1\r\nHost: " + host
                                         + b"\r\n\r\n"), 400)
        self.assertEqual(self.raw_status(b"GET http://" + host + b"/status HTTP/1.1\r\nHost: " + host
                                         + b"\r\n\r\n"), 200)


if __name__ == "__main__":
    unittest.main()
