"""Results of scripts/third-party-suite: JUnit XML by test id, the documented differences table in
docs/webdriver-reference.md, the comparison with the reference and its summary."""
import re
import xml.etree.ElementTree as ET

from thirdparty_procs import SuiteError

# The table of headway failures the reference passes, each with its reason, that do not fail the run.
ALLOWED_HEADING = "### Documented differences: headway fails, the reference passes"
ID = re.compile(r"^test_\w+\.py::\w+(::[\w\[\]\-.]+)*$")


def load_junit(path):
    """{test id: (outcome, one-line message, seconds)}; the id is the node id below capybara/tests/session."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        raise SuiteError(f"cannot read JUnit XML {path}: {error}")
    results = {}
    for case in root.iter("testcase"):
        match = re.search(r"tests\.session\.(test_\w+)((?:\.\w+)*)$", case.get("classname", ""))
        parts = [match.group(1) + ".py"] + match.group(2).split(".")[1:] if match else [case.get("classname", "")]
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                text = (child.get("message") or child.text or "").strip()
                message = text.splitlines()[0][:160] if text else ""
        results["::".join(parts + [case.get("name", "")])] = (outcome, message, float(case.get("time") or 0))
    return results


def counts(results):
    tally = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    for outcome, _, _ in results.values():
        tally[outcome] += 1
    return tally


def load_allowed(doc_path):
    """{test id: reason} from the first table under ALLOWED_HEADING."""
    try:
        lines = open(doc_path, encoding="utf-8").read().splitlines()
    except OSError as error:
        raise SuiteError(f"cannot read {doc_path}: {error}")
    if ALLOWED_HEADING not in lines:
        raise SuiteError(f"{doc_path} has no line `{ALLOWED_HEADING}`")
    rows, in_table = [], False
    for line in lines[lines.index(ALLOWED_HEADING) + 1:]:
        if line.startswith("|"):
            in_table = True
            rows.append(line)
        elif in_table or line.startswith("#"):
            break
    allowed = {}
    for row in rows[2:]:  # after the header and its separator
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        test, reason = cells[0].strip("`"), " ".join(cells[1:]).strip()
        if not ID.match(test) or not reason:
            raise SuiteError(f"{doc_path}: a row under `{ALLOWED_HEADING}` needs `test_FILE.py::Class::test` "
                             f"and a reason: {row}")
        allowed[test] = reason
    return allowed


def compare(headway, again, reference, sample, allowed, whole_suite):
    """The comparison's lists; `problems` says what fails the run. `again` holds each headway failure's
    worst outcome over its re-runs: one that passed every re-run is flaky, reported and not a problem."""
    failing = sorted(t for t, (o, _, _) in headway.items() if o in ("failed", "error"))
    outcome = {t: reference.get(t, ("not run", "", 0))[0] for t in failing + list(sample)}
    result = {
        "differing": [t for t in failing if outcome[t] == "passed"],
        "both": [t for t in failing if outcome[t] in ("failed", "error")],
        "not_run": [t for t in failing if outcome[t] not in ("passed", "failed", "error")],
        "sample_failed": [t for t in sample if outcome[t] != "passed"],
        "flaky": [t for t in failing if again.get(t, ("not run",))[0] == "passed"],
        "stale": sorted(t for t in allowed if headway.get(t, ("",))[0] == "passed"),
    }
    problems = [f"{t} fails on headway and passes on the reference (not listed under `{ALLOWED_HEADING}`)"
                for t in result["differing"] if t not in allowed and t not in result["flaky"]]
    problems += [f"{t} did not run on the reference ({outcome[t]})" for t in result["not_run"]]
    problems += [f"{t}, a sample test that checks the reference, did not pass there ({outcome[t]})"
                 for t in result["sample_failed"]]
    if whole_suite:
        problems += [f"{t}, listed under `{ALLOWED_HEADING}`, is not in the suite" for t in allowed if t not in headway]
    result["problems"] = problems
    return result


def summary(runs, result, headway, again, reference, allowed):
    """A Markdown summary: counts and wall time per run, then the differing tests."""
    lines = ["| driver | tests | passed | failed | errors | skipped | wall time |", "|---|---|---|---|---|---|---|"]
    for name, results, wall in runs:
        c = counts(results)
        lines.append(f"| {name} | {len(results)} | {c['passed']} | {c['failed']} | {c['error']} | "
                     f"{c['skipped']} | {wall:.0f} s |")

    def table(title, tests, note):
        if not tests:
            return
        lines.extend(["", f"{title} ({len(tests)}):", "", "| test | headway | headway again | reference | note |",
                      "|---|---|---|---|---|"])
        for t in tests:
            hw, ref = headway.get(t, ("not run", "", 0)), reference.get(t, ("not run", "", 0))
            lines.append(f"| `{t}` | {hw[0]}: {hw[1] or '-'} | {again.get(t, ('not run',))[0]} | "
                         f"{ref[0]}: {ref[1] or '-'} | {note(t)} |")

    table("Headway fails, the reference passes", result["differing"],
          lambda t: "documented: " + allowed[t] if t in allowed
          else "flaky: passed every re-run (reported, not a failure)" if t in result["flaky"]
          else "**not documented: fails the run**")
    table("Failing on both drivers (reported, not a failure)", result["both"], lambda t: allowed.get(t, ""))
    table("Not run on the reference", result["not_run"], lambda t: "fails the run")
    table("Sample tests that did not pass on the reference", result["sample_failed"],
          lambda t: "the reference harness is broken: fails the run")
    if result["stale"]:
        lines.extend(["", "Listed as documented but passing on headway now (remove the row): "
                      + ", ".join(f"`{t}`" for t in result["stale"])])
    return "\n".join(lines) + "\n"
