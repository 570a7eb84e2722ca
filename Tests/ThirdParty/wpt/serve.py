"""wptserve for the WPT WebDriver tests, run in scripts/wpt's venv: http and https on 127.0.0.1 with the
upstream subtree as document root (static files, *.py handlers, pipes), as wptrunner serves them.

Usage: serve.py DOC_ROOT HTTP_PORT HTTPS_PORT KEY_FILE CERT_FILE. Prints "ready" once both listen, then
serves until it is killed."""
import sys
import time

from wptserve import server

root, http_port, https_port, key, certificate = sys.argv[1:6]
servers = [server.WebTestHttpd(host="127.0.0.1", port=int(http_port), doc_root=root),
           server.WebTestHttpd(host="127.0.0.1", port=int(https_port), doc_root=root, use_ssl=True,
                               key_file=key, certificate=certificate)]
for httpd in servers:
    httpd.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
