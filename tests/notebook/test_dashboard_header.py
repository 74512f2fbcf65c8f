"""The dashboard's header: what was found, when it was written, what the filters left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from tbnb._proto import Event, Summary
from tbnb.notebook.dashboard import Dashboard
from tests.writers import write_events


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("header")
    for i, run in enumerate(["keep_a", "keep_b", "drop_c"]):
        (root / run).mkdir()
        write_events(
            str(root / run / "events.out.tfevents.1700000000.host"),
            [
                Event(
                    step=s,
                    wall_time=1.7e9 + 3600 * i + 60 * s,
                    summary=Summary(value=[Summary.Value(tag="loss", simple_value=1.0 / (s + 1))]),
                )
                for s in range(3)
            ],
        )
    return root


def test_header_says_runs_kinds_and_when(logdir: Path) -> None:
    header = Dashboard(logdir).header_text
    assert "3 runs" in header
    assert "Scalars" in header
    # first event 2023-11-14 22:13 UTC, last two hours and two minutes later
    assert "written 2023-11-14 22:13 UTC, over 2 h 02 min" in header
    assert "left out" not in header


def test_header_names_the_filter_and_what_it_left_out(logdir: Path) -> None:
    header = Dashboard(logdir, runs="^keep").header_text
    assert "2 runs" in header
    assert "filtered by runs='^keep': 1 run left out" in header
