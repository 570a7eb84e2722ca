"""The reading-path row of scripts/bench: a book behind nginx (gzip with Vary, ETags, max-age),
read along its chapters' <link rel=next>, each chapter with a table of contents of 40 links, a
shared stylesheet and script and a figure of its own. The same path is loaded with
--prefetch-eagerness moderate (the default) and eager, alternately. For each: the next chapters
served from the booster (hits), and the bytes prefetched per byte the chapters used from the
prefetch (per load: bytesPrefetched before each next chapter / its bytesUsed, summed over the
path). Target for moderate: every next chapter a hit,
at most 4 bytes prefetched per byte used.
"""
import benchlib
from bench_nginx import Nginx
from benchlib import median, note, verdict

CONTENTS = 40


def write_book(site, chapters):
    """40 chapters, each linking all of them from a table of contents and the next by rel=next."""
    folder = site / "reading"
    folder.mkdir(exist_ok=True)
    (folder / "book.css").write_text("body { font: 18px/1.5 serif; max-width: 40em; margin: auto; }\n" * 40)
    (folder / "book.js").write_text("document.documentElement.dataset.ready = 'yes';\n" + "// shared\n" * 400)
    toc = "".join(f'<li><a href="ch{n}.html">Chapter {n}</a></li>' for n in range(1, CONTENTS + 1))
    for n in range(1, CONTENTS + 1):
        text = "<p>" + f"Chapter {n} of a book served by a production web server. " * 40 + "</p>"
        following = f'<link rel="next" href="ch{n + 1}.html">' if n < CONTENTS else ""
        (folder / f"figure-{n}.svg").write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#{n * 5:02x}6699"/>'
            + "".join(f'<circle cx="{10 + k * 7}" cy="{(k * n) % 200}" r="5"/>' for k in range(40)) + "</svg>")
        (folder / f"ch{n}.html").write_text(
            f'<!doctype html><html><head><meta charset="utf-8"><title>Chapter {n}</title>{following}'
            f'<link rel="stylesheet" href="book.css"><script src="book.js" defer></script></head>'
            f'<body><nav><ol>{toc}</ol></nav><h1>Chapter {n}</h1>{text}<img src="figure-{n}.svg" width="320" height="200">'
            f'{text}</body></html>')
    return [f"reading/ch{n}.html" for n in range(1, chapters + 1)]


def rows(headway, site, runs, chapters):
    path = write_book(site, chapters)
    figures = {"moderate": ([], []), "eager": ([], [])}
    with Nginx(site) as nginx:
        for i in range(runs):
            for mode in figures:
                note(f"reading path run {i + 1}/{runs}: {mode}")
                out = benchlib.load(headway, "--prefetch", "--prefetch-eagerness", mode, *[nginx.url + p for p in path])
                # Each next chapter: what was prefetched before it (after the previous chapter) and
                # what it used of that. The prefetch after the last chapter serves nothing here.
                steps = [load["prefetch"] for load in out["loads"][1:]]
                figures[mode][0].append(sum(1 for step in steps if step["hit"]))
                prefetched = sum(step["bytesPrefetched"] for step in steps)
                figures[mode][1].append(prefetched / max(1, sum(step["bytesUsed"] for step in steps)))
    steps = chapters - 1
    (mh, mr), (eh, er) = [(min(h), median(r)) for h, r in figures.values()]
    rows = [
        [f"reading path, {chapters} chapters along rel=next (contents of {CONTENTS}): moderate",
         f"{mr:.1f} bytes prefetched per byte used", f"hits {mh}/{steps} (fewest in {runs} runs); eager {er:.1f}",
         "<= 1.5, every next chapter a hit", verdict(mr <= 1.5 and mh == steps)],
        [f"reading path, {chapters} chapters: eager (every link, as before)", f"{er:.1f} bytes prefetched per byte used",
         f"hits {eh}/{steps}", "", ""],
    ]
    per_run = "; ".join(f"{mode}: " + ", ".join(f"{r:.1f}" for r in figures[mode][1]) for mode in figures)
    return rows, "Reading path, bytes prefetched per byte used, per run: " + per_run
