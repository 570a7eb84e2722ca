"""The booster rows of scripts/bench behind nginx: a page prefetched from the page that links to
it, at about 5 Mbit/s (nginx `limit_rate 625k`), against the zero-network limit, the same page
loaded cold by WebKit's own stack from an nginx with no limit. Target: prefetched <= 1.3 x limit
+ 50 ms, with the page served whole from the prefetch cache (nothing fetched, its HTML asked for
once, by the prefetch).

Two pages: the demo site's article, prefetched from its index, and chapter 38 of a book whose
table of contents links 40 chapters, prefetched from the contents page.
"""
import benchlib
from bench_nginx import Nginx
from benchlib import median, note, verdict

CHAPTERS = 40
FAR = 38


def write_book(site):
    """A table of contents with 40 chapter links; each chapter has the book's stylesheet and
    script and a figure of its own."""
    folder = site / "book"
    folder.mkdir(exist_ok=True)
    (folder / "book.css").write_text("body { font: 18px/1.5 serif; max-width: 40em; margin: auto; }\n" * 8)
    (folder / "book.js").write_text("document.documentElement.dataset.ready = 'yes';\n")
    text = "<p>" + "A chapter of a book served by a production web server, with its own figure. " * 20 + "</p>"
    links = "".join(f'<li><a href="chapter-{n}.html">Chapter {n}</a></li>' for n in range(1, CHAPTERS + 1))
    (folder / "index.html").write_text('<!doctype html><html><head><meta charset="utf-8"><title>Contents</title>'
                                       f'<link rel="stylesheet" href="book.css"></head><body><h1>Contents</h1><ol>{links}</ol>')
    for n in range(1, CHAPTERS + 1):
        (folder / f"figure-{n}.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#{n * 5:02x}6699"/>'
            + "".join(f'<circle cx="{10 + k * 7}" cy="{(k * n) % 200}" r="5"/>' for k in range(40)) + "</svg>")
        (folder / f"chapter-{n}.html").write_text(
            f'<!doctype html><html><head><meta charset="utf-8"><title>Chapter {n}</title><link rel="stylesheet" href="book.css">'
            f'<script src="book.js" defer></script></head><body><h1>Chapter {n}</h1>{text}'
            f'<img src="figure-{n}.svg" width="320" height="200">{text}</body></html>')
    return "book/index.html", f"book/chapter-{FAR}.html"


def rows(headway, site, runs):
    pages = [("demo article", "index.html", "articles/article-3.html"), (f"chapter {FAR} of {CHAPTERS}",) + write_book(site)]
    result, per_run = [], []
    with Nginx(site, limit_rate="625k") as slow, Nginx(site) as fast:
        for name, index, page in pages:
            prefetched, limit, whole = [], [], []
            for i in range(runs):
                note(f"booster behind nginx run {i + 1}/{runs}: {name}")
                mark = len(slow.requests())
                # Eager: the row measures a page prefetched from any link (moderate picks the likeliest).
                load = benchlib.load(headway, "--prefetch", "--prefetch-eagerness", "eager", slow.url + index,
                                     slow.url + page)["loads"][1]
                asked = [r for r in slow.requests_after(mark) if r["uri"].split("?")[0] == "/" + page]
                whole.append(load["prefetch"]["fetched"] == 0 and len(asked) == 1)
                prefetched.append(load["timing"]["loadEventEnd"])
                limit.append(benchlib.load(headway, fast.url + page)["loads"][0]["timing"]["loadEventEnd"])
            p, z = median(prefetched), median(limit)
            result += [
                [f"behind nginx at 5 Mbit/s: {name} after prefetch (loadEventEnd)", f"{p:.0f} ms",
                 f"{p / max(z, 1):.2f}× limit; whole from the cache in {sum(whole)}/{runs} runs",
                 "<= 1.3× limit + 50 ms, whole", verdict(p <= 1.3 * z + 50 and all(whole))],
                [f"behind nginx: {name} cold, no limit (zero-network limit)", f"{z:.0f} ms", "1.00", "", ""],
            ]
            per_run.append(f"{name}: prefetched " + ", ".join(f"{x:.0f}" for x in prefetched)
                           + "; limit " + ", ".join(f"{x:.0f}" for x in limit))
    return result, "Behind nginx, per run (ms): " + "; ".join(per_run)
