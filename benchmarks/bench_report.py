"""The sample logdir's report and saved notebook: sizes per tab against the 5 MB budgets.

On the bundled sample (``tbnb.samples.sample_logdir()``: 9 runs, every kind), reports:

- ``write``: writing the sample with tensorboardX, whole process (child), median of
  ``--repeat`` runs: CPU seconds (user + sys), wall seconds, peak RSS;
- ``page``: the full exported report of a ``tbnb.Dashboard`` of the sample
  (``tbnb.notebook.export.render_html``), in MB, against the plain form (state JSON with
  base64 buffers, what ``ipywidgets.embed`` would inline) as a ratio, and per tab: the
  page of that tab alone, and what the tab adds to the full page (full page minus the
  page without it);
- ``notebook``: a saved notebook holding the dashboard, widget state stored the way
  JupyterLab's "Save Widget State Automatically" stores it (notebook metadata
  ``widgets`` / ``application/vnd.jupyter.widget-state+json``: every model's full state,
  buffers base64), in MB, and per tab: its models' state split into the front-end
  module (``_esm``), binary buffers and the rest.

The real JupyterLab figure is checked by ``tests/ui/test_saved_notebook.py`` (it saves
the notebook from JupyterLab and reads the file's size).

Usage::

    python benchmarks/bench_report.py              # sizes, and the sample written 3 times
    python benchmarks/bench_report.py --repeat 5
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _proc import ROOT, run_child

sys.path.insert(0, str(ROOT))  # this checkout's tbnb

MB = 1e6


def _child_write(report: str) -> None:
    from tbnb.notebook.samples import write_sample

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        write_sample(tmp)
        seconds = time.perf_counter() - start
        size = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file())
    Path(report).write_text(json.dumps({"write_s": seconds, "logdir_mb": size / MB}))


def _state(widgets: list[Any]) -> dict[str, Any]:
    from ipywidgets.embed import dependency_state

    # JupyterLab saves every attribute of every model (drop_defaults=False keeps _esm).
    return dependency_state(widgets, drop_defaults=False)  # type: ignore[no-any-return]


def saved_notebook(dash: Any) -> str:
    """A notebook with one cell showing ``dash``, its widget state saved as JupyterLab does."""
    import nbformat

    cell = nbformat.v4.new_code_cell("%tbnb logs", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={
                "application/vnd.jupyter.widget-view+json": {
                    "model_id": dash.model_id,
                    "version_major": 2,
                    "version_minor": 0,
                },
                "text/plain": repr(dash)[:100],
            },
        )
    ]
    nb = nbformat.v4.new_notebook(cells=[cell])
    nb.metadata["widgets"] = {
        "application/vnd.jupyter.widget-state+json": {
            "version_major": 2,
            "version_minor": 0,
            "state": _state([dash]),
        }
    }
    return str(nbformat.writes(nb))


def _parts(state: dict[str, Any]) -> dict[str, float]:
    esm = sum(len(s["state"].get("_esm", "")) for s in state.values())
    buffers = sum(len(b["data"]) for s in state.values() for b in s.get("buffers", []))
    total = len(json.dumps(state, separators=(",", ":")))
    return {
        "esm_mb": round(esm / MB, 3),
        "buffers_mb": round(buffers / MB, 3),
        "other_mb": round((total - esm - buffers) / MB, 3),
        "total_mb": round(total / MB, 3),
    }


def sizes() -> dict[str, Any]:
    """Page and saved-notebook sizes of a dashboard of the sample, whole and per tab."""
    import tbnb
    from tbnb.notebook.export import _collect, render_html

    dash = tbnb.Dashboard(tbnb.samples.sample_logdir())
    try:
        full = len(render_html(dash).encode())
        plain = _collect([dash])
        plain_size = len(json.dumps(plain, separators=(",", ":")).encode())
        notebook = len(saved_notebook(dash).encode())
        notebook_state = _parts(_state([dash]))
        tabs: dict[str, Any] = {}
        for key, view in dash.views.items():
            others = [v for k, v in dash.views.items() if k != key]
            without = len(render_html(others).encode())
            tabs[key] = {
                "page_alone_mb": round(len(render_html(view).encode()) / MB, 3),
                "adds_to_page_mb": round((full - without) / MB, 3),
                "notebook_state": _parts(_state([view])),
            }
        shared = {
            "modules_mb": round(sum(len(m) for m in plain["modules"]) / MB, 3),
            "buffers_mb": round(
                sum(
                    len(base64.b64decode(b["data"]))
                    for s in plain["state"].values()
                    for b in s.get("buffers", [])
                )
                / MB,
                3,
            ),
        }
    finally:
        dash.close()
    return {
        "page_mb": round(full / MB, 3),
        "plain_page_mb": round(plain_size / MB, 3),
        "plain_over_page": round(plain_size / full, 2),
        "page_parts": shared,
        "notebook_mb": round(notebook / MB, 3),
        "notebook_state": notebook_state,
        "budget_mb": 5.0,
        "tabs": tabs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", choices=["write"])
    parser.add_argument("--report")
    args = parser.parse_args()
    if args.child == "write":
        _child_write(args.report)
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    runs = [run_child([__file__, "--child", "write"], env=env) for _ in range(args.repeat)]
    write = {
        "cpu_s": round(statistics.median(r["cpu"] for r in runs), 2),
        "wall_s": round(statistics.median(r["wall"] for r in runs), 2),
        "write_s_in_process": round(statistics.median(r["write_s"] for r in runs), 2),
        "peak_rss_mb": round(statistics.median(r["peak_rss"] for r in runs) / MB, 1),
        "logdir_mb": round(runs[0]["logdir_mb"], 2),
    }
    report = {"write": write, **sizes()}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
