"""Running one load's run tasks: the backend chosen once, an executor, a progress bar.

Every load decodes with the native C kernels when the package was built with them
(:mod:`tbnb.native`: loading them costs milliseconds, nothing compiles), else with the
numpy reference (:mod:`tbnb.loader.backend`): the choice is made once per load
(:func:`choose_backend_for`) and handed to every task in its options.

Examples
--------
>>> import fsspec
>>> from tbnb.loader.state import FileState, RunTask
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/tasks-doc/run/events.out.tfevents.1.h", b"")
>>> task = RunTask("run", fs, [FileState("/tasks-doc/run/events.out.tfevents.1.h", 0)], {})
>>> [result.run for result in run_tasks([task], None, False)]
['run']
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import replace

from tbnb.io.remote import is_storage_error
from tbnb.loader.backend import choose_backend
from tbnb.loader.progress import progress_bar
from tbnb.loader.run import load_run
from tbnb.loader.state import RunResult, RunTask

__all__ = [
    "PARALLEL_MIN_BYTES",
    "choose_backend_for",
    "run_tasks",
    "unread_bytes",
]

PARALLEL_MIN_BYTES = 4 << 20
"""From this many unread bytes on, runs load on a thread pool (smaller loads take less
time than starting threads, and less memory without them)."""


def unread_bytes(task: RunTask) -> int:
    """Bytes of the task's files not read yet (files that cannot be sized count 0)."""
    total = 0
    for state in task.files:
        try:
            total += max(int(task.fs.size(state.path)) - state.offset, 0)
        except Exception as error:
            if not is_storage_error(error):
                raise
    return total


def choose_backend_for(tasks: list[RunTask]) -> list[RunTask]:
    """The tasks of one load, each with the one backend chosen for the load's decoder
    (:func:`tbnb.loader.backend.choose_backend`; every backend gives identical frames)
    and the helper threads each may use (the cores the runs leave over)."""
    if not tasks:
        return tasks
    options = tasks[0].options
    backend = choose_backend(options.decoder)
    # cores left over by the runs (one run alone: every core) decode windows ahead
    helpers = (os.cpu_count() or 1) // len(tasks)
    options = replace(options, backend=backend, helpers=helpers if helpers >= 2 else 0)
    return [replace(t, options=options) for t in tasks]


def run_tasks(
    tasks: list[RunTask],
    executor: Executor | None,
    progress: bool | None,
    unread: int | None = None,
) -> Iterator[RunResult]:
    """Load every task (on ``executor``, or a thread pool as large as the machine).

    Results come in task order. ``progress``: ``None`` shows a bar for loads longer
    than a second, ``True`` always, ``False`` never (in a notebook an HTML bar that
    leaves nothing behind, :mod:`tbnb.loader.progress`; else tqdm's); ``unread`` is the
    bar's total (the tasks' unread bytes, counted if not given).
    """
    if not tasks:
        return iter(())
    bar = None
    if progress is not False:
        total = sum(unread_bytes(t) for t in tasks) if unread is None else unread
        bar = progress_bar(total, "tbnb.load", delay=0.0 if progress else 1.0)
    own = None
    if (
        executor is None
        and len(tasks) > 1
        and (os.cpu_count() or 1) > 1
        and (unread is None or unread >= PARALLEL_MIN_BYTES)
    ):
        own = executor = ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, len(tasks)))

    def results() -> Iterator[RunResult]:
        try:
            stream = executor.map(load_run, tasks) if executor else map(load_run, tasks)
            for result in stream:
                if bar is not None:
                    bar.update(result.bytes_read)
                yield result
        finally:
            if own is not None:
                own.shutdown(wait=True)
            if bar is not None:
                bar.close()

    return results()
