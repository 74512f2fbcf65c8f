"""Generate the histogram benchmark logdir: runs x tags x steps histograms of 30 buckets.

Each histogram is what ``torch.utils.tensorboard``'s ``add_histogram(tag, values, step,
bins=30)`` writes (a legacy ``HistogramProto``: 31 ``bucket_limit`` values, an empty
bucket in front of the 30 counted ones, min, max, num, sum, sum of squares), of values
drawn from a normal distribution whose mean and spread drift with the step, differently
per tag and run. Events are built with protobuf and framed with tbnb's CRC32C (the same
bytes tensorboard's ``EventFileWriter`` writes, without its pure-Python checksum).

``--check`` loads a small sample with TensorBoard's own ``EventAccumulator`` and compares
every histogram with what tbnb loads (run it after any change here).

Usage::

    python benchmarks/make_histograms.py                   # 4 runs x 200 tags x 1,000 steps
    python benchmarks/make_histograms.py --steps 100       # a quicker variant
    python benchmarks/make_histograms.py --check
"""

from __future__ import annotations

import argparse
import shutil
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.special import ndtr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tbnb._proto import Event, HistogramProto, Summary
from tbnb.io.crc32c import masked_crc32c

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "data" / "histograms"
BINS = 30
SAMPLES = 4096  # values per histogram


def frame(data: bytes) -> bytes:
    """One TFRecord: length, its masked CRC, the data, its masked CRC."""
    head = struct.pack("<Q", len(data))
    return (
        head
        + struct.pack("<I", masked_crc32c(head))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def tag_names(n_tags: int) -> list[str]:
    """``layer<k>/<part>``: groups of five tags by prefix, as a network's layers log them."""
    parts = ["weight", "bias", "grad/weight", "grad/bias", "activation"]
    return [f"layer{j // len(parts):02d}/{parts[j % len(parts)]}" for j in range(n_tags)]


def run_histograms(run: int, tag: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """``(edges [steps, BINS+1], counts [steps, BINS])`` of one series: a drifting normal."""
    rng = np.random.default_rng(run * 100_003 + tag)
    t = np.linspace(0.0, 1.0, steps)[:, None]
    mean = rng.normal() * 0.5 + (rng.normal() * 2.0) * t
    std = np.exp(rng.normal() * 0.3 - 0.8 * t * rng.uniform())
    lo, hi = mean - 3.2 * std, mean + 3.2 * std
    edges = lo + (hi - lo) * np.linspace(0.0, 1.0, BINS + 1)[None, :]
    mass = np.diff(ndtr((edges - mean) / std), axis=1)
    counts = rng.poisson(mass * SAMPLES).astype(np.float64)
    counts[counts.sum(axis=1) == 0, BINS // 2] = 1.0
    return edges, counts


def series_events(
    tag: str, run: int, tag_index: int, steps: int, wall0: float
) -> list[tuple[int, float, bytes]]:
    """``(step, wall_time, serialized Summary)`` of every histogram of one series."""
    edges, counts = run_histograms(run, tag_index, steps)
    centers = (edges[:, 1:] + edges[:, :-1]) / 2
    out = []
    for step in range(steps):
        c, e = counts[step], edges[step]
        used = np.flatnonzero(c)
        histo = HistogramProto(
            min=float(e[used[0]]),
            max=float(e[used[-1] + 1]),
            num=float(c.sum()),
            sum=float((c * centers[step]).sum()),
            sum_squares=float((c * centers[step] ** 2).sum()),
            bucket_limit=e.tolist(),
            bucket=[0.0, *c.tolist()],
        )
        summary = Summary(value=[Summary.Value(tag=tag, histo=histo)])
        out.append((step, wall0 + step * 2.5 + tag_index * 1e-3, summary.SerializeToString()))
    return out


def write_run(out: Path, run: int, tags: list[str], steps: int) -> int:
    """One run's event file, written step by step as a training loop logs; returns its size."""
    wall0 = 1.7e9 + run * 1e5
    per_tag = [series_events(tag, run, j, steps, wall0) for j, tag in enumerate(tags)]
    records = [
        frame(Event(wall_time=wall0 - 1.0, file_version="brain.Event:2").SerializeToString())
    ]
    for step in range(steps):
        for series in per_tag:
            s, wall, summary = series[step]
            event = Event(wall_time=wall, step=s)
            records.append(
                frame(event.SerializeToString() + b"\x2a" + _varint(len(summary)) + summary)
            )
    run_dir = out / f"run_{run}"
    run_dir.mkdir(parents=True)
    data = b"".join(records)
    (run_dir / f"events.out.tfevents.{1700000000 + run}.bench.{run}.0").write_bytes(data)
    return len(data)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def make_logdir(out: Path, *, runs: int, tags: int, steps: int) -> int:
    """Write the logdir (replacing ``out``); return its size in bytes."""
    if out.exists():
        shutil.rmtree(out)
    names = tag_names(tags)
    return sum(write_run(out, r, names, steps) for r in range(runs))


def check() -> None:
    """A small sample read by TensorBoard's EventAccumulator equals what tbnb loads."""
    from tensorboard.backend.event_processing import event_accumulator as ea

    import tbnb

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "h"
        make_logdir(out, runs=2, tags=7, steps=5)
        exp = tbnb.load(str(out), progress=False)
        frame_ = exp.histograms
        for run in exp.runs:
            acc = ea.EventAccumulator(str(out / run), size_guidance={ea.HISTOGRAMS: 0})
            acc.Reload()
            for tag in acc.Tags()[ea.HISTOGRAMS]:
                rows = frame_[(frame_["run"] == run) & (frame_["tag"] == tag)]
                events = acc.Histograms(tag)
                assert [e.step for e in events] == rows["step"].tolist()
                for event, edges, counts in zip(events, rows["edges"], rows["counts"], strict=True):
                    value = event.histogram_value
                    nonzero = np.flatnonzero(np.asarray(value.bucket) > 0)
                    assert np.array_equal(
                        counts, np.asarray(value.bucket)[nonzero[0] : nonzero[-1] + 1]
                    )
                    assert edges[0] == value.min
                    assert edges[-1] == value.max
    print("ok: TensorBoard's EventAccumulator reads the same histograms as tbnb")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--tags", type=int, default=200)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        check()
        return
    out = args.out or (
        DEFAULT_OUT
        if (args.runs, args.tags, args.steps) == (4, 200, 1000)
        else DEFAULT_OUT.with_name(f"histograms_{args.runs}x{args.tags}x{args.steps}")
    )
    start = time.perf_counter()
    size = make_logdir(out, runs=args.runs, tags=args.tags, steps=args.steps)
    print(
        f"wrote {out}: {args.runs} runs x {args.tags} tags x {args.steps} steps "
        f"({args.runs * args.tags * args.steps:,} histograms, {size / 1e6:.0f} MB) "
        f"in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
