"""The load progress bar: an HTML output in a notebook that leaves nothing behind."""

from __future__ import annotations

from typing import Any

import pytest

from tbnb.loader import progress
from tbnb.loader.progress import HtmlProgress, in_notebook, progress_bar


class _Handle:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def update(self, obj: Any) -> None:
        self.log.append(obj.data)


def _bar(total: int, **kwargs: Any) -> tuple[HtmlProgress, list[str], list[dict[str, Any]]]:
    log: list[str] = []
    calls: list[dict[str, Any]] = []

    def display(obj: Any, **kw: Any) -> _Handle:
        calls.append(kw)
        log.append(obj.data)
        return _Handle(log)

    return HtmlProgress(total, "tbnb.load", display=display, **kwargs), log, calls


def test_draws_in_place_and_empties_on_close() -> None:
    bar, log, calls = _bar(4_000_000, delay=0.0, min_interval=0.0)
    bar.update(1_000_000)
    bar.update(3_000_000)
    assert calls == [{"display_id": True}]  # one output, then updates of it
    assert "25%" in log[0]
    assert 'value="250"' in log[0]
    assert "100%" in log[1]
    assert "4.0 MB / 4.0 MB" in log[1]
    bar.close()
    assert log[-1] == ""  # nothing left in the saved notebook
    bar.update(10)
    bar.close()
    assert len(log) == 3  # closed: no more output


def test_delay_and_throttle() -> None:
    bar, log, _ = _bar(100, delay=3600.0)
    bar.update(50)
    bar.close()
    assert log == []  # a fast load shows nothing at all
    bar, log, _ = _bar(100, delay=0.0, min_interval=3600.0)
    for _ in range(10):
        bar.update(10)
    assert len(log) == 1  # redrawn at most every min_interval


def test_zero_total_is_complete() -> None:
    bar, log, _ = _bar(0, delay=0.0)
    bar.update(0)
    assert "100%" in log[0]


def test_terminal_uses_tqdm(monkeypatch: pytest.MonkeyPatch) -> None:
    from tqdm import tqdm

    assert not in_notebook()
    bar = progress_bar(10, "tbnb.load", delay=3600.0)
    assert isinstance(bar, tqdm)
    bar.close()
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    assert isinstance(progress_bar(10, "tbnb.load", delay=0.0), HtmlProgress)
