"""Write the media benchmark's logdir: runs x tags x steps of PNG images (tensorboardX).

Default: 8 runs x 4 tags x 500 steps of 256x256 RGB PNG (16,000 images, ~1.2 GB), the
scale the images dashboard targets. Each image is a smooth generated picture (a model's
sample grid compresses about as well, 60-80 KB); each (run, tag) cycles through
``--distinct`` different pictures so writing takes a minute or two, not a quarter of an
hour of PNG encoding. Every record goes through tensorboardX's ``SummaryWriter`` (its
file writer, as ``add_image`` does, with the PNG bytes encoded here once).

Usage::

    .venv/bin/python benchmarks/make_media_logdir.py                  # benchmarks/data/media
    .venv/bin/python benchmarks/make_media_logdir.py --steps 50 --out benchmarks/data/media_small
"""

from __future__ import annotations

import argparse
import io
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def picture(run: int, tag: int, k: int, size: int, distinct: int) -> bytes:
    """A smooth RGB picture, different per run, tag and ``k``, as PNG bytes."""
    from PIL import Image

    y, x = np.mgrid[0:size, 0:size] / size
    phase = 2 * np.pi * k / distinct
    r = 0.5 + 0.45 * np.sin(2 * np.pi * (3 + run) * x + phase) * np.cos(
        2 * np.pi * (2 + tag) * y - phase
    )
    g = 0.5 + 0.45 * np.sin(2 * np.pi * (x + y) * (2 + tag) + 2 * phase)
    b = 0.5 + 0.45 * np.cos(2 * np.pi * np.hypot(x - 0.5, y - 0.5) * (4 + run) - phase)
    pixels = (np.clip(np.stack([r, g, b], -1), 0, 1) * 255).round().astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


def write_run(out: Path, run: int, tags: int, steps: int, size: int, distinct: int) -> int:
    """One run's event file; returns the bytes of images written."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    pictures = [
        [picture(run, tag, k, size, distinct) for k in range(distinct)] for tag in range(tags)
    ]
    total = 0
    with SummaryWriter(str(out / f"run{run:02d}"), max_queue=100) as writer:
        for step in range(steps):
            for tag in range(tags):
                data = pictures[tag][step % distinct]
                image = Summary.Image(
                    height=size, width=size, colorspace=3, encoded_image_string=data
                )
                summary = Summary(value=[Summary.Value(tag=f"samples/tag{tag}", image=image)])
                writer.file_writer.add_summary(summary, step, walltime=1.7e9 + step)
                total += len(data)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--tags", type=int, default=4)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--distinct", type=int, default=50, help="pictures per (run, tag)")
    ap.add_argument("--out", type=Path, default=HERE / "data" / "media")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        sizes = list(
            pool.map(
                write_run,
                [args.out] * args.runs,
                range(args.runs),
                [args.tags] * args.runs,
                [args.steps] * args.runs,
                [args.size] * args.runs,
                [args.distinct] * args.runs,
            )
        )
    n = args.runs * args.tags * args.steps
    print(
        f"{args.out}: {n} images of {args.size}x{args.size} ({sum(sizes) / 1e9:.2f} GB, "
        f"{sum(sizes) / n / 1e3:.0f} KB each) in {time.perf_counter() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
