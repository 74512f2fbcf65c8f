"""Running one load's run tasks: the decoder to use, an executor, a progress bar.

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

from tbnb.decode.warmup import decoder_ready, warm_decoder
from tbnb.io.remote import is_storage_error
from tbnb.loader.run import load_run
from tbnb.loader.state import RunResult, RunTask

__all__ = ["choose_decoder", "run_tasks", "unread_bytes"]


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


def choose_decoder(tasks: list[RunTask], cold_limit: int) -> list[RunTask]:
    """Decode a small load with protobuf while the compiled decoder is still cold.

    Compiling it takes tens of seconds once per install; protobuf decodes a few
    megabytes faster than that, and both give identical frames. The compiler runs
    in the background meanwhile, for the next (re)load.
    """
    if not tasks or not tasks[0].options.fast or decoder_ready():
        return tasks
    warm_decoder()
    if sum(unread_bytes(t) for t in tasks) > cold_limit:
        return tasks
    slow = replace(tasks[0].options, fast=False)
    return [replace(t, options=slow) for t in tasks]


def run_tasks(tasks: list[RunTask], executor: Executor | None,
              progress: bool | None) -> Iterator[RunResult]:
    """Load every task (on ``executor``, or a thread pool as large as the machine).

    Results come in task order. ``progress``: ``None`` shows a bar for loads longer
    than a second, ``True`` always, ``False`` never.
    """
    if not tasks:
        return iter(())
    bar = None
    if progress is not False:
        from tqdm.auto import tqdm

        bar = tqdm(total=sum(unread_bytes(t) for t in tasks), unit="B", unit_scale=True,
                   desc="tbnb.load", delay=0.0 if progress else 1.0, leave=False)
    own = None
    if executor is None and len(tasks) > 1 and (os.cpu_count() or 1) > 1:
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
