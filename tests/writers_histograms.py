"""Histogram logdirs written by real writers for the histograms dashboard's tests.

:func:`write_histogram_runs` writes several runs with tensorboardX's ``add_histogram``
(variable-width ``bins="tensorflow"`` buckets and equal-width ones), tags grouped by
prefix, and, when asked, run and tag names that are script payloads (tags as raw
``Summary`` values, since ``add_histogram`` would clean them). :func:`write_bad_histograms`
writes good histograms around ones a viewer cannot draw (non-finite edges, negative
counts, decreasing edges), through tensorboardX's file writer.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

IMG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = '"><script>window.__pwned=1</script>'
HOSTILE_RUN = IMG
HOSTILE_TAG = f"{SCRIPT}/weight"
WALL0 = 1.7e9


def write_histogram_runs(
    root: Path,
    *,
    runs: tuple[str, ...] = ("lr=0.1", "lr=0.01"),
    steps: int = 61,
    hostile: bool = False,
) -> Path:
    """``runs`` (plus a hostile one) x tags ``layer1/weight``, ``layer1/bias``,
    ``layer2/weight`` (plus a hostile one), one histogram per step, drifting with the step."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary
    from tensorboardX.summary import histogram

    names = [*runs, HOSTILE_RUN] if hostile else list(runs)
    for k, run in enumerate(names):
        rng = np.random.default_rng(k)
        with SummaryWriter(str(root / run)) as writer:
            for step in range(steps):
                t = step / max(steps - 1, 1)
                wall = WALL0 + 10 * step
                weights = rng.normal(0.5 * t * (k + 1), 1 + t, size=400)
                writer.add_histogram(
                    "layer1/weight", weights, step, bins="tensorflow", walltime=wall
                )
                writer.add_histogram(
                    "layer1/bias", rng.uniform(-1 - t, 1, size=200), step, bins=20, walltime=wall
                )
                writer.add_histogram(
                    "layer2/weight",
                    rng.normal(-t, 0.5, size=300),
                    step,
                    bins="tensorflow",
                    walltime=wall,
                )
                if hostile:
                    raw = histogram(HOSTILE_TAG, rng.exponential(1 + t, size=100), bins=16)
                    value = raw.value[0]
                    writer.file_writer.add_summary(
                        Summary(value=[Summary.Value(tag=HOSTILE_TAG, histo=value.histo)]),
                        step,
                        walltime=wall,
                    )
    return root


def write_bad_histograms(root: Path) -> Path:
    """Run ``good`` fine; run ``bad``: tag ``w`` has a NaN-edged histogram at step 3, a
    negative count at step 5 and decreasing edges at step 7 among good ones."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import HistogramProto, Summary

    def proto(limits: list[float], counts: list[float]) -> HistogramProto:
        return HistogramProto(
            min=limits[0] - 1,
            max=limits[-1],
            num=sum(counts),
            sum=0.0,
            sum_squares=0.0,
            bucket_limit=limits,
            bucket=counts,
        )

    for run in ("good", "bad"):
        with SummaryWriter(str(root / run)) as writer:
            for step in range(10):
                limits, counts = [0.0, 1.0, 2.0, 3.0], [1.0, 4.0, 2.0, 1.0]
                if run == "bad" and step == 3:
                    limits = [0.0, float("nan"), 2.0, 3.0]
                elif run == "bad" and step == 5:
                    counts = [1.0, -4.0, 2.0, 1.0]
                elif run == "bad" and step == 7:
                    limits = [0.0, 2.0, 1.0, 3.0]
                histo = proto([v + step for v in limits], counts)
                writer.file_writer.add_summary(
                    Summary(value=[Summary.Value(tag="w", histo=histo)]),
                    step,
                    walltime=WALL0 + step,
                )
    return root
