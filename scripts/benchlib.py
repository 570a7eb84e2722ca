"""Shared pieces of scripts/bench and scripts/bench-prefetch: building, serving, running
commands while sampling the memory of their process tree, and Markdown output."""
import json, os, pathlib, signal, statistics, subprocess, sys, tempfile, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def fail(message):
    sys.exit(f"bench: {message}")


def note(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def build(configuration):
    """Builds Headway and returns the headway binary's path."""
    note(f"building ({configuration})")
    # A release binary links the Swift runtime and Foundation statically, as a deployed one should:
    # the dynamic loader then has far fewer symbols to resolve, and the process starts ~25 ms sooner.
    static = ["--static-swift-stdlib"] if configuration == "release" else []
    result = subprocess.run(["swift", "build", "-c", configuration, *static], cwd=ROOT, stdout=subprocess.DEVNULL)
    if result.returncode != 0:
        fail(f"swift build -c {configuration} failed with exit status {result.returncode}")
    return ROOT / ".build" / configuration / "headway"


def demo_site(headway):
    site = tempfile.mkdtemp(prefix="headway-bench-")
    run([str(headway), "demo", "--write-site", site])
    return pathlib.Path(site)


def run(args, **kw):
    result = subprocess.run(args, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        fail(f"{' '.join(map(str, args))} failed ({result.returncode}): {result.stderr.strip()[-400:]}")
    return result


class Server:
    """`headway serve` on a free port, stopped with Ctrl-C."""

    def __init__(self, headway, site, *extra):
        self.proc = subprocess.Popen([str(headway), "serve", str(site), "--port", "0", *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        try:
            self.url = next(word for word in line.split() if word.startswith("http://"))
        except StopIteration:
            fail(f"headway serve did not start: {line!r}")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=10)


def rss_growth(samples):
    """Tree-RSS samples of a long run: the medians of the first and last quarter after the
    first tenth (warm-up), and the growth between them."""
    steady = samples[len(samples) // 10:]
    quarter = max(1, len(steady) // 4)
    first, last = median(steady[:quarter]), median(steady[-quarter:])
    return first, last, last / first - 1


def load(headway, *args):
    out = subprocess.run([str(headway), "load", *args], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        fail(f"headway load {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return json.loads(out.stdout)


def tree_rss_kib(pid, field="VmRSS"):
    """Resident memory of `pid` and all its descendants, in KiB; with field="Pss", each process's
    proportional share (shared libraries counted once across the tree, not once per process)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
            children.setdefault(ppid, []).append(int(entry))
        except (OSError, ValueError):
            continue
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/status" if field == "VmRSS" else f"/proc/{current}/smaps_rollup") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        total += int(line.split()[1])
        except OSError:
            pass
        todo.extend(children.get(current, []))
    return total


def measured(args, env=None, interval=0.05, stdin=None):
    """Runs a command; returns (wall seconds, peak tree RSS KiB, samples, completed process)."""
    start = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE if stdin else None,
                            text=True, env=env)
    samples = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            samples.append(tree_rss_kib(proc.pid))
            time.sleep(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, err = proc.communicate(input=stdin, timeout=1800)
    wall = time.monotonic() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        fail(f"{' '.join(map(str, args))} failed ({proc.returncode}): {err.strip()[-400:]}")
    return wall, max(samples or [0]), samples, out


def median(values):
    return statistics.median(values)


def verdict(ok):
    return "met" if ok else "**MISSED**"


def table(title, rows, footer):
    lines = [title, "", "| measurement | median | ratio | target | verdict |", "|---|---|---|---|---|"]
    lines += [f"| {' | '.join(str(cell) for cell in row)} |" for row in rows]
    return "\n".join(lines + [""] + footer)


def prefetch_rows(headway, site, runs):
    """The booster's targets: cold vs prefetched article at 5 Mbit/s + 50 ms, the zero-network
    limit, the handler's cache answer time, and a cold load through the handler vs WebKit."""
    article = "articles/article-3.html"
    data = {k: [] for k in ["cold", "prefetched", "limit", "serve", "handler", "webkit", "handlerDCL", "webkitDCL"]}
    with Server(headway, site, "--bandwidth", "5mbit", "--latency", "50ms") as slow, Server(headway, site) as fast:
        for i in range(runs):
            note(f"prefetch run {i + 1}/{runs}")
            data["cold"].append(load(headway, slow.url + article)["loads"][0]["timing"]["loadEventEnd"])
            # Eager: the article is not the index's likeliest link (moderate, the default, picks that).
            boosted = load(headway, "--prefetch", "--prefetch-eagerness", "eager", slow.url + "index.html",
                           slow.url + article)["loads"][1]
            data["prefetched"].append(boosted["timing"]["loadEventEnd"])
            data["serve"].append(boosted["prefetch"]["slowestCacheAnswerMs"])
            # The zero-network limit: the article again in the same page, every byte in memory.
            data["limit"].append(load(headway, "--prefetch", fast.url + article, fast.url + article)["loads"][1]["timing"]["loadEventEnd"])
        # A cold load is noisy (layout and image decoding swing loadEventEnd by +-50% here), so the
        # handler-vs-WebKit pair is sampled more often, in alternating order, each a first load in
        # a fresh process as a one-shot `headway load` is. With 15 pairs the ratio of medians still
        # swung from 0.95 to 1.27 between runs on a quiet machine; with 41 it stayed within 0.91-1.04.
        pairs = 1 if runs == 1 else max(8 * runs, 41)
        for i in range(pairs):
            note(f"cold handler vs WebKit pair {i + 1}/{pairs}")
            for mode in (["handler", "webkit"] if i % 2 == 0 else ["webkit", "handler"]):
                timing = load(headway, *(["--prefetch"] if mode == "handler" else []), fast.url + article)["loads"][0]["timing"]
                data[mode].append(timing["loadEventEnd"])
                data[mode + "DCL"].append(timing["domContentLoadedEventEnd"])
    m = {k: median(v) for k, v in data.items()}
    rows = [
        ["article cold at 5 Mbit/s + 50 ms (loadEventEnd)", f"{m['cold']:.0f} ms", "1.00", "", ""],
        ["article after prefetch from the index", f"{m['prefetched']:.0f} ms", f"{m['prefetched'] / m['cold']:.3f} of cold",
         "<= 0.10", verdict(m["prefetched"] <= 0.10 * m["cold"])],
        ["zero-network limit (same article again, all in memory)", f"{m['limit']:.0f} ms",
         f"prefetched / limit = {m['prefetched'] / max(m['limit'], 1):.2f}", "<= 1.25", verdict(m["prefetched"] <= 1.25 * max(m["limit"], 1))],
        ["slowest answer from the cache in the handler", f"{m['serve']:.2f} ms", "", "<= 5 ms", verdict(m["serve"] <= 5)],
        [f"cold load through the handler, no emulation ({len(data['handler'])} pairs)", f"{m['handler']:.0f} ms",
         f"handler / WebKit = {m['handler'] / max(m['webkit'], 1):.2f}", "<= 1.10", verdict(m["handler"] <= 1.10 * max(m["webkit"], 1))],
        ["same load on WebKit's own network stack", f"{m['webkit']:.0f} ms", "1.00", "", ""],
        ["  DOMContentLoaded, handler vs WebKit", f"{m['handlerDCL']:.0f} vs {m['webkitDCL']:.0f} ms",
         f"{m['handlerDCL'] / max(m['webkitDCL'], 1):.2f}", "", ""],
    ]
    per_run = "Per run (ms): " + "; ".join(f"{k} " + ", ".join(f"{x:.1f}" for x in v) for k, v in data.items())
    return rows, per_run
