"""Profiler traces: where the training step's time goes (layer: kinds).

Profilers write their traces beside the event files, where TensorBoard's profile
plugins look for them: torch.profiler's ``tensorboard_trace_handler`` writes
``<run>/<worker>.<id>.pt.trace.json[.gz]`` (Kineto's Chrome-trace JSON); TF 2.x and JAX
write ``<run>/plugins/profile/<session>/<host>.xplane.pb`` (an ``XSpace`` protobuf) and
older TF a ``<host>.trace.json.gz`` there. Each trace is attached to its run (the
directory above ``plugins/``, or the one holding the file), whether or not that
directory holds event files. Where a session holds both a host's ``xplane.pb`` and its
Chrome export, the XPlane is read.

``exp.profile`` is a :class:`ProfileSet`: ``traces`` lists the files (nothing parsed);
``events``, ``lanes`` and ``memory`` are the parsed traces' frames (each parsed once, on
first use); ``steps``, ``operators``, ``kernels`` and the other analyses come from
:mod:`tbnb.analysis.profile`, named here as text (a lower layer never imports a higher
one). ``tbnb.profile(path)`` reads a trace file or a folder the same way.

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/prof/run1/w.1.pt.trace.json", b'{"traceEvents": [{"ph": "X", "cat": "cpu_op",'
...         b' "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]}')
>>> fs.pipe("/prof/run2/plugins/profile/2024_01_01/h.xplane.pb", b"")
>>> profile = list_traces(fs, "/prof")
>>> profile.traces[["trace", "format"]].to_dict("list")
{'trace': ['run1/w.1', 'run2/2024_01_01/h'], 'format': ['chrome', 'xplane']}
>>> profile.trace(0).events[["name", "kind", "dur"]].to_dict("records")
[{'name': 'aten::mm', 'kind': 'cpu_op', 'dur': 5.0}]
"""

from __future__ import annotations

import gzip
import os
import posixpath
import threading
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.io.files import open_side_file
from tbnb.io.logdir import qualified_run, run_name, walk
from tbnb.kinds.base import FilesKind, Tab
from tbnb.kinds.profile.analyses import ANALYSES
from tbnb.kinds.profile.chrome import read_chrome
from tbnb.kinds.profile.trace import EVENT_COLUMNS, MEMORY_COLUMNS, Trace, TraceBuilder
from tbnb.kinds.profile.xplane import read_xplane
from tbnb.warnings import DataWarning

__all__ = [
    "ANALYSES",
    "KIND",
    "TRACE_COLUMNS",
    "ProfileSet",
    "is_trace_file",
    "list_traces",
    "profile",
]

_SUFFIXES = {
    ".pt.trace.json": "chrome",
    ".pt.trace.json.gz": "chrome",
    ".xplane.pb": "xplane",
    ".trace.json.gz": "chrome",
    ".trace.json": "chrome",
}
LARGE_BYTES = 256 << 20
"""Traces at least this large are announced before reading (they take seconds)."""

TRACE_COLUMNS = ["trace", "run", "session", "worker", "format", "path", "bytes"]
"""Columns of ``exp.profile.traces``: ``trace`` names a trace uniquely (run, session,
worker); ``session`` is the ``plugins/profile/<session>`` folder ("" for torch)."""


def is_trace_file(name: str) -> str | None:
    """The format of a profiler trace file by its name, or None.

    Examples
    --------
    >>> is_trace_file("vm_448.179.pt.trace.json"), is_trace_file("h.xplane.pb")
    ('chrome', 'xplane')
    >>> is_trace_file("events.out.tfevents.1.h") is None
    True
    """
    base = posixpath.basename(name)
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if base.endswith(suffix) and len(base) > len(suffix):
            return _SUFFIXES[suffix]
    return None


def _stem(base: str) -> str:
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


def _files(fs: Any, root: str) -> list[tuple[str, int]]:
    """Every regular file under ``root`` named as a trace, with its size (the logdir's
    walk: links to folders followed, each real folder once; FIFOs and devices never
    listed)."""
    found = []
    for directory, files, _others in walk(fs, root):
        for name in files:
            if is_trace_file(name) is None:
                continue
            path = posixpath.join(directory.rstrip("/"), name)
            try:
                size = int(fs.size(path) or 0)
            except OSError:
                continue  # gone while listed
            found.append((path, size))
    return sorted(found)


def _place(root: str, path: str) -> tuple[str, str]:
    """``(run, session)`` of a trace file: the folder above ``plugins/profile/<session>``."""
    directory = posixpath.dirname(path)
    parts = directory.split("/")
    if len(parts) >= 3 and parts[-3:-1] == ["plugins", "profile"]:
        return run_name(root, "/".join(parts[:-3]) or "/"), parts[-1]
    return run_name(root, directory), ""


def list_traces(fs: Any, root: str) -> ProfileSet:
    """Every profiler trace under ``root``, attached to its run (nothing is parsed yet)."""
    rows = []
    for path, size in _files(fs, root):
        fmt = str(is_trace_file(path))
        run, session = _place(root, path)
        rows.append(
            {
                "run": run,
                "session": session,
                "worker": _stem(posixpath.basename(path)),
                "format": fmt,
                "path": path,
                "bytes": size,
            }
        )
    table = pd.DataFrame(rows, columns=TRACE_COLUMNS[1:])
    if len(table):  # a session's Chrome export of an XPlane: the XPlane is read
        xplanes = set(
            zip(
                *[table.loc[table["format"] == "xplane", c] for c in ("run", "session", "worker")],
                strict=True,
            )
        )
        exported = [
            (r, s, w) in xplanes and p.endswith(".trace.json.gz")
            for r, s, w, p in zip(
                table["run"], table["session"], table["worker"], table["path"], strict=True
            )
        ]
        table = table[~np.array(exported, dtype=bool)].reset_index(drop=True)
    names = [
        "/".join(part for part in (r if r != "." else "", s, w) if part)
        for r, s, w in zip(table["run"], table["session"], table["worker"], strict=True)
    ]
    table.insert(0, "trace", names)
    return ProfileSet(fs, table, root=root)


def read_trace(fs: Any, path: str, fmt: str, within: Sequence[str] = ()) -> Trace:
    """Parse one trace file (gzip by its name), streaming JSON, read as a file beside
    the event files is (:func:`tbnb.io.files.open_side_file`: a regular file that
    resolves inside ``within``); a file that cannot be read is an empty trace whose
    problem says why."""
    try:
        with open_side_file(fs, path, within=within) as raw:
            if fmt == "xplane":
                return read_xplane(raw.read(), path)
            if path.endswith(".gz"):
                with gzip.GzipFile(fileobj=raw) as unzipped:
                    return read_chrome(unzipped, path)  # type: ignore[arg-type]
            return read_chrome(raw, path)
    except OSError as error:
        message = str(error) if path in str(error) else f"{path}: {error}"
        builder = TraceBuilder(path, fmt)
        builder.problems.append(f"{message} (trace not read)")
        return builder.finish()


class ProfileSet:
    """The profiler traces of an experiment (``exp.profile``) or a folder (``tbnb.profile``).

    Attributes
    ----------
    traces : pandas.DataFrame
        One row per trace file (:data:`TRACE_COLUMNS`), nothing parsed.
    """

    def __init__(self, fs: Any, traces: pd.DataFrame, *, root: str | None = None) -> None:
        self.fs = fs
        self.traces = traces
        self.root = root
        self._parsed: dict[str, Trace] = {}
        self._frames: dict[str, Any] = {}
        self._lock = threading.RLock()

    def __len__(self) -> int:
        return len(self.traces)

    def __repr__(self) -> str:
        runs = sorted(set(self.traces["run"]))
        return f"<tbnb.ProfileSet: {len(self)} trace(s) in run(s) {runs}>"

    @property
    def runs(self) -> list[str]:
        """Runs holding at least one trace."""
        return list(dict.fromkeys(self.traces["run"]))

    def name_of(self, which: int | str) -> str:
        """The ``trace`` name of a row number, a trace name or a run (its first trace)."""
        names = self.traces["trace"].tolist()
        if isinstance(which, (int, np.integer)):
            if not -len(names) <= which < len(names):
                raise IndexError(f"trace {which} does not exist: there are {len(names)} ({names})")
            return str(names[int(which)])
        if which in names:
            return str(which)
        by_run = self.traces.loc[self.traces["run"] == which, "trace"].tolist()
        if by_run:
            return str(by_run[0])
        raise KeyError(f"no trace or run named {which!r}; traces: {names}")

    def trace(self, which: int | str = 0) -> Trace:
        """One trace, parsed (once): its ``events``, ``lanes``, ``memory`` and ``problems``.

        Problems (a truncated file, unknown categories, no device activity, clock skew)
        are issued once as :class:`~tbnb.warnings.DataWarning` naming the file.
        """
        name = self.name_of(which)
        with self._lock:
            parsed = self._parsed.get(name)
            if parsed is None:
                row = self.traces.loc[self.traces["trace"] == name].iloc[0]
                if int(row["bytes"]) >= LARGE_BYTES:
                    warnings.warn(
                        f"tbnb: {row['path']}: {int(row['bytes']) / 2**20:,.0f} MiB trace; "
                        "reading it streamed takes a few seconds per hundred MiB",
                        DataWarning,
                        stacklevel=3,
                    )
                parsed = read_trace(
                    self.fs, str(row["path"]), str(row["format"]), self._within(row)
                )
                for problem in parsed.problems:
                    warnings.warn(f"tbnb: {problem}", DataWarning, stacklevel=3)
                self._parsed[name] = parsed
        return parsed

    def _within(self, row: pd.Series) -> list[str]:
        """Where a trace may resolve: the logdir or its run's own folder (a run that is
        a link to elsewhere); anywhere for a file named by the user."""
        if self.root is None:
            return []
        run = str(row["run"])
        return [self.root, self.root if run == "." else posixpath.join(self.root, run)]

    def _joined(self, attribute: str, columns: list[str]) -> pd.DataFrame:
        with self._lock:
            cached = self._frames.get(attribute)
            if cached is None:
                parts = []
                for name, run in zip(self.traces["trace"], self.traces["run"], strict=True):
                    frame = getattr(self.trace(name), attribute)
                    parts.append(frame.assign(trace=name, run=run))
                if parts:
                    cached = pd.concat(parts, ignore_index=True)
                    for key in (
                        "trace",
                        "run",
                        "process",
                        "thread",
                        "name",
                        "category",
                        "input_dims",
                        "grid",
                        "block",
                    ):
                        if key in cached:
                            cached[key] = cached[key].astype("category")
                else:
                    cached = pd.DataFrame(columns=columns)
                cached = cached[
                    ["trace", "run", *[c for c in cached.columns if c not in ("trace", "run")]]
                ]
                self._frames[attribute] = cached
        return cached.copy(deep=False)

    @property
    def events(self) -> pd.DataFrame:
        """Every timed span of every trace (see :data:`~tbnb.kinds.profile.trace.EVENT_COLUMNS`)."""
        return self._joined("events", ["trace", "run", *EVENT_COLUMNS])

    @property
    def lanes(self) -> pd.DataFrame:
        """Every lane (process and thread, or device and stream) of every trace."""
        return self._joined("lanes", ["trace", "run"])

    @property
    def memory(self) -> pd.DataFrame:
        """Allocator samples of every trace (:data:`tbnb.kinds.profile.trace.MEMORY_COLUMNS`)."""
        return self._joined("memory", ["trace", "run", *MEMORY_COLUMNS])

    def analysis(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call ``tbnb.analysis.profile.<name>(self, ...)``, imported on first use."""
        if name not in ANALYSES:
            raise ValueError(f"no profile analysis {name!r}; there are {', '.join(ANALYSES)}")
        return ANALYSES[name](self, *args, **kwargs)

    @property
    def steps(self) -> pd.DataFrame:
        """Per step: wall time split into kernel, memcpy, memset, runtime, data loading,
        CPU-only and idle time (:func:`tbnb.analysis.profile.step_breakdown`)."""
        return self.analysis("step_breakdown")

    @property
    def operators(self) -> pd.DataFrame:
        """Per operator (and input shapes): calls, self and total CPU time, device time,
        kernels launched (:func:`tbnb.analysis.profile.operator_table`)."""
        return self.analysis("operator_table")

    @property
    def kernels(self) -> pd.DataFrame:
        """Per kernel: calls, total/mean/max time, grid, block, registers, shared memory,
        occupancy (:func:`tbnb.analysis.profile.kernel_table`)."""
        return self.analysis("kernel_table")


def profile(
    path: str | os.PathLike[str], *, storage_options: dict[str, Any] | None = None
) -> ProfileSet:
    """The profiler traces of a trace file or a folder (a logdir, a run, a session).

    Examples
    --------
    >>> import tempfile, pathlib, tbnb
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "w.1.pt.trace.json").write_text('{"traceEvents": []}')
    >>> tbnb.profile(folder / "w.1.pt.trace.json").traces["trace"].tolist()
    ['w.1']
    """
    text = os.fspath(path)
    if "://" in text:
        from fsspec.core import url_to_fs

        fs, target = url_to_fs(text, **(storage_options or {}))
    else:
        from tbnb.io.local import LocalFiles

        fs = LocalFiles()
        target = os.path.abspath(os.path.expanduser(text))
    if not fs.exists(target):
        raise FileNotFoundError(f"no trace file or folder {text!r}")
    if fs.isdir(target):
        found = list_traces(fs, target.rstrip("/") or "/")
        if not len(found):
            warnings.warn(
                f"tbnb: no profiler traces under {text!r} (looked for *.pt.trace.json[.gz], "
                "plugins/profile/*/*.xplane.pb and *.trace.json.gz)",
                DataWarning,
                stacklevel=2,
            )
        return found
    fmt = is_trace_file(target)
    if fmt is None:
        raise ValueError(
            f"{text!r} is not a profiler trace (*.pt.trace.json[.gz], *.xplane.pb or "
            "*.trace.json[.gz])"
        )
    stem = _stem(posixpath.basename(target))
    row = [stem, ".", "", stem, fmt, target, int(fs.size(target))]
    return ProfileSet(fs, pd.DataFrame([row], columns=TRACE_COLUMNS))


def merge_traces(fs: Any, parts: list[tuple[str, ProfileSet]]) -> ProfileSet:
    """The traces of several logdirs as one set read through ``fs``, each run and trace
    named ``name/...`` (:func:`~tbnb.io.logdir.qualified_run`)."""
    tables = []
    for name, traces in parts:
        table = traces.traces.copy()
        for column in ("run", "trace"):
            table[column] = [qualified_run(name, str(value)) for value in table[column]]
        tables.append(table)
    return ProfileSet(fs, pd.concat(tables, ignore_index=True))


def _present(experiment: Any) -> bool:
    return len(experiment.frame("profile")) > 0


KIND = FilesKind(
    key="profile",
    doc=(
        "Profiler traces beside the runs (``exp.profile``: traces, events, steps, "
        "operators, kernels, memory)."
    ),
    list_files=list_traces,
    merge=merge_traces,
    tab=Tab("Profile", "tbnb.widgets.profile:profiler", present=_present),
)
