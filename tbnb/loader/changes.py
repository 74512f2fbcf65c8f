"""Files of a run that changed under a reload, and files whose cut tail is final.

A file read before that shrank, was replaced under its name (its first
:data:`HEAD_BYTES` differ) or was deleted makes the whole run be read again from the
start (:func:`files_changed`; the experiment drops what it held of the run first). A file
ending in a cut record followed by a newer file of the run lost that record: said once
(:func:`report_lost_tails`), and the file is not read again.

Examples
--------
>>> import fsspec
>>> from tbnb.loader.accumulate import RunAccumulator
>>> from tbnb.loader.state import FileState, RunTask
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/changes-doc/run/events.out.tfevents.1.h", b"0123")
>>> state = FileState("/changes-doc/run/events.out.tfevents.1.h", 0, offset=10)
>>> task = RunTask("run", fs, [state], {})
>>> acc = RunAccumulator(task)
>>> files_changed(task, acc), state.offset
(True, 0)
"""

from __future__ import annotations

from itertools import pairwise

from tbnb.io.files import read_window
from tbnb.io.remote import is_storage_error
from tbnb.loader.accumulate import RunAccumulator
from tbnb.loader.state import FileState, RunTask
from tbnb.warnings import CorruptRecordWarning, LogdirWarning

__all__ = ["HEAD_BYTES", "files_changed", "report_lost_tails"]

HEAD_BYTES = 64
"""Bytes of a file's start kept to recognise it: a file replaced under the same name (a
writer restarted within the same second truncates the earlier file) starts otherwise,
its first event's wall time at least."""


def files_changed(task: RunTask, acc: RunAccumulator) -> bool:
    """Whether a file read before was deleted, truncated or replaced; if so, every file of
    the run is to be read again from its start (said in a warning). Deleted files are
    forgotten."""
    changed: list[str] = []
    kept: list[FileState] = []
    for state in task.files:
        if state.offset == 0 and state.pending == 0:
            kept.append(state)
            continue
        try:
            size = int(task.fs.size(state.path))
        except Exception as error:
            if not is_storage_error(error):
                raise
            if isinstance(error, FileNotFoundError):
                changed.append(f"{state.path} was deleted (its values are dropped)")
                continue
            kept.append(state)  # unreadable now: said when it is read
            continue
        kept.append(state)
        if size < state.offset:
            changed.append(
                f"{state.path} shrank from {state.offset + state.pending} to {size} bytes"
            )
        elif state.head and size > state.offset + state.pending:
            head = read_window(task.fs, state.path, 0, len(state.head))
            if head != state.head:
                changed.append(f"{state.path} was replaced")
    if not changed:
        return False
    task.files[:] = kept
    for rank, state in enumerate(kept):
        state.reset(rank)
    acc.warnings.append(
        (
            LogdirWarning,
            f"tbnb: run {task.run!r}: {'; '.join(changed)}; its files were read again from "
            "the start",
        )
    )
    return True


def report_lost_tails(files: list[FileState], acc: RunAccumulator) -> None:
    """Say so when a file ends in a partial record and a newer file of the run follows.

    A partial last record is normally a file still being written, kept for the next
    reload; once a newer file follows, its writer has moved on and the record is lost
    (the writer was killed mid-record). Reported once per file.
    """
    for state, newer in pairwise(files):
        if state.pending and not state.tail_reported and (newer.offset or newer.pending):
            state.tail_reported = True
            acc.warnings.append(
                (
                    CorruptRecordWarning,
                    (
                        f"tbnb: {state.path}: its last {state.pending} bytes are a record cut "
                        f"short, and a newer file of the run follows "
                        f"({newer.path.rsplit('/', 1)[-1]}): "
                        "that record was lost (its writer stopped mid-record); everything "
                        "before it was kept"
                    ),
                )
            )
