"""Running one load's run tasks: the decoder to use, an executor, a progress bar.

Every load decodes with the native C kernels when the package was built with them
(:mod:`tbnb.native`: loading them costs milliseconds, nothing compiles). Without
them, a load of less than :data:`COMPILED_MIN_BYTES` decodes with numpy: importing
numba and loading its kernels would cost more than they save. A larger one uses the
numba kernels once :mod:`tbnb.jit` has them in the cache; until then it decodes with
numpy too and starts the compile in a detached background process, so no load ever
waits for the compiler.

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
from tbnb.loader.progress import progress_bar
from tbnb.loader.run import load_run
from tbnb.loader.state import RunResult, RunTask
from tbnb.native import available as native_available

__all__ = [
    "COMPILED_MIN_BYTES",
    "PARALLEL_MIN_BYTES",
    "choose_decoder",
    "run_tasks",
    "unread_bytes",
]

COMPILED_MIN_BYTES = 64 << 20
"""From this many unread bytes on, a load uses the compiled kernels (when in the cache)."""

PARALLEL_MIN_BYTES = 4 << 20
"""From this many unread bytes on, runs load on a thread pool (smaller loads take less
time than starting threads, and less memory without them)."""


def available() -> bool:
    """:func:`tbnb.jit.available`, imported only when asked (a native load never is)."""
    from tbnb.jit import available as jit_available

    return jit_available()


def ready(group: str) -> bool:
    """:func:`tbnb.jit.ready` (imported when asked)."""
    from tbnb.jit import ready as jit_ready

    return jit_ready(group)


def compile_in_background(group: str) -> bool:
    """:func:`tbnb.jit.compile_in_background` (imported when asked)."""
    from tbnb.jit import compile_in_background as jit_compile_in_background

    return jit_compile_in_background(group)


def load_kernels(group: str) -> bool:
    """:func:`tbnb.jit.load` (imported when asked)."""
    from tbnb.jit import load as jit_load

    return jit_load(group)


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


def choose_decoder(tasks: list[RunTask], unread: int) -> list[RunTask]:
    """Resolve the ``auto`` decoder of a load of ``unread`` bytes (see the module notes).

    Every decoder gives identical frames. ``native`` whenever the C library loads;
    else only a file check is made here: each task uses the numba kernels if they load
    from the cache when it starts (:func:`tbnb.jit.load`), and numpy otherwise.
    """
    if not tasks or tasks[0].options.decoder != "auto":
        return tasks
    decoder = "numpy"
    if native_available():
        decoder = "native"
    elif unread >= COMPILED_MIN_BYTES and available():
        # Each task takes the kernels if they are in the cache when it starts: a large
        # load on a fresh install decodes with numpy until the background compile is done.
        decoder = "compiled"
        if not ready("loader"):
            compile_in_background("loader")
    options = replace(tasks[0].options, decoder=decoder)
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
    if tasks[0].options.decoder == "compiled" and (
        executor is None or isinstance(executor, ThreadPoolExecutor)
    ):
        load_kernels("loader")  # once, here, rather than in the first task while others wait
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
