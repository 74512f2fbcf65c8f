"""Profiler benchmark: parsing a 1M-event trace beside HTA, the first screen, timeline frames.

Python (each case a fresh process, median of ``--repeat``; ``s`` wall seconds of the case
itself after imports, ``cpu_s`` and ``peak_rss`` of the whole process):

- ``parse_1m_tbnb``: ``tbnb.profile(path).trace(0)`` of a Kineto trace of about 1,000,000
  events (the H100 ResNet-18 trace's events repeated, each copy shifted in time, its
  correlation ids, external ids and step numbers renumbered: ``make`` writes it once);
  ``frame_bytes`` is the events and memory frames' size (``memory_usage(deep=True)``),
  ``rss_x`` peak RSS over it, ``rss_growth_x`` (peak RSS minus the RSS after imports)
  over it.
- ``parse_1m_hta``: Holistic Trace Analysis's ``TraceAnalysis(trace_dir=...)`` of the
  same file (its parse, in the same way), the reference.
- ``resnet_first_screen``: ``tbnb.profiler(path)`` of the 4.8 MB ResNet-18 trace after
  ``import tbnb`` (what the cell runs: parse, frames, the overview and the timeline's
  first window, ready to send), then the exported page of it in headless Chromium:
  navigation start to the overview's findings and step chart drawn (``page_ms``).

Chromium (headless): the exported page of the ResNet-18 trace and of the 1M-event trace
at the timeline tab; 40 moves (W, S, A, D in turn); per move the timeline's own draw
(``drawMs``: main-thread work of one frame) as median and maximum.

Run::

    .venv/bin/python benchmarks/bench_profile.py make           # writes the 1M trace once
    .venv/bin/python benchmarks/bench_profile.py --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

WORK = Path(tempfile.gettempdir()) / "tbnb_bench_profile"
BIG = WORK / "big" / "rank0.pt.trace.json"
TARGET_EVENTS = 1_000_000


def _resnet() -> Path:
    from tests.writers_profile import extract_gpu_traces

    traces = WORK / "gpu"
    if not (traces / "traces").exists():
        extract_gpu_traces(traces)
    (path,) = (traces / "traces" / "torch" / "resnet18_bs32").glob("*.pt.trace.json")
    return path


def make() -> Path:
    """Write the 1M-event trace: the ResNet trace's events, repeated and renumbered."""
    import re

    raw = json.loads(_resnet().read_text())
    events = raw.pop("traceEvents")
    ts = [e["ts"] for e in events if isinstance(e.get("ts"), (int, float))]
    span = max(ts) - min(ts) + 1000.0
    copies = -(-TARGET_EVENTS // len(events))
    BIG.parent.mkdir(parents=True, exist_ok=True)
    step = re.compile(r"^ProfilerStep#(\d+)$")
    with BIG.open("w") as out:
        out.write("{" + json.dumps(raw)[1:-1] + ', "traceEvents": [\n')
        first = True
        for k in range(copies):
            for original in events:
                if original.get("ph") == "M" and k:
                    continue
                e = dict(original)
                if isinstance(e.get("ts"), (int, float)):
                    e["ts"] = e["ts"] + k * span
                args = e.get("args")
                if isinstance(args, dict):
                    args = dict(args)
                    for key in ("correlation", "External id"):
                        if isinstance(args.get(key), int) and args[key] > 0:
                            args[key] += k * 1_000_000
                    e["args"] = args
                if e.get("ph") in ("s", "f") and isinstance(e.get("id"), int):
                    e["id"] += k * 1_000_000
                found = step.match(str(e.get("name", "")))
                if found:
                    e["name"] = f"ProfilerStep#{int(found.group(1)) + 3 * k}"
                out.write(("" if first else ",\n") + json.dumps(e))
                first = False
        out.write("\n]}\n")
    return BIG


# ---------------------------------------------------------------- child cases
def _rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def child(case: str, report: str) -> None:
    import warnings

    warnings.simplefilter("ignore")
    out: dict[str, Any] = {}
    if case == "parse_1m_tbnb":
        import tbnb
        import tbnb.kinds.profile

        base = _rss()
        t0 = time.perf_counter()
        trace = tbnb.profile(BIG).trace(0)
        out["s"] = time.perf_counter() - t0
        out["events"] = len(trace.events)
        out["frame_bytes"] = int(
            trace.events.memory_usage(deep=True).sum() + trace.memory.memory_usage(deep=True).sum()
        )
        out["base_rss"] = base
    elif case == "parse_1m_hta":
        import logging

        import pandas  # noqa: F401
        from hta.trace_analysis import TraceAnalysis

        logging.disable(logging.WARNING)
        base = _rss()
        t0 = time.perf_counter()
        analysis = TraceAnalysis(trace_dir=str(BIG.parent))
        out["s"] = time.perf_counter() - t0
        out["events"] = len(analysis.t.get_trace(0))
        out["base_rss"] = base
    elif case == "resnet_first_screen":
        import tbnb

        t0 = time.perf_counter()
        widget = tbnb.profiler(_resnet())
        out["s"] = time.perf_counter() - t0
        from tbnb.notebook.export import render_html

        page = WORK / "resnet.html"
        page.write_text(render_html(widget), encoding="utf-8")
    Path(report).write_text(json.dumps(out))


# ---------------------------------------------------------------- browser
def _page_ms(path: Path) -> float:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(path.as_uri())
        page.wait_for_selector(".tbnb-w-profile .tbnb-prof-findings li")
        ms = page.evaluate(
            "() => performance.now()"
        )  # navigation start to the findings shown (step chart drawn in the same task)
        browser.close()
    return float(ms)


def _frames(widget_path: Path, moves: int = 40) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(widget_path.as_uri())
        root = page.locator(".tbnb-w-profile").first
        root.locator(".tbnb-prof-tabs button[data-tab='timeline']").click()
        page.wait_for_function(
            "el => el.__tbnbProfile.timeline.draws > 0", arg=root.element_handle()
        )
        root.locator(".tbnb-prof-canvas canvas").click(position={"x": 600, "y": 60})
        times = []
        keys = "wwwwsadadws"
        for i in range(moves):
            before = root.evaluate("el => el.__tbnbProfile.timeline.draws")
            page.keyboard.press(keys[i % len(keys)])
            page.wait_for_function(
                "([el, n]) => el.__tbnbProfile.timeline.draws > n",
                arg=[root.element_handle(), before],
            )
            times.append(float(root.evaluate("el => el.__tbnbProfile.timeline.drawMs")))
        spans = int(root.evaluate("el => el.__tbnbProfile.timeline.win.start.length"))
        browser.close()
    return {"median_ms": statistics.median(times), "max_ms": max(times), "spans": spans}


def _load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", default="run", choices=["run", "make", "child"])
    parser.add_argument("--case", default="")
    parser.add_argument("--report", default="")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default="parse_1m_tbnb,parse_1m_hta,resnet_first_screen,frames")
    args = parser.parse_args()
    if args.what == "make":
        print(f"wrote {make()} ({BIG.stat().st_size / 2**20:.0f} MiB)")
        return
    if args.what == "child":
        child(args.case, args.report)
        return
    from _proc import run_child

    if not BIG.exists():
        make()
    cases = args.cases.split(",")
    results: dict[str, Any] = {}
    for case in [c for c in cases if c != "frames"]:
        runs = []
        for _ in range(args.repeat):
            load = _load()
            r = run_child([__file__, "child", "--case", case])
            r["load"] = load
            if case == "resnet_first_screen":
                r["page_ms"] = _page_ms(WORK / "resnet.html")
            runs.append(r)
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "load"}
        med["load"] = ", ".join(r["load"] for r in runs)
        if "frame_bytes" in med:
            med["rss_x"] = med["peak_rss"] / med["frame_bytes"]
            med["rss_growth_x"] = (med["peak_rss"] - med["base_rss"]) / med["frame_bytes"]
        results[case] = med
        print(
            case,
            json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in med.items()}),
        )
    if "parse_1m_tbnb" in results and "parse_1m_hta" in results:
        ratio = results["parse_1m_hta"]["s"] / results["parse_1m_tbnb"]["s"]
        print(f"HTA parse / tbnb parse = {ratio:.2f}x")
    if "frames" in cases:
        import warnings

        import tbnb
        from tbnb.notebook.export import render_html

        warnings.simplefilter("ignore")
        for name, path in (("resnet", _resnet()), ("1m", BIG)):
            page = WORK / f"frames_{name}.html"
            page.write_text(render_html(tbnb.profiler(path, tab="timeline")), encoding="utf-8")
            load = _load()
            r = _frames(page)
            print(
                f"frames_{name}",
                json.dumps({**{k: round(v, 3) for k, v in r.items()}, "load": load}),
            )
    os.sync()


if __name__ == "__main__":
    main()
