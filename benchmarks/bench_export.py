"""Exported page size: a scalars page of ``runs x tags x steps`` points, packed vs plain.

Builds ``tbnb.scalars`` on the synthetic frame of ``bench_scalars_widget.py`` (values
rounded to float32, as event files store ``simple_value``; ``--float64`` keeps them
double), renders the self-contained page (``tbnb.notebook.export.render_html``) and
reports, median of ``--repeat`` renders:

- ``page_mb``: the page as written (state and buffers in one filtered, deflated,
  base85 block: ``tbnb.notebook.page_data``);
- ``plain_mb``: the same state as plain JSON with base64 buffers (the page format
  before the packed block, and what ``ipywidgets.embed`` writes);
- ``ratio``: plain / packed; ``render_s``: time to render the page in Python.

Usage::

    python benchmarks/bench_export.py                  # 100 x 20 x 10k, float32 values
    python benchmarks/bench_export.py --float64
    python benchmarks/bench_export.py --runs 10 --steps 1000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scalars_widget import make_frame

import tbnb
from tbnb.notebook import export


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--tags", type=int, default=20)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--float64", action="store_true", help="keep values double")
    args = parser.parse_args()
    frame = make_frame(args.runs, args.tags, args.steps)
    if not args.float64:
        frame["value"] = frame["value"].astype(np.float32).astype(np.float64)
    widget = tbnb.scalars(frame)
    times, size = [], 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        size = len(export.render_html(widget).encode("utf-8"))
        times.append(time.perf_counter() - start)
    plain = len(json.dumps(export._collect([widget]), separators=(",", ":")).encode("utf-8"))
    print(
        json.dumps(
            {
                "points": len(frame),
                "values": "float64" if args.float64 else "float32",
                "page_mb": round(size / 1e6, 2),
                "plain_mb": round(plain / 1e6, 2),
                "ratio": round(plain / size, 2),
                "render_s": round(statistics.median(times), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
