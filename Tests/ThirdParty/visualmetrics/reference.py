"""Runs browsertime's visualmetrics (upstream/visualmetrics-portable.py, unchanged) on a directory of
ms_NNNNNN.png frames, through its functions as its own unit tests call them, and prints its metrics as
JSON: {"FirstVisualChange": ms, "LastVisualChange": ms, "SpeedIndex": ms, "VisualProgress": "t=p, ..."}.
Usage: python3 reference.py DIR (in a venv with Pillow)."""
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

spec = importlib.util.spec_from_file_location("visualmetrics", Path(__file__).parent / "upstream/visualmetrics-portable.py")
vm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(vm)

with tempfile.TemporaryDirectory() as scratch:
    histograms = str(Path(scratch) / "histograms.json.gz")
    vm.calculate_histograms(sys.argv[1], histograms, True)
    metrics = vm.calculate_visual_metrics(histograms, 0, 0, False, False, sys.argv[1], None, None, {})
if not metrics:
    sys.exit(f"reference.py: visualmetrics found no frames in {sys.argv[1]}")
print(json.dumps({metric["name"].replace(" ", ""): metric["value"] for metric in metrics}))
