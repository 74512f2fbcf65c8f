"""Widgets following a live experiment, and what reaches the browser.

Logs written by tensorboardX, read again between writes; what the browser holds is
rebuilt here exactly as ``js/src/series/store.js`` builds it (``_data`` decoded, each
``"append"`` concatenated, a new ``_data`` replacing everything) and compared with a
fresh load of the same logdir.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.widgets.serializers import unpack

pytestmark = pytest.mark.filterwarnings("ignore::tbnb.warnings.TbnbWarning")


class Browser:
    """The scalars store of the front end: `_data` decoded, appends concatenated."""

    def __init__(self, widget: Any) -> None:
        self.widget = widget
        self.series: dict[tuple[str, str], dict[str, np.ndarray]] = {}
        self.raw: Any = None
        widget.send = self._receive
        self.sync()

    def sync(self) -> None:
        data = self.widget._data
        if data is self.raw:
            return
        self.raw = data
        self.series = {}
        s, cols = data["series"], data["columns"]
        offsets = np.r_[s["offset"], len(cols["value"])]
        for i in range(len(s["run"])):
            key = (data["runs"][s["run"][i]], data["tags"][s["tag"][i]])
            a, b = int(offsets[i]), int(offsets[i + 1])
            self.series[key] = {name: np.asarray(arr[a:b]) for name, arr in cols.items()}

    def _receive(self, content: Any, buffers: Any = None) -> None:
        msg = unpack(content, list(buffers or []))
        assert msg["type"] == "append"
        for part in msg["series"]:
            key = (part["run"], part["tag"])
            old = self.series.get(key)
            if old is None:
                self.series[key] = dict(part["columns"])
            else:
                for name, arr in part["columns"].items():
                    old[name] = np.concatenate([old[name], arr])

    def frame(self) -> pd.DataFrame:
        self.sync()
        rows = [
            pd.DataFrame({"run": run, "tag": tag, "step": c["step"], "value": c["value"]})
            for (run, tag), c in self.series.items()
        ]
        out = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
        return out.sort_values(["run", "tag", "step"], kind="stable").reset_index(drop=True)


def _fresh(logdir: Path) -> pd.DataFrame:
    df = tbnb.load(str(logdir)).scalars
    out = pd.DataFrame(
        {
            "run": df["run"].astype(str),
            "tag": df["tag"].astype(str),
            "step": df["step"].to_numpy(),
            "value": df["value"].to_numpy(),
        }
    )
    return out.sort_values(["run", "tag", "step"], kind="stable").reset_index(drop=True)


def _write(
    root: Path,
    run: str,
    steps: range,
    *,
    offset: float = 0.0,
    tags: tuple[str, ...] = ("loss",),
    purge_step: int | None = None,
    suffix: str = "",
) -> None:
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(str(root / run), purge_step=purge_step, filename_suffix=suffix)
    for step in steps:
        for tag in tags:
            writer.add_scalar(tag, offset + step / 10, step, walltime=1.7e9 + step + offset)
    writer.close()


def _same(browser: Browser, logdir: Path) -> None:
    got, want = browser.frame(), _fresh(logdir)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)


def test_a_restart_replaces_the_browsers_points(tmp_path: Path) -> None:
    """purge_step=5 after steps 0-9: the browser kept the old values of steps 5-9 beside
    the new ones (the new series was longer, so its tail was appended)."""
    _write(tmp_path, "run", range(10), suffix=".a")
    exp = tbnb.load(str(tmp_path))
    w = tbnb.scalars(exp)
    browser = Browser(w)
    _same(browser, tmp_path)
    _write(tmp_path, "run", range(5, 15), offset=100.0, purge_step=5, suffix=".b")
    w.refresh_now()
    _same(browser, tmp_path)
    assert browser.frame()["step"].tolist() == list(range(15))
    # and an append after the restart adds to the new points only
    _write(tmp_path, "run", range(15, 18), offset=100.0, suffix=".c")
    w.refresh_now()
    _same(browser, tmp_path)


def test_tags_and_runs_written_later_get_charts_and_are_shown(tmp_path: Path) -> None:
    _write(tmp_path, "a", range(5), suffix=".1")
    _write(tmp_path, "b", range(5), suffix=".1")
    exp = tbnb.load(str(tmp_path))
    w = tbnb.scalars(exp)
    browser = Browser(w)
    w.selected_runs = ["a"]  # the user turns b off
    _write(tmp_path, "a", range(5, 8), tags=("loss", "val/acc"), suffix=".2")
    _write(tmp_path, "c", range(3), suffix=".1")
    w.refresh_now()
    assert [c["key"] for c in w.charts] == ["loss", "val/acc"]
    assert w.selected_runs == ["a", "c"]  # c is new: shown; b stays off
    _same(browser, tmp_path)
    assert set(w.data["tag"]) == {"loss", "val/acc"}


def test_histograms_show_runs_written_later(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    def write(run: str, steps: range, suffix: str) -> None:
        writer = SummaryWriter(str(tmp_path / run), filename_suffix=suffix)
        for step in steps:
            writer.add_histogram("w", np.arange(10.0) + step, step)
        writer.close()

    write("a", range(3), ".1")
    exp = tbnb.load(str(tmp_path))
    h = tbnb.histograms(exp)
    assert h.selected_runs == ["a"]
    write("b", range(3), ".1")
    h.refresh_now()
    assert h.selected_runs == ["a", "b"]


def test_the_state_holds_a_preview_within_its_budget(tmp_path: Path) -> None:
    """300 runs x 10 tags x 400 steps: every series at 1,000 points was 36 MB of state."""
    runs, tags, steps = 300, 10, 400
    n = runs * tags * steps
    frame = pd.DataFrame(
        {
            "run": np.repeat([f"run{i:03d}" for i in range(runs)], tags * steps),
            "tag": np.tile(np.repeat([f"g/tag{j}" for j in range(tags)], steps), runs),
            "step": np.tile(np.arange(steps), runs * tags),
            "wall_time": 1.7e9 + np.tile(np.arange(steps), runs * tags),
            "value": np.random.default_rng(0).normal(size=n),
        }
    )
    w = tbnb.scalars(frame, state_budget=500_000)
    data = w._data
    nbytes = sum(arr.nbytes for arr in data["columns"].values())
    assert nbytes <= 500_000
    assert len(data["series"]["run"]) == runs * tags  # every series has its preview
    assert data["buckets"] < 200  # coarser than the screen: the browser asks
    reply = w.answer({"type": "series", "id": "1", "keys": [["run007", "g/tag3"]], "buckets": 200})
    assert reply is not None
    (series,) = reply["series"]
    assert series["total"] == steps
    full = frame[(frame["run"] == "run007") & (frame["tag"] == "g/tag3")]
    # 200 min/max buckets of 400 points: every point
    np.testing.assert_array_equal(series["columns"]["value"], full["value"].to_numpy())
    asked = w.answer({"type": "series", "id": "2", "keys": [["gone", "x"]], "buckets": 10**6})
    assert asked is not None
    assert asked["series"] == []
    assert asked["buckets"] == w.max_points // 2  # never more than the screen wants
    with pytest.raises(ValueError, match="state_budget"):
        tbnb.scalars(frame.head(10), state_budget=100)


def test_to_plotly_draws_a_one_point_series() -> None:
    """mode="lines" drew nothing for a series of one point."""
    frame = pd.DataFrame(
        {
            "run": ["a", "b", "b"],
            "tag": "loss",
            "step": [0, 0, 1],
            "wall_time": 0.0,
            "value": [1.0, 2.0, 3.0],
        }
    )
    fig = tbnb.scalars(frame, smoothing=0).to_plotly()
    one = [tr for tr in fig.data if tr.name == "a"]
    assert one
    assert all("markers" in tr.mode for tr in one)
    two = [tr for tr in fig.data if tr.name == "b"]
    assert two
    assert all(tr.mode == "lines" for tr in two)


def test_a_histograms_reload_reads_only_new_rows_and_equals_a_fresh_load(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    from tbnb.widgets.histograms.store import HistogramStore

    def write(run: str, steps: range, suffix: str, purge_step: int | None = None) -> None:
        writer = SummaryWriter(str(tmp_path / run), filename_suffix=suffix, purge_step=purge_step)
        for step in steps:
            values = np.random.default_rng(step).normal(step / 3, 1.0, 50)
            writer.add_histogram("w", values, step)
            writer.add_histogram("b", values * 2, step, bins=7)
        writer.close()

    write("a", range(6), ".1")
    write("b", range(4), ".1")
    exp = tbnb.load(str(tmp_path))
    h = tbnb.histograms(exp)
    before = h._store
    assert before is not None
    assert before.blocks is not None
    write("a", range(6, 9), ".2")
    h.refresh_now()

    def same_as_fresh() -> None:
        store, fresh = h._store, HistogramStore.from_frame(tbnb.load(str(tmp_path)).histograms)
        assert store is not None
        assert store.keys == fresh.keys
        np.testing.assert_array_equal(store.steps, fresh.steps)
        for got, want in ((store.edges, fresh.edges), (store.counts, fresh.counts)):
            for row in range(len(got)):
                np.testing.assert_array_equal(got[store.order[row]], want[fresh.order[row]])
        ask = {"type": "series", "id": "1", "keys": [["a", "w"], ["b", "b"]], "bins": 12}
        fresh_widget = tbnb.histograms(tbnb.load(str(tmp_path)))
        got_reply, want_reply = h.answer(ask), fresh_widget.answer(ask)
        assert got_reply is not None
        assert want_reply is not None
        for g, w in zip(got_reply["items"], want_reply["items"], strict=True):
            np.testing.assert_array_equal(g["steps"], w["steps"])
            np.testing.assert_allclose(g["counts"], w["counts"])

    store = h._store
    assert store is not None
    # the rows of run b and the first six of a are the earlier store's own arrays
    b0, _ = before.blocks["b"]
    b1, _ = store.blocks["b"]  # type: ignore[index]
    assert store.edges[b1] is before.edges[b0]
    same_as_fresh()
    write("a", range(3, 5), ".3", purge_step=3)  # a restart: nothing is reused
    h.refresh_now()
    same_as_fresh()
