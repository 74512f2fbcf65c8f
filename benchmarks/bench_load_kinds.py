"""Whole-process load benchmark of every kind: tbnb's native and numpy backends beside
TensorBoard's Rust data server, per record and per byte.

Logdirs (``--make``, written by torch.utils.tensorboard, the real writer; git-ignored
under benchmarks/data/kinds/): histograms (``add_histogram(bins=30)``), text
(``add_text``), PR curves (``add_pr_curve``, 127 thresholds), images (``add_image``,
32x32 PNG), and a Lightning-style mixed run (scalars every step, histograms of 50
parameters every 100 steps, images every 1,000 steps). The 400,000-histogram logdir of
the issue's goal is ``make_histograms.py --runs 8 --tags 100 --steps 500`` (pass it with
``--logdir``).

Cases, each a fresh process (median of ``--repeat``, CPU = user + sys, peak RSS from
``wait4``; the data server until its "Finished load cycle" line, ``--checksum``):

- ``native``: ``Experiment(logdir, decoder="native")`` and the kind's frame;
- ``numpy``: the same with the numpy backend (protobuf for every non-scalar record: what
  every kind but scalars went through before the native decoders);
- ``native-serial``: ``native`` without helper threads (each run's windows decoded on
  its run's thread, as before windows were decoded ahead); ``load_cpu_per_wall`` says
  how many cores a load kept busy;
- ``tensorboard``: TensorBoard's data server, every sample kept.

Usage::

    .venv/bin/python benchmarks/bench_load_kinds.py --make          # once (a few minutes)
    .venv/bin/python benchmarks/bench_load_kinds.py --repeat 3
    .venv/bin/python benchmarks/bench_load_kinds.py --logdir benchmarks/data/histograms \\
        --kind histograms
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _proc import logdir_bytes, median_of, run_child, tensorboard_server

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "kinds"
KINDS = {
    "histograms": "histograms",
    "text": "text",
    "pr_curves": "pr_curves",
    "images": "images",
    "mixed": "scalars",
}
"""Each logdir and the frame its load builds (the mixed run builds every kind's)."""


def make(out: Path, scale: float) -> None:
    """Write the logdirs with torch's SummaryWriter."""
    import numpy as np
    from torch.utils.tensorboard import SummaryWriter

    rng = np.random.default_rng(0)

    def picture(seed: int, size: int = 32) -> np.ndarray:
        """A CHW uint8 picture (the writer encodes it as PNG)."""
        return np.random.default_rng(seed).integers(0, 255, (3, size, size), dtype=np.uint8)

    def n(count: int) -> int:
        return max(1, int(count * scale))

    w = SummaryWriter(str(out / "histograms" / "run"))
    for step in range(n(1000)):
        for tag in range(100):
            w.add_histogram(f"layer{tag}/w", rng.normal(step / 1000, 1, 256), step, bins=30)
    w.close()
    w = SummaryWriter(str(out / "text" / "run"))
    for step in range(n(5000)):
        for tag in range(10):
            w.add_text(f"note{tag}", f"step {step}: *loss* {rng.random():.4f}", step)
    w.close()
    w = SummaryWriter(str(out / "pr_curves" / "run"))
    for step in range(n(1000)):
        for tag in range(10):
            labels = rng.integers(0, 2, 200)
            w.add_pr_curve(f"class{tag}", labels, rng.random(200), step)
    w.close()
    w = SummaryWriter(str(out / "images" / "run"))
    images = [picture(k) for k in range(16)]
    for step in range(n(2000)):
        for tag in range(10):
            w.add_image(f"sample{tag}", images[(step + tag) % 16], step)
    w.close()
    w = SummaryWriter(str(out / "mixed" / "version_0"))
    for step in range(n(200_000)):
        w.add_scalar("train/loss", 1 / (step + 1), step)
        w.add_scalar("lr", 1e-3, step)
        if step % 100 == 0:
            for p in range(50):
                w.add_histogram(f"params/{p}", rng.normal(0, 1, 256), step, bins=30)
        if step % 1000 == 0:
            w.add_image("samples", images[step // 1000 % 16], step)
    w.close()


def child(case: str, logdir: str, kind: str) -> dict[str, Any]:
    import warnings

    from tbnb.loader import tasks
    from tbnb.loader.experiment import Experiment

    decoder, _, threads = case.partition("-")
    if threads == "serial":  # no helper threads: every run on one thread
        tasks.os.cpu_count = lambda: 1  # type: ignore[assignment]
    t0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp = Experiment(logdir, progress=False, decoder=decoder)
    if kind == "scalars":  # the mixed run: every kind it holds
        rows = {k: len(exp.frame(k)) for k in ("scalars", "histograms", "images")}
    else:
        rows = {kind: len(exp.frame(kind))}
    return {
        "rows": rows,
        "inner_wall": time.perf_counter() - t0,
        "inner_cpu": time.process_time() - c0,  # the load and its frames, imports excluded
        "threads": threading.active_count(),
        "backend": exp.last_report.backend.name if exp.last_report.backend else "",
        "protobuf_records": exp.last_report.protobuf_records,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--logdir", type=Path, default=None)
    parser.add_argument("--kind", default="histograms")
    parser.add_argument("--cases", default="native,numpy,tensorboard")
    parser.add_argument("--child", nargs=3, default=None)
    parser.add_argument("--report", default=None)
    args = parser.parse_args()
    if args.child:
        Path(args.report).write_text(json.dumps(child(*args.child)))
        return
    if args.make:
        make(DATA, args.scale)
        return
    logdirs = {args.kind: args.logdir} if args.logdir else {k: DATA / k for k in KINDS}
    rows = []
    for name, logdir in logdirs.items():
        kind = KINDS.get(name, args.kind) if not args.logdir else args.kind
        size = logdir_bytes(logdir)
        for case in args.cases.split(","):
            runs = []
            for _ in range(args.repeat):
                load = os.getloadavg()[0]
                if case == "tensorboard":
                    got = tensorboard_server(logdir)
                else:
                    argv = [__file__, "--child", case, str(logdir), kind]
                    got = run_child(argv, env=dict(os.environ, PYTHONPATH=str(HERE.parent)))
                got["load"] = load
                runs.append(got)
            records = sum(runs[0].get("rows", {}).values())
            row = {
                "logdir": name,
                "case": case,
                "MB": size / 1e6,
                "rows": runs[0].get("rows"),
                "wall": median_of(runs, "wall"),
                "cpu": median_of(runs, "cpu"),
                "rss_MB": median_of(runs, "peak_rss") / 1e6,
                "load": median_of(runs, "load"),
                "protobuf_records": runs[0].get("protobuf_records"),
            }
            row["MB_per_cpu_s"] = row["MB"] / row["cpu"]
            if case != "tensorboard":
                row["load_cpu"] = median_of(runs, "inner_cpu")
                row["load_wall"] = median_of(runs, "inner_wall")
                row["load_cpu_per_wall"] = row["load_cpu"] / row["load_wall"]
                row["load_MB_per_cpu_s"] = row["MB"] / row["load_cpu"]
            if records:
                row["us_per_row_cpu"] = 1e6 * row["cpu"] / records
                row["us_per_row_load_cpu"] = 1e6 * row["load_cpu"] / records
            rows.append(row)
            print(json.dumps(row), flush=True)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    (results / f"load_kinds_{int(time.time())}.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
