"""Background jobs: a layout computed in a thread, with progress, partial results and cancel.

A :class:`Job` runs ``work(progress)`` in a daemon thread. ``work`` reports through the
:class:`Progress` it is given (``progress.update(...)``, ``progress.layout(array)``)
and checks ``progress.cancelled``; :meth:`Job.cancel` sets that flag and the work stops
at its next check (between chunks of iterations), raising :class:`Cancelled`.
Listeners (``on_update``) hear of every change from the job's thread.

Examples
--------
>>> import numpy as np
>>> def work(progress):
...     for step in range(3):
...         progress.update("optimizing", step + 1, 3)
...         progress.layout(np.full((2, 2), step, np.float32))
...     return progress.latest
>>> job = Job("demo", work)
>>> job.wait(10).tolist(), job.state
([[2.0, 2.0], [2.0, 2.0]], 'done')
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Cancelled", "Job", "Progress"]

log = logging.getLogger(__name__)

STATES = ("running", "done", "cancelled", "error")


class Cancelled(Exception):  # noqa: N818 - it is what happened, not an error
    """Raised inside a job's work when it was cancelled."""


@dataclass
class Progress:
    """What a job reports: phase, step of total, latest layout, and whether to stop."""

    phase: str = "starting"
    step: int = 0
    total: int = 0
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    latest: np.ndarray | None = None
    layouts: int = 0
    first_layout_s: float | None = None
    info: dict[str, Any] = field(default_factory=dict)
    """What the work found along the way (the kNN graph's method and recall), reported
    with every update."""
    _cancel: threading.Event = field(default_factory=threading.Event)
    _listeners: list[Callable[[Progress, bool], None]] = field(default_factory=list)

    @property
    def cancelled(self) -> bool:
        """Whether the job was asked to stop."""
        return self._cancel.is_set()

    @property
    def elapsed(self) -> float:
        """Seconds since the job started."""
        return time.monotonic() - self.started

    def check(self) -> None:
        """Raise :class:`Cancelled` if the job was cancelled."""
        if self._cancel.is_set():
            raise Cancelled

    def update(self, phase: str, step: int = 0, total: int = 0, message: str = "") -> None:
        """Report the phase and how far it is; raises :class:`Cancelled` when cancelled."""
        self.phase, self.step, self.total, self.message = phase, step, total, message
        self._tell(False)
        self.check()

    def layout(self, coords: np.ndarray) -> None:
        """Report an intermediate (or the final) layout."""
        self.latest = coords
        self.layouts += 1
        if self.first_layout_s is None:
            self.first_layout_s = self.elapsed
        self._tell(True)
        self.check()

    def _tell(self, has_layout: bool) -> None:
        for listener in list(self._listeners):
            try:
                listener(self, has_layout)
            except Exception:  # a listener never stops the work
                log.exception("tbnb projection listener failed")

    def as_dict(self) -> dict[str, Any]:
        """Phase, step, total, message, elapsed seconds and :attr:`info` (JSON-able)."""
        return {
            **self.info,
            "phase": self.phase,
            "step": self.step,
            "total": self.total,
            "message": self.message,
            "elapsed": round(self.elapsed, 3),
        }


class Job:
    """``work(progress)`` in a background thread.

    Attributes
    ----------
    name
        What runs (``"umap"``, ``"tsne"``).
    state
        ``"running"``, ``"done"``, ``"cancelled"`` or ``"error"``.
    result
        What ``work`` returned (the final layout), once done.
    error
        The exception's text, when it failed.
    """

    def __init__(
        self,
        name: str,
        work: Callable[[Progress], Any],
        *,
        on_update: Callable[[Progress, bool], None] | None = None,
        on_finish: Callable[[Job], None] | None = None,
    ) -> None:
        self.name = name
        self.progress = Progress()
        if on_update is not None:
            self.progress._listeners.append(on_update)
        self.state = "running"
        self.result: Any = None
        self.error = ""
        self._on_finish = on_finish
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(work,), name=f"tbnb-{name}", daemon=True
        )
        self._thread.start()

    def _run(self, work: Callable[[Progress], Any]) -> None:
        try:
            self.result = work(self.progress)
            self.state = "done"
        except Cancelled:
            self.state = "cancelled"
        except Exception as err:  # reported through state and error
            log.debug("tbnb projection job %s failed", self.name, exc_info=True)
            self.error = f"{type(err).__name__}: {err}"
            self.state = "error"
        finally:
            self._done.set()
            if self._on_finish is not None:
                try:
                    self._on_finish(self)
                except Exception:
                    log.exception("tbnb projection job callback failed")

    @property
    def done(self) -> bool:
        """Whether the job has finished (whatever its state)."""
        return self._done.is_set()

    def cancel(self) -> None:
        """Ask the job to stop (it stops between chunks of work)."""
        self.progress._cancel.set()

    def wait(self, timeout: float | None = None) -> Any:
        """Block until the job finishes; return its result.

        Raises
        ------
        TimeoutError
            When it has not finished within ``timeout`` seconds.
        RuntimeError
            When it failed (with its error) or was cancelled.
        """
        if not self._done.wait(timeout):
            raise TimeoutError(f"{self.name} still running after {timeout} s")
        if self.state == "error":
            raise RuntimeError(f"{self.name} failed: {self.error}")
        if self.state == "cancelled":
            raise RuntimeError(f"{self.name} was cancelled")
        return self.result

    def __repr__(self) -> str:
        p = self.progress
        return f"<Job {self.name} {self.state}: {p.phase} {p.step}/{p.total}>"
