"""wptserve for the WPT WebDriver tests, run in scripts/wpt's venv: http and https on 127.0.0.1 with the
upstream subtree as document root (static files, *.py handlers, pipes), as wptrunner serves them.

The copy of the subtree keeps upstream's two symbolic links (`print_pdf_runner.html`, `_pdf_js`) as files
that hold their targets; they are served from those targets, as wptrunner serves them.

Usage: serve.py DOC_ROOT HTTP_PORT HTTPS_PORT KEY_FILE CERT_FILE. Prints "ready" once both listen, then
serves until it is killed."""
import os
import sys
import time

from wptserve import handlers, routes, server

root, http_port, https_port, key, certificate = sys.argv[1:6]


def linked(name):
    """The directory a link-file at the root names (its target's directory, for a file)."""
    with open(os.path.join(root, name)) as link:
        target = os.path.join(root, link.read().strip())
    return target if os.path.isdir(target) else os.path.dirname(target)


served = [("GET", "/print_pdf_runner.html", handlers.FileHandler(base_path=linked("print_pdf_runner.html"))),
          ("GET", "/_pdf_js/*", handlers.FileHandler(base_path=linked("_pdf_js"), url_base="/_pdf_js/"))]
servers = [server.WebTestHttpd(host="127.0.0.1", port=int(http_port), doc_root=root, routes=served + routes.routes),
           server.WebTestHttpd(host="127.0.0.1", port=int(https_port), doc_root=root, use_ssl=True,
                               key_file=key, certificate=certificate, routes=served + routes.routes)]
for httpd in servers:
    httpd.start()
print("ready", flush=True)
while True:
    time.sleep(3600)
