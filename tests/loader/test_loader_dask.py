"""Loading on a dask.distributed cluster: ``executor=client.get_executor()``.

Each run is a picklable task, so any ``concurrent.futures.Executor`` runs them; here a
two-worker ``LocalCluster`` (worker processes) loads and reloads a logdir of real
writers, and every frame equals a load in this process.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import tbnb
from tests import writers

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
KINDS = (
    "scalars",
    "histograms",
    "images",
    "audio",
    "text",
    "pr_curves",
    "tensors",
    "hparams",
    "graphs",
)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Worker processes import this checkout's tbnb, as the test process does.
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, env=env
    )
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def _same(a: tbnb.Experiment, b: tbnb.Experiment) -> None:
    assert a.runs == b.runs
    for kind in KINDS:
        writers.assert_frames_identical(getattr(a, kind), getattr(b, kind))


@pytest.mark.slow
def test_a_dask_cluster_loads_and_reloads_the_same_frames(client: Any, tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    logdir = tmp_path / "logs"
    shutil.copytree(writers.cached("tensorboardX").logdir, logdir)
    remote = tbnb.load(logdir, executor=client.get_executor(), progress=False)
    local = tbnb.load(logdir, progress=False)
    assert len(remote.scalars) > 0
    _same(remote, local)
    workers = set(client.run(os.getpid).values())
    assert os.getpid() not in workers

    with SummaryWriter(str(logdir / "late")) as writer:  # a new run and more of an old one
        for step in range(5):
            writer.add_scalar("late/loss", 1.0 / (step + 1), step)
    (old,) = [p for p in writers.event_files(str(logdir)) if "late" not in p][:1]
    with SummaryWriter(os.path.dirname(old)) as writer:
        writer.add_scalar("appended", 3.0, 99)
    report = remote.reload()
    assert report.changed
    assert "late" in report.new_runs
    local.reload()
    _same(remote, local)  # a reload appends at the end: the same, in the same order
    fresh = tbnb.load(logdir, progress=False).scalars
    keys = ["run", "tag", "step", "wall_time"]
    pd.testing.assert_frame_equal(
        remote.scalars.astype({"run": str, "tag": str}).sort_values(keys, ignore_index=True),
        fresh.astype({"run": str, "tag": str}).sort_values(keys, ignore_index=True),
    )
