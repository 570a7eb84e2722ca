"""scripts/bench's filmstrip section: what recording frames costs the load it records.

The same page (a demo article at the emulated 5 Mbit/s + 50 ms), loaded cold by `headway load` in
alternation without a filmstrip and with one at 10, 30 and 60 frames a second, composited and
with --no-compositing (frames are WebKit snapshots the web process paints, in both modes). Medians
of loadEventEnd and FCP, as ratios to the plain load of the same mode in the same run, and the
slowest load event of each: a median can hide a load that recording stalled. The goal: under 5% at
10 frames a second, for the median and the slowest run alike.
"""
import json
import subprocess
import tempfile

import benchlib
from benchlib import median, note, verdict

RATES = [0, 10, 30, 60]
GOAL = 0.05


def timing(headway, url, rate, extra, env, folder):
    args = [str(headway), "load", url, "--bandwidth", "5mbit", "--latency", "50ms", *extra]
    if rate:
        args += ["--filmstrip", f"{folder}/{rate}", "--frame-rate", str(rate)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0:
        benchlib.fail(f"headway load {url} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    load = json.loads(done.stdout)["loads"][0]
    frames = len(load["visualMetrics"]["progress"]) if rate else 0
    return load["timing"]["loadEventEnd"], load["timing"]["firstContentfulPaint"], frames


def rows(headway, site, runs, env):
    out = []
    with benchlib.Server(headway, site) as server, tempfile.TemporaryDirectory() as folder:
        url = server.url + "articles/article-3.html"
        for mode, extra in (("composited", []), ("compositing off", ["--no-compositing"])):
            seen = {rate: [] for rate in RATES}
            for run in range(runs):
                note(f"filmstrip: {mode}, run {run + 1}/{runs}: {', '.join(f'{r} fps' for r in RATES)}")
                for rate in RATES:
                    seen[rate].append(timing(headway, url, rate, extra, env, folder))
            base_load = median([s[0] for s in seen[0]])
            base_paint = median([s[1] for s in seen[0]])
            base_worst = max(s[0] for s in seen[0])
            for rate in RATES[1:]:
                load = median([s[0] for s in seen[rate]])
                paint = median([s[1] for s in seen[rate]])
                worst = max(s[0] for s in seen[rate])
                frames = median([s[2] for s in seen[rate]])
                cost = load / base_load - 1
                worst_cost = worst / base_worst - 1
                out.append([f"filmstrip at {rate} fps, {mode}: loadEventEnd / FCP (plain: {base_load:.0f} / "
                            f"{base_paint:.0f} ms; {frames:.0f} frames kept)",
                            f"{load:.0f} / {paint:.0f} ms", f"{cost * 100:+.1f}% / {(paint / base_paint - 1) * 100:+.1f}%",
                            "< +5%" if rate == 10 else "", verdict(cost < GOAL) if rate == 10 else ""])
                out.append([f"filmstrip at {rate} fps, {mode}: slowest loadEventEnd of {runs} "
                            f"(plain: {base_worst:.0f} ms)",
                            f"{worst:.0f} ms", f"{worst_cost * 100:+.1f}%",
                            "< +5%" if rate == 10 else "", verdict(worst_cost < GOAL) if rate == 10 else ""])
    return out
