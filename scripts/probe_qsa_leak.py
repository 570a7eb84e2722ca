#!/usr/bin/python3
"""WebKitGTK alone, no Headway: does a document stay alive after it is left when a script made a
NodeList with querySelectorAll once it had loaded? Loads a generated page COUNT times in one
ephemeral WebKitWebView (default settings, an offscreen window, as a bare program would) and
prints the process tree's PSS every 50 loads; after each load it evaluates SCRIPT, if given.

Usage (needs python3-gi and gir1.2-webkit2-4.1 from Debian, and a display, e.g. xvfb-run -a):
  xvfb-run -a /usr/bin/python3 scripts/probe_qsa_leak.py 300 "document.querySelectorAll('p').length"
Seen with WebKitGTK 2.50.6 (docs/performance.md), 200 loads: no script, 293 -> 295 MiB; that
script, 348 -> 491 MiB (about 1 MB a load, the page's size); "document.getElementsByTagName('p')
.length" or a TreeWalker with matches() instead, flat.
"""
import http.server, os, sys, threading

import gi
gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import GLib, Gtk, WebKit2  # noqa: E402

PAGE = ("<!doctype html><title>Probe</title>"
        + "".join(f"<p>Paragraph {i} of an article, with some words in it.</p>" for i in range(2000))).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


def tree_pss_mib():
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
                children.setdefault(int(stat[stat.rindex(")") + 2:].split()[1]), []).append(int(entry))
            except OSError:
                pass
    total, todo = 0, [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            total += sum(int(line.split()[1]) for line in open(f"/proc/{pid}/smaps_rollup") if line.startswith("Pss:"))
        except OSError:
            pass
        todo.extend(children.get(pid, []))
    return total // 1024


def main():
    if len(sys.argv) < 2 or not sys.argv[1].isdigit() or not 1 <= int(sys.argv[1]) <= 100_000:
        sys.exit("usage: probe_qsa_leak.py COUNT (1-100000) [SCRIPT]")
    count, script = int(sys.argv[1]), (sys.argv[2] if len(sys.argv) > 2 else None)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    view = WebKit2.WebView.new_with_context(WebKit2.WebContext.new_ephemeral())
    window = Gtk.OffscreenWindow()
    window.set_default_size(1280, 1024)
    window.add(view)
    window.show_all()
    done = [0]

    def next_load(*_):
        if done[0] and done[0] % 50 == 0:
            print(done[0], "loads:", tree_pss_mib(), "MiB", flush=True)
        if done[0] == count:
            Gtk.main_quit()
            return False
        done[0] += 1
        view.load_uri(f"http://127.0.0.1:{server.server_port}/page.html?i={done[0]}")
        return False

    def changed(_, event):
        if event == WebKit2.LoadEvent.FINISHED:
            if script:
                view.evaluate_javascript(script, -1, None, None, None, lambda *_: GLib.idle_add(next_load), None)
            else:
                GLib.idle_add(next_load)

    view.connect("load-changed", changed)
    GLib.timeout_add_seconds(max(60, count), lambda: sys.exit("probe: timed out") or False)
    next_load()
    Gtk.main()
    server.shutdown()


if __name__ == "__main__":
    main()
