"""Logdirs for the chart image export tests: scalars and histograms by real writers.

:func:`write_chart_runs` writes tensorboardX histograms (``write_histogram_runs``, with a
run and a tag named like script payloads) and, in the same runs, tensorboardX scalars:
``train/loss`` and a tag :data:`HOSTILE_SCALAR` holding markup and ``&`` (a raw
``Summary``, since ``add_scalar`` would clean it), which an SVG must keep as text.
"""

from __future__ import annotations

from pathlib import Path

from tests.writers_histograms import HOSTILE_RUN, write_histogram_runs

HOSTILE_SCALAR = '<script>window.__pwned=1</script> & "loss"'
RUNS = ("lr=0.1", "lr=0.01", HOSTILE_RUN)


def write_chart_runs(root: Path, steps: int = 41) -> Path:
    """Histograms and scalars (``train/loss``, :data:`HOSTILE_SCALAR`) for :data:`RUNS`."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    write_histogram_runs(root, runs=RUNS[:2], steps=steps, hostile=True)
    for k, run in enumerate(RUNS):
        with SummaryWriter(str(root / run), filename_suffix=".scalars") as writer:
            for step in range(steps):
                writer.add_scalar("train/loss", (k + 1) / (1 + 0.1 * step), step)
                hostile = Summary(
                    value=[Summary.Value(tag=HOSTILE_SCALAR, simple_value=(step * (k + 2)) % 9)]
                )
                writer.file_writer.add_summary(hostile, step)
    return root
