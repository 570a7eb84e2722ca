"""A pytest plugin for scripts/wpt: writes {node id: [outcome, first line of the failure]} as JSON to the file
that WPT_RESULTS names when the session ends. Outcomes: passed, failed, error (setup or teardown), skipped."""
import json
import os

_results = {}


def _first_line(report):
    text = getattr(report, "longreprtext", "") or ""
    lines = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    return (lines[0] if lines else text.strip().splitlines()[-1] if text.strip() else "")[:300]


def pytest_runtest_logreport(report):
    outcome, _ = _results.get(report.nodeid, ("passed", ""))
    if report.skipped and outcome == "passed":
        _results[report.nodeid] = ("skipped", _first_line(report))
    elif report.failed and report.when == "call":
        _results[report.nodeid] = ("failed", _first_line(report))
    elif report.failed and outcome in ("passed", "skipped"):
        _results[report.nodeid] = ("error", _first_line(report))
    else:
        _results.setdefault(report.nodeid, ("passed", ""))


def pytest_sessionfinish(session):
    with open(os.environ["WPT_RESULTS"], "w") as out:
        json.dump(_results, out, indent=0, sort_keys=True)


def pytest_collectreport(report):
    if report.failed:
        _results[report.nodeid] = ("error", _first_line(report))
