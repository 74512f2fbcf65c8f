"""Frame timing of a slider drag in Chromium, separated from the machine's load.

:func:`drag_frames` drags a range input with real mouse events (CDP
``Input.dispatchMouseEvent``: press on the thumb, moves at a steady 60 Hz, release) while
Chromium records a performance trace (CDP ``Tracing``) and the page records every
``requestAnimationFrame`` timestamp. From the trace it takes the renderer main thread's
work during the drag, split as DevTools splits it (script; style and layout; paint and
compositing setup; other), each event counted once by its self time, both as wall time
(``dur``) and as the thread's own CPU time (``tdur``), which a busy machine barely changes:
a frame waiting for a core adds wall time, not thread time. The raster workers' CPU time
(software raster with ``--disable-gpu``) is reported beside it.

Figures are per input move (one slider change each) and the frame intervals from the
page's animation frames (16.7 ms when no frame is dropped).
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections import defaultdict
from typing import Any

SCRIPT = {
    "EventDispatch",
    "FunctionCall",
    "FireAnimationFrame",
    "TimerFire",
    "EvaluateScript",
    "v8.compile",
    "v8.run",
    "RunMicrotasks",
    "V8.GCScavenger",
    "MinorGC",
    "MajorGC",
    "V8.GC_SCAVENGER",
    "BlinkGC.AtomicPhase",
    "FireIdleCallback",
    "v8.callFunction",
    "ResizeObserver::BroadcastObservations",
    "IntersectionObserverController::computeIntersections",
    "V8.Execute",
    "ParseHTML",
    "XHRReadyStateChange",
}
RENDER = {
    "UpdateLayoutTree",
    "Layout",
    "RecalculateStyles",
    "HitTest",
    "ScheduleStyleRecalculation",
    "InvalidateLayout",
    "PrePaint",
    "ComputeIntersections",
    "UpdateLayerTree",
}
PAINT = {
    "Paint",
    "PaintImage",
    "Layerize",
    "Commit",
    "UpdateLayer",
    "CompositeLayers",
    "PaintSetup",
    "Decode Image",
    "Decode LazyPixelRef",
    "ImageDecodeTask",
    "Draw LazyPixelRef",
    "RasterTask",
    "Rasterize",
}
CATEGORIES = ("script", "render", "paint", "other")

RAF_JS = """() => { window.__tbnbFrames = []; window.__tbnbInputs = 0;
  if (!window.__tbnbCounting) { window.__tbnbCounting = true;
    document.addEventListener('input', () => { window.__tbnbInputs += 1; }, true); }
  const tick = (t) => {
  window.__tbnbFrames.push(t);
  if (window.__tbnbFrames.length < 100000) requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""

TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "disabled-by-default-devtools.timeline.frame",
    "v8",
    "blink.user_timing",
    "toplevel",
]


def _category(name: str) -> str | None:
    if name in SCRIPT:
        return "script"
    if name in RENDER:
        return "render"
    if name in PAINT:
        return "paint"
    return None


def _threads(events: list[dict[str, Any]]) -> dict[tuple[int, int], str]:
    return {
        (e["pid"], e["tid"]): e.get("args", {}).get("name", "")
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }


def self_times(events: list[dict[str, Any]], start: float, end: float) -> dict[str, float]:
    """Self wall time and thread time (ms) per category of one thread's complete events.

    An event no category names inherits its nearest named ancestor's (a task running a
    script callback is script); what no ancestor names is "other". Only events starting
    in ``[start, end)`` (trace microseconds) count.
    """
    spans = sorted(
        (e for e in events if e.get("ph") == "X" and "dur" in e and start <= e["ts"] < end),
        key=lambda e: (e["ts"], -e["dur"]),
    )
    out: dict[str, float] = defaultdict(float)
    stack: list[tuple[float, str | None, dict[str, float]]] = []  # end, category, child sums

    def close(until: float) -> None:
        while stack and stack[-1][0] <= until:
            stack.pop()

    rows = []
    for e in spans:
        close(e["ts"])
        inherited = next((c for _, c, _ in reversed(stack) if c), None)
        category = _category(e["name"]) or inherited
        own = {"dur": e["dur"] / 1000, "tdur": e.get("tdur", e["dur"]) / 1000}
        if stack:  # the parent's self time loses this child's
            parent = stack[-1][2]
            parent["dur"] -= own["dur"]
            parent["tdur"] -= own["tdur"]
        entry = {"dur": own["dur"], "tdur": own["tdur"]}
        rows.append((category or "other", entry, e["name"]))
        stack.append((e["ts"] + e["dur"], category, entry))
    for category, entry, name in rows:
        out[f"{category}_ms"] += max(entry["dur"], 0.0)
        out[f"{category}_cpu_ms"] += max(entry["tdur"], 0.0)
        out[f"self_cpu_ms:{name}"] += max(entry["tdur"], 0.0)
    return out


def analyse(trace: list[dict[str, Any]], start: float, end: float) -> dict[str, float]:
    """Main-thread time per category and raster CPU (ms, totals) of the busiest renderer."""
    names = _threads(trace)
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in trace:
        by_thread[(e.get("pid", 0), e.get("tid", 0))].append(e)
    mains = [k for k, n in names.items() if n == "CrRendererMain"]
    if not mains:
        return {}
    main = max(
        mains,
        key=lambda k: sum(
            e.get("dur", 0) for e in by_thread[k] if e.get("ph") == "X" and start <= e["ts"] < end
        ),
    )
    totals = dict(self_times(by_thread[main], start, end))
    raster = 0.0
    for key, name in names.items():
        if key[0] == main[0] and name.startswith(("CompositorTileWorker", "Compositor")):
            raster += sum(
                e.get("tdur", e.get("dur", 0)) / 1000
                for e in by_thread[key]
                if e.get("ph") == "X"
                and start <= e["ts"] < end
                and e["name"] in ("RasterTask", "ThreadPool_RunTask", "RunTask")
            )
    totals["raster_cpu_ms"] = raster
    return totals


def _trace(cdp: Any, page: Any, run: Any) -> list[dict[str, Any]]:
    """Run ``run()`` under a trace; returns the trace events."""
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(True))
    cdp.send(
        "Tracing.start",
        {"traceConfig": {"includedCategories": TRACE_CATEGORIES}, "transferMode": "ReportEvents"},
    )
    try:
        run()
    finally:
        cdp.send("Tracing.end")
        deadline = time.monotonic() + 60
        while not done and time.monotonic() < deadline:
            page.wait_for_timeout(50)
    return events


def drag_frames(
    page: Any, selector: str, span: int, passes: int = 2, px_per_move: float = 1.0, hz: float = 60.0
) -> dict[str, Any]:
    """Drag the range input ``selector`` ``passes`` times over ``span`` slider values.

    Starts at the input's current value and goes down ``span`` values (up when there is
    no room below), then back, and so on, one move of ``px_per_move`` CSS pixels every
    ``1/hz`` seconds (a steady hand).
    Returns per-move main-thread times (wall and CPU, by category), raster CPU per move,
    and the animation-frame intervals during the drag (median, p95, share over 20 ms).
    """
    box = page.locator(selector).first.bounding_box()
    state = page.eval_on_selector(selector, "e => [Number(e.value), Number(e.min), Number(e.max)]")
    value, lo, hi = state
    usable = box["width"] - 16  # the thumb's travel (Chromium's default thumb is 16 px)
    per_value = usable / max(hi - lo, 1)
    x = box["x"] + 8 + (value - lo) * per_value
    y = box["y"] + box["height"] / 2
    span = min(span, int(hi - lo))
    # down first when the slider has room below, else up first
    first_direction = -1.0 if value - lo >= span else 1.0
    moves_per_pass = max(1, round(span * per_value / px_per_move))
    cdp = page.context.new_cdp_session(page)
    page.evaluate(RAF_JS)
    page.wait_for_timeout(300)
    marks: dict[str, float] = {}

    def mouse(kind: str, at: float, buttons: int) -> None:
        cdp.send(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": at, "y": y, "button": "left", "buttons": buttons, "clickCount": 1},
        )

    def drag() -> None:
        nonlocal x
        page.mouse.move(x, y)
        marks["t0"] = page.evaluate("() => performance.now()")
        mouse("mousePressed", x, 1)
        period = 1.0 / hz
        next_at = time.perf_counter()
        direction = first_direction
        for _ in range(passes):
            for _ in range(moves_per_pass):
                next_at += period
                x += direction * px_per_move
                mouse("mouseMoved", x, 1)
                wait = next_at - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            direction = -direction
        mouse("mouseReleased", x, 0)
        marks["t1"] = page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame("
            "() => r(performance.now()))))"
        )

    trace = _trace(cdp, page, drag)
    frames = page.evaluate("() => window.__tbnbFrames")
    changes = page.evaluate("() => window.__tbnbInputs")
    page.evaluate("() => { window.__tbnbFrames.length = 100000; }")  # stops the loop
    cdp.detach()
    inside = [t for t in frames if marks["t0"] <= t <= marks["t1"]]
    intervals = sorted(b - a for a, b in itertools.pairwise(inside))
    # trace clock: the first input event's timestamp anchors the drag
    inputs = sorted(
        e["ts"]
        for e in trace
        if e.get("name") == "EventDispatch"
        and e.get("args", {}).get("data", {}).get("type")
        in ("mousedown", "mousemove", "input", "pointermove")
    )
    moves = passes * moves_per_pass
    if not inputs:
        return {"moves": moves, "frame_intervals": len(intervals)}
    start, end = inputs[0] - 1000, inputs[-1] + 100_000
    totals = analyse(trace, start, end)
    out: dict[str, Any] = {"moves": moves, "slider_changes": changes, "frames": len(intervals)}
    for key, v in sorted(totals.items()):
        if not key.startswith("self_cpu_ms:"):
            out[f"{key}_per_move"] = round(v / moves, 2)
    heaviest = sorted(
        ((v, k.split(":", 1)[1]) for k, v in totals.items() if k.startswith("self_cpu_ms:")),
        reverse=True,
    )[:8]
    out["heaviest_cpu_ms_per_move"] = {name: round(v / moves, 2) for v, name in heaviest}
    main_wall = sum(totals.get(f"{c}_ms", 0.0) for c in CATEGORIES)
    main_cpu = sum(totals.get(f"{c}_cpu_ms", 0.0) for c in CATEGORIES)
    out["main_ms_per_move"] = round(main_wall / moves, 2)
    out["main_cpu_ms_per_move"] = round(main_cpu / moves, 2)
    if intervals:
        out["frame_interval_ms"] = round(statistics.median(intervals), 1)
        out["frame_interval_p95_ms"] = round(intervals[int(0.95 * (len(intervals) - 1))], 1)
        out["frames_over_20ms"] = round(sum(i > 20 for i in intervals) / len(intervals), 3)
    return out
