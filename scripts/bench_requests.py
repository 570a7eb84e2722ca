"""The "requests per page" rows of scripts/bench: the same page loaded by `headway load` and by
Selenium + WebKitWebDriver (MiniBrowser), counted in the access log of an nginx that serves the
page as production would (gzip, Vary, ETags, max-age).

Two pages: the demo site's article, and a book chapter in the style of real sites, which repeats
its logo and figures and links its stylesheet twice. A browser with a memory cache asks for each
URL once per page. Counts are raw, the page icon included (both ask for /favicon.ico), and the
paths whose counts differ are listed.
"""
import collections, struct, subprocess, sys, zlib

import benchlib
from bench_nginx import Nginx
from benchlib import median, note, verdict

ARTICLE = "articles/article-3.html"
CHAPTER = "chapter/chapter-7.html"


def png(width, height, rgb):
    """A small PNG with a gradient, so that each image has its own bytes."""
    rows = b"".join(b"\0" + bytes(c for x in range(width) for c in (rgb[0], (rgb[1] + x) % 256, (rgb[2] + y) % 256))
                    for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def write_chapter(site):
    """A book chapter: the logo three times, three figures used two or three times each, a note
    icon on every callout, one stylesheet linked twice and one script."""
    folder = site / "chapter"
    folder.mkdir(exist_ok=True)
    (folder / "logo.png").write_bytes(png(120, 40, (20, 60, 140)))
    for n, rgb in enumerate([(200, 80, 40), (40, 160, 90), (120, 40, 160)], 1):
        (folder / f"figure-{n}.png").write_bytes(png(320, 200, rgb))
    (folder / "note.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">'
                                     '<circle cx="8" cy="8" r="7" fill="#c90"/></svg>')
    (folder / "book.css").write_text("body { font: 18px/1.5 serif; max-width: 40em; margin: auto; }\n"
                                     ".note { padding-left: 24px; } figure img { max-width: 100%; }\n" * 4)
    (folder / "book.js").write_text("document.documentElement.dataset.ready = 'yes';\n")
    text = "<p>" + "The chapter goes on about caches, requests and the pages that repeat their images. " * 6 + "</p>"

    def figure(n):
        return f'<figure><img src="figure-{n}.png" width="320" height="200" alt="Figure {n}"></figure>'

    def note_box(words):
        return f'<p class="note"><img src="note.svg" width="16" height="16" alt="">{words}</p>'
    body = [
        '<header><img src="logo.png" width="120" height="40" alt="Press"></header>', "<h1>Chapter 7</h1>",
        text, figure(1), text, note_box("Figure 1 again, below."), figure(1), text, figure(2), text,
        note_box("Compare figures 2 and 3."), figure(3), figure(2), text, figure(1), figure(3),
        note_box("That's all."), '<aside><img src="logo.png" width="60" height="20" alt="">About the press</aside>',
        '<footer><img src="logo.png" width="120" height="40" alt="Press"></footer>',
    ]
    (folder / "chapter-7.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chapter 7</title>'
        '<link rel="stylesheet" href="book.css"><link rel="stylesheet" href="book.css">'
        '<script src="book.js" defer></script></head><body>' + "".join(body) + "</body></html>")
    return CHAPTER


def counted(server, args, env=None):
    """Runs one load and returns {path: requests} from the log lines it caused."""
    mark = len(server.requests())
    result = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    if result.returncode != 0:
        benchlib.fail(f"{' '.join(map(str, args))} failed ({result.returncode}): {result.stderr.strip()[-400:]}")
    return collections.Counter(r["uri"].split("?")[0] for r in server.requests_after(mark))


def differences(ours, theirs):
    paths = sorted(set(ours) | set(theirs))
    return ", ".join(f"{p} {ours[p]} vs {theirs[p]}" for p in paths if ours[p] != theirs[p]) or "none"


def rows(headway, site, runs, with_peers, env, peer):
    pages = [("demo article", ARTICLE), ("book chapter (repeated logo, figures, stylesheet)", write_chapter(site))]
    result = []
    with Nginx(site) as server:
        for name, page in pages:
            url = server.url + page
            ours, theirs = [], []
            for i in range(runs):
                note(f"requests per page run {i + 1}/{runs}: {name}")
                ours.append(counted(server, [str(headway), "load", url], env))
                if with_peers:
                    theirs.append(counted(server, ["xvfb-run", "-a", sys.executable, peer, "webkit", url, "document.title"]))
            h = median([sum(c.values()) for c in ours])
            if not with_peers:
                result.append([f"requests per page: {name}, headway load", f"{h:.0f}", "", "", ""])
                continue
            p = median([sum(c.values()) for c in theirs])
            detail = f"paths that differ (headway vs peer): {differences(ours[0], theirs[0])}"
            totals = {side: [sum(c.values()) for c in counts] for side, counts in [("headway", ours), ("peer", theirs)]}
            if any(len(set(t)) > 1 for t in totals.values()):
                detail += "; per run: " + "; ".join(f"{side} {', '.join(map(str, t))}" for side, t in totals.items())
            result.append([f"requests per page: {name}, headway load vs Selenium + WebKitWebDriver",
                           f"{h:.0f} vs {p:.0f}", detail, "equal", verdict(h == p)])
    return result
