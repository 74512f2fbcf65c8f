"""The hparams view's parameter importance is computed after the view is built.

A slow stand-in for :func:`tbnb.analysis.importance.parameter_importance` (it waits on a
gate the test opens) shows that the widget is built while the importance is still being
computed, that the ``_importance`` trait fills when it is done, that a result for an older
table or metric is dropped, and that an export waits for it (or says it was not ready).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.analysis import importance as analysis
from tbnb.notebook import export
from tbnb.notebook.export import read_page, render_html
from tbnb.widgets.hparams import hparams

GATE_S = 60.0


@dataclass
class Gate:
    """The stand-in's controls: it records each call, then waits for :attr:`open`."""

    open: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)
    calls: list[str] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)
    fail: bool = False


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    real = analysis.parameter_importance
    state = Gate()

    def slow(frame: pd.DataFrame, metric: str, **kw: Any) -> pd.DataFrame:
        state.calls.append(metric)
        state.threads.append(threading.current_thread().name)
        state.started.set()
        assert state.open.wait(GATE_S), "the test never opened the gate"
        if state.fail:
            raise RuntimeError("the forest fell over")
        return real(frame, metric, **kw)

    monkeypatch.setattr(analysis, "parameter_importance", slow)
    yield state
    state.open.set()  # never leave a thread waiting


def _table(flip: bool = False) -> pd.DataFrame:
    """12 runs; the metric follows ``lr`` (or ``bs`` when ``flip``), the other is noise."""
    rng = np.random.default_rng(1)
    lr = np.tile([0.1, 0.01, 0.001], 4)
    bs = np.repeat([16, 32, 64, 128], 3)
    driver = np.log10(bs) if flip else -np.log10(lr)
    df = pd.DataFrame(
        {
            "lr": lr,
            "bs": bs,
            "acc.last": driver + rng.normal(0, 0.01, 12),
            "loss.last": rng.normal(size=12),
        },
        index=pd.Index([f"r{i}" for i in range(12)], name="run"),
    )
    df.attrs["hparam_columns"] = ["lr", "bs"]
    df.attrs["metric_columns"] = ["acc.last", "loss.last"]
    return df


def _top(entry: dict[str, Any]) -> str:
    return str(entry["feature"][int(np.nanargmax(entry["importance"]))])


def test_the_widget_is_built_before_the_importance_is_computed(gate: Gate) -> None:
    from tbnb.widgets.hparams.importance import importance_entry

    table = _table()
    w = hparams(table, metric="acc.last")  # returns with the forest still waiting
    assert gate.started.wait(GATE_S)
    assert gate.threads == ["tbnb-importance"]  # off the kernel's main thread
    assert w._importance == {}
    assert w._table["runs"] == list(table.index)  # table and axes are there already
    assert w.order == ["lr", "bs", "acc.last", "loss.last"]
    changes: list[dict[str, Any]] = []
    w.observe(lambda change: changes.append(change["new"]), "_importance")
    gate.open.set()
    assert w.wait_ready(GATE_S)
    assert list(w._importance) == ["acc.last"]
    got, want = w._importance["acc.last"], importance_entry(table, "acc.last", ["lr", "bs"])
    assert got["feature"] == want["feature"] == ["lr", "bs"]
    np.testing.assert_allclose(got["importance"], want["importance"])
    np.testing.assert_allclose(got["pearson"], want["pearson"])
    assert len(changes) == 1  # the trait was set once, from the background


def test_a_result_for_an_older_table_is_dropped(gate: Gate) -> None:
    w = hparams(_table(), metric="acc.last")
    assert gate.started.wait(GATE_S)
    w._set_frame(_table(flip=True))  # what a reload does: a new table, same metric
    assert w._importance == {}
    gate.open.set()
    assert w.wait_ready(GATE_S)
    assert gate.calls == ["acc.last", "acc.last"]  # the old table's job ran, then the new
    assert _top(w._importance["acc.last"]) == "bs"  # the new table's answer, not lr


def test_a_result_for_a_metric_no_longer_chosen_is_dropped(gate: Gate) -> None:
    w = hparams(_table(), metric="acc.last")
    assert gate.started.wait(GATE_S)
    w.metric = "loss.last"
    gate.open.set()
    assert w.wait_ready(GATE_S)
    assert list(w._importance) == ["loss.last"]
    w.metric = "acc.last"  # chosen again: computed again
    assert w.wait_ready(GATE_S)
    assert set(w._importance) == {"loss.last", "acc.last"}
    assert _top(w._importance["acc.last"]) == "lr"


def test_the_browser_asking_before_its_metric_change_arrives_gets_an_answer(gate: Gate) -> None:
    """The browser sets ``metric`` and asks for its importance at once; the request can
    reach the kernel before the change of ``metric`` does."""
    w = hparams(_table(), metric="acc.last")
    assert gate.started.wait(GATE_S)
    reply = w.answer({"type": "importance", "id": 7, "metric": "loss.last"})
    assert reply == {"type": "importance", "id": 7, "metric": "loss.last"}
    w.metric = "loss.last"
    gate.open.set()
    assert w.wait_ready(GATE_S)
    assert "loss.last" in w._importance
    assert "feature" in w._importance["loss.last"]


def test_a_failure_is_shown_in_the_panel(gate: Gate) -> None:
    gate.fail = True
    gate.open.set()
    w = hparams(_table(), metric="acc.last")
    assert w.wait_ready(GATE_S)
    assert w._importance["acc.last"] == {
        "error": "parameter importance failed: RuntimeError: the forest fell over"
    }


def test_an_export_waits_for_the_importance(gate: Gate) -> None:
    table = _table()
    w = hparams(table, metric="acc.last")
    assert gate.started.wait(GATE_S)
    threading.Timer(0.3, gate.open.set).start()  # ready while the export waits
    page = read_page(render_html(w))
    (state,) = (s["state"] for s in page["state"].values() if "_importance" in s["state"])
    entry = state["_importance"]["acc.last"]
    assert entry["feature"] == ["lr", "bs"]
    assert gate.calls == ["acc.last"]  # what the background job computed


def test_an_export_that_times_out_says_so(gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "READY_TIMEOUT_S", 0.2)
    w = hparams(_table(), metric="acc.last")
    page = read_page(render_html(w))
    (state,) = (s["state"] for s in page["state"].values() if "_importance" in s["state"])
    assert state["_importance"]["acc.last"] == {
        "pending": "importance was not ready after 0.2 s (still computing when this was saved)"
    }
    gate.open.set()  # the kernel's view gets the bars when they are ready
    assert w.wait_ready(GATE_S)
    assert "feature" in w._importance["acc.last"]


def test_a_dashboard_page_carries_the_importance(gate: Gate, tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    for i, lr in enumerate((0.1, 0.01, 0.001)):
        with SummaryWriter(str(tmp_path / "logs" / f"r{i}")) as writer:
            writer.add_scalar("loss", lr * 10, 0)
            writer.add_hparams({"lr": lr}, {"hp/acc": 0.5 + i / 10})
    dash = tbnb.Dashboard(tbnb.load(tmp_path / "logs", progress=False))
    threading.Timer(0.3, gate.open.set).start()
    path = dash.to_html(tmp_path / "dash.html")
    page = read_page(path.read_text(encoding="utf-8"))
    (state,) = (s["state"] for s in page["state"].values() if "_importance" in s["state"])
    (entry,) = state["_importance"].values()
    assert entry["feature"] == ["lr"]
    assert gate.calls
