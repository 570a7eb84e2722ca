"""The prerender pool's rows for scripts/bench: the perceived time of a navigation to a page the
booster prerendered, against the same article cold and prefetched, at 5 Mbit/s + 50 ms; and
long-run memory with a pool of 5 hidden views."""
import json, pathlib, tempfile

import benchlib
from benchlib import median, measured, note, verdict

ARTICLE = "articles/article-3.html"


def rows(headway, site, runs, count, env):
    data = {k: [] for k in ["cold", "prefetched", "prerendered", "prerenderedLoadEvent"]}
    with benchlib.Server(headway, site, "--bandwidth", "5mbit", "--latency", "50ms") as slow:
        index, article = slow.url + "index.html", slow.url + ARTICLE
        for i in range(runs):
            note(f"prerender run {i + 1}/{runs}")
            # `finished` is Headway's clock from the navigation request to the load's end: what a
            # user waits for, whichever way the page got there.
            data["cold"].append(benchlib.load(headway, article)["loads"][0]["timing"]["finished"])
            data["prefetched"].append(benchlib.load(headway, "--prefetch", index, article)["loads"][1]["timing"]["finished"])
            shown = benchlib.load(headway, "--prefetch", "--prerender", "5", index, article)["loads"][1]
            if not shown["prefetch"]["prerendered"]:
                benchlib.fail("the article was not prerendered from the index")
            data["prerendered"].append(shown["timing"]["finished"])
            data["prerenderedLoadEvent"].append(shown["timing"]["loadEventEnd"])
    m = {k: median(v) for k, v in data.items()}
    table = [
        ["article cold at 5 Mbit/s + 50 ms (navigation request to load end)", f"{m['cold']:.0f} ms", "1.00", "", ""],
        ["same after prefetch from the index", f"{m['prefetched']:.0f} ms", f"{m['cold'] / max(m['prefetched'], 0.1):.0f}× faster", "", ""],
        ["same after prefetch + prerender (--prerender 5): shown", f"{m['prerendered']:.1f} ms",
         f"{m['cold'] / max(m['prerendered'], 0.1):.0f}× faster than cold; its hidden load's loadEventEnd {m['prerenderedLoadEvent']:.0f} ms",
         "<= 20 ms, >= 100×", verdict(m["prerendered"] <= 20 and m["cold"] >= 100 * m["prerendered"])],
    ]
    table += memory(headway, site, count, env)
    per_run = "Prerender per run (ms): " + "; ".join(f"{k} " + ", ".join(f"{x:.1f}" for x in v) for k, v in data.items())
    return table, per_run


def chain_site(root):
    """20 small pages, each linking to the next six (cyclically), with a stylesheet and an image:
    loading them in order makes every load after the first a prerendered one."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "style.css").write_text("body { font: 16px serif; } img { width: 64px; }")
    (root / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>')
    for n in range(20):
        links = "".join(f'<li><a href="p{(n + k) % 20}.html">page {(n + k) % 20}</a>' for k in range(1, 7))
        (root / f"p{n}.html").write_text(f'<!doctype html><title>Page {n}</title><link rel="stylesheet" href="style.css">'
                                         f'<h1>Page {n}</h1><img src="dot.svg" alt=""><ul>{links}</ul><p>{"text " * 400}</p>')


def memory(headway, site, count, env):
    """`count` loads in one process with --prefetch --prerender 5 over a chain of small pages:
    each load after the first shows a prerendered page and prerenders up to 5 more, ending those
    no longer wanted, so views are made, adopted and ended all run long."""
    root = site / "chain"
    chain_site(root)
    with benchlib.Server(headway, root) as server:
        listing = pathlib.Path(tempfile.mkstemp(suffix=".txt")[1])
        listing.write_text("\n".join(f"{server.url}p{i % 20}.html" for i in range(count)) + "\n")
        note(f"memory: {count} loads with --prerender 5 in one process")
        _, _, samples, out = measured([str(headway), "load", "--prefetch", "--prerender", "5", "--urls", str(listing),
                                        "--format", "jsonl"], env=env, interval=0.1)
        listing.unlink()
    loads = [json.loads(line) for line in out.splitlines() if line.startswith('{"url"')]
    shown = sum(1 for load in loads if load.get("prefetch", {}).get("prerendered"))
    first, last, growth = benchlib.rss_growth(samples)
    return [[f"memory: {count} loads with --prerender 5, {shown} of them prerendered (tree RSS, first vs last quarter after warm-up)",
             f"{first / 1024:.0f} → {last / 1024:.0f} MiB", f"{growth * 100:+.1f}%", "<= +10%", verdict(growth <= 0.10)]]
