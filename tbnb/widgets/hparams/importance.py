"""Parameter importance for the hparams view, computed off the kernel's main thread.

The random forest behind :func:`tbnb.analysis.importance.parameter_importance` needs
scikit-learn, whose import alone takes seconds (more on a busy machine). The view shows its
table and parallel coordinates at once; :class:`ImportanceJobs` computes the importance of
a metric in a background thread (one forest at a time in the process) and hands the
result to the widget only if it is still wanted: each job is keyed by ``(generation,
metric)``, where the generation counts the tables the widget has shown, and a result for
an older table, or for a metric no longer chosen, is dropped. :meth:`ImportanceJobs.wait`
is what an export calls to put the importance into the page.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"bs": [16, 32, 64, 128], "loss": [4.0, 3.0, 2.0, 1.0]})
>>> got = {}
>>> jobs = ImportanceJobs(lambda key: True, lambda metric, entry: got.update({metric: entry}))
>>> jobs.start((0, "loss"), df, ["bs"])
True
>>> jobs.wait(60.0), got["loss"]["feature"]
(True, ['bs'])
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis import importance as analysis

__all__ = ["COMPUTING", "ImportanceJobs", "Key", "importance_entry", "timed_out_entry"]

log = logging.getLogger(__name__)

Key = tuple[int, str]
"""A job: ``(generation of the table, metric)``."""

COMPUTING = "computing importance…"
"""What the view says while a metric's importance is being computed."""

_ONE_AT_A_TIME = threading.Lock()
"""One forest at a time in the process: the machine's cores go to the kernel and the page."""


def importance_entry(frame: pd.DataFrame, metric: str, columns: Sequence[str]) -> dict[str, Any]:
    """What the browser shows for ``metric``: one entry of the ``_importance`` trait.

    Arrays go as binary buffers. Without scikit-learn the correlations are there, the
    importances NaN, and ``note`` names the extra that brings the forest.

    Examples
    --------
    >>> df = pd.DataFrame({"bs": [16, 32, 64, 128], "loss": [4.0, 3.0, 2.0, 1.0]})
    >>> entry = importance_entry(df, "loss", ["bs"])
    >>> entry["feature"], entry["importance"].tolist()
    (['bs'], [1.0])
    """
    forest = analysis.forest_available()
    imp = analysis.parameter_importance(
        frame, metric, columns=list(columns), importance="forest" if forest else "skip"
    )
    entry: dict[str, Any] = {
        "feature": [str(f) for f in imp.index],
        "parameter": [str(p) for p in imp["parameter"]],
        "importance": imp["importance"].to_numpy(dtype=np.float64),
        "spearman": imp["spearman"].to_numpy(dtype=np.float64),
        "pearson": imp["pearson"].to_numpy(dtype=np.float64),
        "n": imp["n"].to_numpy(dtype=np.int32),
    }
    if not forest:
        entry["note"] = (
            "importance needs scikit-learn, which is not installed: "
            f"pip install 'tbnb[{analysis.IMPORTANCE_EXTRA}]' (correlations shown)"
        )
    return entry


def timed_out_entry(seconds: float) -> dict[str, Any]:
    """The entry of a metric whose importance was not ready within ``seconds``.

    Examples
    --------
    >>> timed_out_entry(60)["pending"]
    'importance was not ready after 60 s (still computing when this was saved)'
    """
    why = f"importance was not ready after {seconds:.3g} s (still computing when this was saved)"
    return {"pending": why}


class ImportanceJobs:
    """Importance computed in background threads, delivered while still wanted.

    Parameters
    ----------
    is_current
        Whether a job's ``(generation, metric)`` is still wanted; asked before the
        forest is fitted and again, under :attr:`lock`, before the result is delivered.
    deliver
        Called with ``(metric, entry)`` under :attr:`lock` (the widget sets its trait).
    """

    def __init__(
        self,
        is_current: Callable[[Key], bool],
        deliver: Callable[[str, dict[str, Any]], None],
    ) -> None:
        self.lock = threading.Condition(threading.RLock())
        """Held while a result is delivered: a widget changing its table takes it too,
        so no result of the old table lands in the new one."""
        self._pending: set[Key] = set()
        self._is_current = is_current
        self._deliver = deliver

    def start(self, key: Key, frame: pd.DataFrame, columns: Sequence[str]) -> bool:
        """Compute ``key``'s metric for ``frame`` in a background thread (False: already
        being computed)."""
        with self.lock:
            if key in self._pending:
                return False
            self._pending.add(key)
        thread = threading.Thread(
            target=self._run,
            args=(key, frame, list(columns)),
            name="tbnb-importance",
            daemon=True,  # a kernel shutting down does not wait for a forest
        )
        thread.start()
        return True

    def _run(self, key: Key, frame: pd.DataFrame, columns: list[str]) -> None:
        entry: dict[str, Any] | None = None
        try:
            with _ONE_AT_A_TIME:
                if self._is_current(key):  # a job queued behind others may be stale by now
                    entry = importance_entry(frame, key[1], columns)
        except Exception as err:  # shown in the importance panel
            log.exception("tbnb: parameter importance for %r failed", key[1])
            entry = {"error": f"parameter importance failed: {type(err).__name__}: {err}"}
        finally:
            with self.lock:
                try:
                    if entry is not None and self._is_current(key):
                        self._deliver(key[1], entry)
                finally:
                    self._pending.discard(key)
                    self.lock.notify_all()

    def busy(self) -> bool:
        """Whether a wanted job is still running."""
        with self.lock:
            return any(self._is_current(key) for key in self._pending)

    def wait(self, timeout: float | None) -> bool:
        """Wait until no wanted job is running (False if ``timeout`` seconds passed first)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self.lock:
            while any(self._is_current(key) for key in self._pending):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self.lock.wait(left)
        return True
