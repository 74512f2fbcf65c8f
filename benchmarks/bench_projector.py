"""Embedding projector benchmark: layouts in the kernel, frames in Chromium, lasso back.

Python (each case in a fresh process, median of ``--repeat``): ``s`` wall seconds and
``cpu_s`` CPU seconds of the process (all threads). On a shared machine wall time
grows with the load (printed first); CPU time much less so, except where BLAS threads
spin waiting for a core (``OPENBLAS_NUM_THREADS=1`` shows the single-thread cost):

- ``pca_100k``: ``tbnb.projector(X)`` of 100,000 x 768 float32 (the first screen: PCA
  axes of a row sample, every row projected, metadata encoding, the widget's state ready
  to send), then ``exact_s`` when the exact axes of every row have replaced them.
- ``pca_exact_100k`` beside ``sklearn_pca_default_100k``: the exact PCA (3 components)
  of the benchmark data (``tests/projector_data.clusters``: 20 low-rank groups of uneven
  sizes in 768 dimensions), tbnb's ``pca`` and scikit-learn's default ``PCA(3)``.
- ``umap_10k`` / ``tsne_10k``: 10,000 x 768 (five clusters): the first streamed layout
  and the converged one, in a new process (numba kernels loaded from tbnb's cache).
- ``umap_100k`` beside ``umap_learn_100k`` (``--alt``), and ``umap_1m`` (``--large``):
  the benchmark data, from ``tbnb.projector(X)`` to the converged UMAP:
  ``first_picture_s`` (the PCA shown as the UMAP job starts), ``first_umap_s`` (its
  first optimised layout), ``s`` (converged), ``recall`` (the kNN graph's recall@10 as
  the status line reports it), ``peak_rss_x_input`` (the process's peak RSS over the
  vectors' bytes), and the layout's quality on fixed subsamples: ``knn10`` (share of
  each point's 10 nearest neighbours in 768-d kept among its 10 nearest in the layout)
  and ``trust`` (scikit-learn's trustworthiness, 2,000 points). umap-learn runs with
  the same ``n_neighbors=15, min_dist=0.1`` and no seed (its parallel mode, the faster),
  its compile included as a user meets it.
- ``lasso_100k_py``: the browser's selection of 100,000 indices arriving in the kernel
  (binary buffer -> ``widget.selected`` DataFrame and ``on_select``).

Chromium (headless, ``--disable-gpu``: WebGL2 runs on SwiftShader, the CPU rasteriser,
so a desktop GPU is much faster): the exported page of 1,000,000 points in 2-D (20
groups named by a metadata column: density contours and region labels drawn every
frame; ``page_mb``: the saved page), 40 pan moves, and of 100,000 points in 3-D, 40
orbit moves. Per move: ``js_ms`` (the scene's
own draw: WebGL calls and overlay, ``data-draw-ms``) and ``frame_ms`` (event to the
drawn frame finished by the rasteriser: ``gl.finish`` after the animation frame);
``drawn``: points drawn per moving frame (the scene draws a uniform sample sized to its
frame budget while the view moves, every point on a GPU that can); ``rest_ms``: release
to the full redraw finished (the rest delay, 180 ms, included).
``lasso_100k_js_ms``: a box over all 100,000 points, pointerup to the selection shown.

Run::

    .venv/bin/python benchmarks/bench_projector.py                 # all but 1M and --alt
    .venv/bin/python benchmarks/bench_projector.py --cases umap_100k,umap_learn_100k
    .venv/bin/python benchmarks/bench_projector.py --cases umap_1m
    .venv/bin/python benchmarks/bench_projector.py --cases pca_100k,browser
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DATA = """
import numpy as np
def blobs(n, d=768, k=5, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, d)).astype(np.float32) * 2
    out = rng.standard_normal((n, d), dtype=np.float32)
    out += centres[np.arange(n) % k]
    return out
"""

CLUSTERS = """
import resource, time
import numpy as np
from tests.projector_data import clusters, knn_preserved, trustworthiness
"""

UMAP_TBNB = """
import tbnb
X, labels = clusters(N)
t = time.perf_counter(); c = time.process_time()
w = tbnb.projector(X)
marks = {}
def seen(change):  # the first layout of the job is the PCA, the second the first UMAP
    if change["new"].get("method") == "umap":
        key = "first_picture_s" if "first_picture_s" not in marks else "first_umap_s"
        marks.setdefault(key, time.perf_counter() - t)
w.observe(seen, "_positions")
Y = w.run("umap").wait()
out = {"s": time.perf_counter() - t, "cpu_s": time.process_time() - c, **marks,
       "recall": w.status.get("recall"), "peak_rss_x_input": resource.getrusage(
           resource.RUSAGE_SELF).ru_maxrss * 1024 / X.nbytes}
out["knn10"] = knn_preserved(X, Y, sample=SAMPLE)
out["trust"] = trustworthiness(X, Y)
"""

UMAP_LEARN = """
X, labels = clusters(N)
t = time.perf_counter(); c = time.process_time()
import umap
Y = umap.UMAP(n_neighbors=15, min_dist=0.1).fit_transform(X)
out = {"s": time.perf_counter() - t, "cpu_s": time.process_time() - c,
       "peak_rss_x_input": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / X.nbytes}
out["knn10"] = knn_preserved(X, Y, sample=SAMPLE)
out["trust"] = trustworthiness(X, Y)
"""

CASES: dict[str, str] = {
    "pca_100k": DATA
    + """
import time, tbnb
X = blobs(100_000)
t = time.perf_counter(); c = time.process_time(); m = time.thread_time()
w = tbnb.projector(X)
out = {"s": time.perf_counter() - t, "cpu_s": time.process_time() - c,
       "main_cpu_s": time.thread_time() - m, "first_exact": int(w._positions["final"])}
if w.job is not None:   # the exact axes, computed after the first screen
    w.job.wait()
out["exact_s"] = time.perf_counter() - t
out["exact_cpu_s"] = time.process_time() - c
""",
    "pca_exact_100k": CLUSTERS
    + """
from tbnb.analysis.projection.pca import pca
X, _ = clusters(100_000)
t = time.perf_counter(); c = time.process_time()
pca(X, 3)
out = {"s": time.perf_counter() - t, "cpu_s": time.process_time() - c}
""",
    "sklearn_pca_default_100k": CLUSTERS
    + """
from sklearn.decomposition import PCA
X, _ = clusters(100_000)
t = time.perf_counter(); c = time.process_time()
PCA(3).fit_transform(X)
out = {"s": time.perf_counter() - t, "cpu_s": time.process_time() - c}
""",
    "umap_10k": DATA
    + """
import time, tbnb
X = blobs(10_000)
w = tbnb.projector(X)
t = time.perf_counter(); c = time.process_time()
w.run("umap").wait()
out = {"first_s": w.status["first_layout_s"], "s": time.perf_counter() - t,
       "cpu_s": time.process_time() - c}
""",
    "tsne_10k": DATA
    + """
import time, tbnb
X = blobs(10_000)
w = tbnb.projector(X)
t = time.perf_counter(); c = time.process_time()
w.run("tsne").wait()
out = {"first_s": w.status["first_layout_s"], "s": time.perf_counter() - t,
       "cpu_s": time.process_time() - c}
""",
    "umap_100k": CLUSTERS + "N, SAMPLE = 100_000, 1000\n" + UMAP_TBNB,
    "umap_learn_100k": CLUSTERS + "N, SAMPLE = 100_000, 1000\n" + UMAP_LEARN,
    "umap_1m": CLUSTERS + "N, SAMPLE = 1_000_000, 200\n" + UMAP_TBNB,
    "lasso_100k_py": DATA
    + """
import time, numpy as np, pandas as pd, tbnb
from tbnb.widgets.serializers import array_to_json
X = blobs(100_000, 16)
meta = pd.DataFrame({"label": [f"item {i}" for i in range(100_000)]})
w = tbnb.projector(X, meta)
seen = []
w.on_select(lambda df: seen.append(len(df)))
sent = np.arange(100_000, dtype=np.int32)
times, cpus = [], []
for k in range(5):
    enc = array_to_json(sent[k:])
    enc["view"] = memoryview(bytes(enc["view"]))  # the bytes as the comm delivers them
    t = time.perf_counter(); c = time.process_time()
    w.set_state({"_selection": {"indices": enc}})   # as the browser's update message sets it
    df = w.selected
    times.append(time.perf_counter() - t); cpus.append(time.process_time() - c)
out = {"s": sorted(times)[2], "cpu_s": sorted(cpus)[2], "rows": len(df)}
""",
}


def run_case(name: str) -> dict[str, Any]:
    code = CASES[name] + "\nimport json; print('RESULT ' + json.dumps(out))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed:\n{proc.stderr[-3000:]}")
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    return dict(json.loads(line[7:]))


FRAMES_JS = """async ([orbit, moves]) => {
  const root = document.querySelector('.tbnb-w-embeddings');
  const target = root.querySelector('canvas.tbnb-pj-overlay');
  const scene = root.querySelector('.tbnb-pj-scene');
  const gl = root.querySelector('canvas.tbnb-pj-gl').getContext('webgl2');
  const r = target.getBoundingClientRect();
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  const ev = (type, x, y, dx) => target.dispatchEvent(new PointerEvent(type, {clientX: x,
    clientY: y, movementX: dx, movementY: dx / 2, bubbles: true, pointerId: 1, button: 0}));
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  ev('pointerdown', x, y, 0);
  await frame(); gl.finish();
  const js = [], full = [], drawn = [];
  for (let k = 0; k < moves; k++) {
    const t0 = performance.now();
    x += 4; y += 2;
    ev('pointermove', x, y, 4);
    await frame();
    gl.finish();
    full.push(performance.now() - t0);
    js.push(Number(scene.getAttribute('data-draw-ms')));
    drawn.push(Number(scene.getAttribute('data-drawn')));
  }
  ev('pointerup', x, y, 0);
  // At rest every point is drawn again: time from the release to that frame finished.
  const t1 = performance.now();
  while (Number(scene.getAttribute('data-drawn')) < Number(root.dataset.points)) await frame();
  gl.finish();
  const rest = performance.now() - t1;
  const med = (a) => { const s = [...a].sort((p, q) => p - q); return s[s.length >> 1]; };
  const p90 = [...full].sort((p, q) => p - q)[Math.floor(full.length * 0.9)];
  return {js_ms: med(js), frame_ms: med(full), frame_p90: p90, drawn: med(drawn), rest_ms: rest};
}"""

LASSO_JS = """async () => {
  const root = document.querySelector('.tbnb-w-embeddings');
  root.querySelector('button.tbnb-pj-mode[data-mode="box"]').click();
  const target = root.querySelector('canvas.tbnb-pj-overlay');
  const r = target.getBoundingClientRect();
  const ev = (type, x, y) => target.dispatchEvent(new PointerEvent(type, {clientX: x,
    clientY: y, bubbles: true, pointerId: 1, button: 0}));
  ev('pointerdown', r.left + 1, r.top + 1);
  ev('pointermove', r.right - 1, r.bottom - 1);
  const t0 = performance.now();
  ev('pointerup', r.right - 1, r.bottom - 1);
  const ms = performance.now() - t0;
  return {ms, selected: Number(root.getAttribute('data-selected'))};
}"""


def browser(repeat: int, moves: int) -> dict[str, Any]:
    import numpy as np
    from playwright.sync_api import sync_playwright

    import tbnb
    from tbnb.notebook.export import render_html
    from tests.ui._chromium import Chromium

    out: dict[str, Any] = {}
    rng = np.random.default_rng(0)
    import pandas as pd

    groups = rng.integers(0, 20, 1_000_000)  # 20 groups of a 2-D map, named by a column
    centres = rng.normal(scale=8.0, size=(20, 2))
    cloud = (centres[groups] + rng.normal(size=(1_000_000, 2))).astype(np.float32)
    names = pd.DataFrame({"group": [f"group {g:02d}" for g in range(20)]}).iloc[groups]
    pages = {
        "pan_1m_2d": tbnb.projector(cloud, names.reset_index(drop=True), method="raw", dims=2),
        "orbit_100k_3d": tbnb.projector(
            rng.normal(size=(100_000, 3)).astype(np.float32), method="raw", dims=3
        ),
    }
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        chromium = Chromium(pw, viewport=(1200, 900))
        try:
            for name, widget in pages.items():
                path = Path(tmp) / f"{name}.html"
                path.write_text(render_html(widget), encoding="utf-8")
                page = chromium.context.new_page()
                page.set_default_timeout(600_000)
                t = time.perf_counter()
                page.goto(path.as_uri())
                out[f"{name}_page_mb"] = path.stat().st_size / 1e6
                print(f"{name}: page of {out[f'{name}_page_mb']:.1f} MB", flush=True)
                points = len(widget.vectors)
                page.wait_for_selector(f".tbnb-w-embeddings[data-points='{points}']")
                page.wait_for_function(
                    "() => Number(document.querySelector('.tbnb-pj-scene').dataset.frames) > 0"
                )
                out[f"{name}_first_draw_s"] = time.perf_counter() - t
                print(f"{name}: first frame after {out[f'{name}_first_draw_s']:.1f} s", flush=True)
                runs = [
                    page.evaluate(FRAMES_JS, [name.startswith("orbit"), moves])
                    for _ in range(repeat)
                ]
                for key in ("js_ms", "frame_ms", "frame_p90", "drawn", "rest_ms"):
                    out[f"{name}_{key}"] = statistics.median(r[key] for r in runs)
                root = page.locator(".tbnb-w-embeddings")
                out[f"{name}_region_labels"] = float(root.get_attribute("data-regions") or 0)
                out[f"{name}_contour_segments"] = float(root.get_attribute("data-contours") or 0)
                if name == "orbit_100k_3d":
                    lasso = [page.evaluate(LASSO_JS) for _ in range(repeat)]
                    out["lasso_100k_js_ms"] = statistics.median(r["ms"] for r in lasso)
                    out["lasso_100k_selected"] = lasso[0]["selected"]
                page.close()
        finally:
            chromium.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default="")
    parser.add_argument("--moves", type=int, default=40, help="pan / orbit moves per run")
    parser.add_argument("--large", action="store_true", help="also 1M x 768 UMAP")
    parser.add_argument("--alt", action="store_true", help="also umap-learn 100k")
    args = parser.parse_args()
    names = ["pca_100k", "pca_exact_100k", "sklearn_pca_default_100k", "umap_10k", "tsne_10k"]
    names += ["lasso_100k_py", "umap_100k"]
    if args.alt:
        names.append("umap_learn_100k")
    if args.large:
        names.append("umap_1m")
    names.append("browser")
    if args.cases:
        names = [n for n in names if n in args.cases.split(",")] or args.cases.split(",")
    if any(n.startswith("umap_") and "learn" not in n for n in names):  # compiled once
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "from tbnb.analysis.projection.layout_umap import warm; warm()"],
            cwd=REPO,
            check=True,
        )
        print(f"numba kernels loaded or compiled into the cache: {time.perf_counter() - t:.1f} s")
    print(f"load average before: {os.getloadavg()} on {os.cpu_count()} cores")
    for name in names:
        if name == "browser":
            for key, value in browser(args.repeat, args.moves).items():
                print(f"{key:28s} {value:10.3f}")
            continue
        single = "1m" in name or ("100k" in name and "umap" in name)
        runs = [run_case(name) for _ in range(1 if single else args.repeat)]
        summary = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"{name:28s} " + "  ".join(f"{k}={v:.3f}" for k, v in summary.items()),
            f"load={os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
