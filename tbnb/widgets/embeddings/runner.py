"""Background layouts for a projector view: one job at a time, its progress sent throttled.

A :class:`LayoutRunner` starts a :class:`~tbnb.analysis.projection.jobs.Job` on the
view's :class:`~tbnb.analysis.projection.engine.Projection`, cancels the one before,
and forwards what the job reports to two callbacks: ``status(dict)`` at most every
:data:`STATUS_SECONDS` and ``positions(coords, final)`` at most every
:data:`LAYOUT_SECONDS` (and always the last one). Reports of a job that was replaced
are dropped, so a late message of a cancelled run never overwrites the new one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tbnb.analysis.projection import Job, Progress, Projection

__all__ = ["LAYOUT_SECONDS", "STATUS_SECONDS", "LayoutRunner"]

STATUS_SECONDS = 0.2
LAYOUT_SECONDS = 0.25


class LayoutRunner:
    """Runs one layout job at a time for a view."""

    def __init__(
        self,
        status: Callable[[dict[str, Any]], None],
        positions: Callable[[str, np.ndarray, bool], None],
    ) -> None:
        self._status = status
        self._positions = positions
        self._lock = threading.Lock()
        self.job: Job | None = None
        self._sent_status = 0.0
        self._sent_layout = 0.0

    def start(self, projection: Projection, method: str, params: dict[str, Any]) -> Job:
        """Cancel the running job (if any) and start ``method`` with ``params``."""
        self.cancel()
        holder: dict[str, Job] = {}

        def current() -> bool:  # waits for start() to have recorded the job
            with self._lock:
                return holder.get("job") is not None and holder["job"] is self.job

        def on_update(progress: Progress, has_layout: bool) -> None:
            if not current():
                return
            now = time.monotonic()
            if (
                has_layout
                and progress.latest is not None
                and (now - self._sent_layout >= LAYOUT_SECONDS or progress.phase == "done")
            ):
                self._sent_layout = now
                self._positions(method, progress.latest, progress.phase == "done")
            if now - self._sent_status >= STATUS_SECONDS or progress.phase == "done":
                self._sent_status = now
                self._status(self._describe(method, params, "running", progress))

        def on_finish(job: Job) -> None:
            if not current():
                return
            progress = job.progress
            if job.state == "done" and job.result is not None:
                self._positions(method, job.result, True)
            self._status(self._describe(method, params, job.state, progress, job.error))

        with self._lock:
            self._sent_status = self._sent_layout = 0.0
            job = projection.start(method, params, on_update=on_update, on_finish=on_finish)
            holder["job"] = job
            self.job = job
        return job

    def cancel(self) -> bool:
        """Cancel the running job; True if there was one."""
        job = self.job
        if job is None or job.done:
            return False
        job.cancel()
        return True

    @staticmethod
    def _describe(
        method: str, params: dict[str, Any], state: str, progress: Progress, error: str = ""
    ) -> dict[str, Any]:
        out = {"method": method, "params": dict(params), "state": state, **progress.as_dict()}
        out["first_layout_s"] = (
            None if progress.first_layout_s is None else round(progress.first_layout_s, 3)
        )
        if error:
            out["error"] = error
        return out
