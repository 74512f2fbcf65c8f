"""The loaded tree: one node per directory and per event file, as tbparse walks a logdir.

Examples
--------
>>> check_options({"dir_name"}, {"scalars"})
({'dir_name'}, {'scalars'})
"""

from __future__ import annotations

import os
import posixpath
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pandas as pd

from tbnb.compat.tbparse.names import ALL_EVENT_TYPES, ALL_EXTRA_COLUMNS, KINDS_FOR
from tbnb.io.local import LocalFiles
from tbnb.io.logdir import find_runs
from tbnb.loader.logdirs import describe_spec, named_logdirs
from tbnb.loader.run import FileState, LoadOptions, RunResult, RunTask, load_run
from tbnb.loader.tasks import choose_backend_for
from tbnb.warnings import LogdirWarning

__all__ = ["Dir", "Event", "File", "check_options", "load_tree", "open_path", "read_log_path"]


class Event(NamedTuple):
    step: int
    wall_time: float
    data: Any


@dataclass
class File:
    """One event file: what the loader read from it, and its per-type frames."""

    name: str
    result: RunResult
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    grouped: dict[str, dict[str, list[Event]]] = field(default_factory=dict)


@dataclass
class Dir:
    """A directory holding event files somewhere below it."""

    name: str
    children: dict[str, Dir | File] = field(default_factory=dict)


def check_options(extra_columns: Any, event_types: Any) -> tuple[set[str], set[str]]:
    """Validate as tbparse does (same exception types and messages)."""
    extra = extra_columns or set()
    if not isinstance(extra, set):
        raise ValueError(f"`columns` should be a {set} instead of {type(extra)!s}")
    diff = extra - ALL_EXTRA_COLUMNS
    if diff:
        raise KeyError(f"Invalid columns entries: {diff}")
    types = event_types or set(ALL_EVENT_TYPES)
    if not isinstance(types, set):
        raise ValueError(f"`event_types` should be a {set} instead of {type(types)!s}")
    diff = types - ALL_EVENT_TYPES
    if diff:
        raise KeyError(f"Invalid event types: {diff}")
    return set(extra), set(types)


def open_path(log_path: str) -> tuple[Any, str]:
    text = os.fspath(log_path)
    if "://" in text or "::" in text:
        from fsspec.core import url_to_fs

        fs, path = url_to_fs(text)
        return fs, path.rstrip("/") or "/"
    fs = LocalFiles()
    return fs, fs._strip_protocol(os.path.abspath(os.path.expanduser(text)))


def load_tree(fs: Any, path: str, types: set[str]) -> Dir | File:
    """Load every event file under ``path`` (or the file ``path``) into a tree."""
    # tbparse's histograms hold the writer's own buckets: kept beside edges and counts
    options = LoadOptions(kinds=frozenset().union(*(KINDS_FOR[t] for t in types)), raw_buckets=True)
    files: list[tuple[tuple[str, ...], str]]
    if not fs.isdir(path):
        files = [((posixpath.basename(path),), path)]
    else:
        files = []
        for run, paths in find_runs(fs, path).items():
            parts = () if run == "." else tuple(run.split("/"))
            files += [((*parts, posixpath.basename(p)), p) for p in paths]
    tasks = [
        RunTask(
            run="/".join(parts[:-1]) or ".",
            fs=fs,
            files=[FileState(path=p, rank=0)],
            tag_meta={},
            options=options,
        )
        for parts, p in files
    ]
    tasks = choose_backend_for(tasks)
    workers = min(os.cpu_count() or 1, len(tasks))
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(load_run, tasks))
    else:
        results = [load_run(t) for t in tasks]
    root = Dir(name="")
    for (parts, _), result in zip(files, results, strict=True):
        for category, message in result.warnings:
            warnings.warn(message, category, stacklevel=3)
        node = root
        part: str
        for part in parts[:-1]:
            child = node.children.setdefault(part, Dir(name=part))
            assert isinstance(child, Dir)
            node = child
        node.children[parts[-1]] = File(name=parts[-1], result=result)
    if not fs.isdir(path):
        return root.children[files[0][0][0]]
    _sort_tree(root)
    return root


def read_log_path(log_path: Any, types: set[str]) -> tuple[Any, dict[str, str], Dir | File]:
    """``(log_path, {name: path}, tree)`` of a reader's ``log_path``: one path (``ValueError``
    if not found, as tbparse), or several (``{name: path}``, or a list named as
    ``tbnb.load`` names it) as one tree, each below its name, one not found warning and the
    others read (``log_path``: the logdirs as one line)."""
    named = named_logdirs(log_path)
    if named is None:
        fs, path = open_path(log_path)
        if not fs.exists(path):
            raise ValueError(f"File or directory not found: {log_path}")
        return log_path, {}, load_tree(fs, path, types)
    root = Dir(name="")
    for name, logdir in named.items():
        try:
            fs, path = open_path(logdir)
            if not fs.exists(path):
                raise FileNotFoundError(f"File or directory not found: {logdir}")
        except OSError as error:
            warnings.warn(
                f"tbnb: logdir {name!r} ({logdir!r}) not read ({error}); the others are",
                LogdirWarning,
                stacklevel=3,
            )
            continue
        node = load_tree(fs, path, types)
        *above, last = name.split("/")
        parent = root
        for part in above:
            child = parent.children.setdefault(part, Dir(name=part))
            assert isinstance(child, Dir)  # names never nest (checked)
            parent = child
        parent.children[last] = (
            Dir(name=last, children={node.name: node}) if isinstance(node, File) else node
        )
        node.name = node.name if isinstance(node, File) else last
    _sort_tree(root)
    return describe_spec(named), named, root


def _sort_tree(node: Dir) -> None:
    """Order children by name at every level, as tbparse walks ``sorted(os.listdir())``."""
    node.children = dict(sorted(node.children.items()))
    for child in node.children.values():
        if isinstance(child, Dir):
            _sort_tree(child)
