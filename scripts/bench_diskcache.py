"""The disk cache's rows for scripts/bench: the demo article at 5 Mbit/s + 50 ms loaded by a
first `headway load --prefetch --cache-dir DIR` (cold, empty directory) and by a second process
on the same directory (warm), with the requests the server answered for each."""
import shutil, tempfile

import benchlib
from benchlib import median, note, verdict

ARTICLE = "articles/article-3.html"


def rows(headway, site, runs):
    data = {k: [] for k in ["cold", "warm", "coldRequests", "warmRequests"]}
    with benchlib.Server(headway, site, "--bandwidth", "5mbit", "--latency", "50ms") as slow:
        url = slow.url + ARTICLE
        for i in range(runs):
            note(f"disk cache run {i + 1}/{runs}")
            directory = tempfile.mkdtemp(prefix="headway-bench-cache-")
            try:
                for phase in ["cold", "warm"]:
                    load = benchlib.load(headway, "--prefetch", "--cache-dir", directory, url)["loads"][0]
                    data[phase].append(load["timing"]["finished"])
                    data[phase + "Requests"].append(load["prefetch"]["fetched"])
            finally:
                shutil.rmtree(directory, ignore_errors=True)
    m = {k: median(v) for k, v in data.items()}
    table = [
        ["article, first run with an empty --cache-dir at 5 Mbit/s + 50 ms (request to load end)", f"{m['cold']:.0f} ms",
         f"{m['coldRequests']:.0f} requests fetched", "", ""],
        ["same article, second process on the same --cache-dir", f"{m['warm']:.0f} ms",
         f"{m['cold'] / max(m['warm'], 0.1):.1f}× faster; {m['warmRequests']:.0f} requests fetched", "0 requests for fresh entries",
         verdict(m["warmRequests"] == 0)],
    ]
    per_run = "Disk cache per run: " + "; ".join(f"{k} " + ", ".join(f"{x:.1f}" for x in v) for k, v in data.items())
    return table, per_run
