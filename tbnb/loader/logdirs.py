"""The logdirs of one experiment: one, or several named ones (TensorBoard's ``--logdir_spec``).

``tbnb.load("runs")`` reads one logdir; ``tbnb.load({"baseline": "runs/a", "new":
"s3://b/runs"})`` reads several as one experiment, each run named ``name/run`` (the
logdir's own run: ``name``); ``tbnb.load(["x/runs", "y/runs"])`` names each logdir by
the shortest ending of its path that tells it from the others (``x/runs``,
``y/runs``). Names are checked before anything is read (:func:`check_names`): two
alike, one inside another (``a`` and ``a/b``: run ``a/b/c`` could be either's) or one
that cannot prefix a run name is a ``ValueError`` naming it.

A logdir that cannot be opened (missing, not a directory, refused credentials) does not
stop the others: :class:`Logdirs` keeps why (``member.problem``), warns once naming it,
and tries it again on each reload (a logdir created later is picked up, as TensorBoard
does). One logdir given alone still raises, as it always did.

Examples
--------
>>> named_logdirs({"baseline": "runs/a", "new": "s3://b/runs"})
{'baseline': 'runs/a', 'new': 's3://b/runs'}
>>> named_logdirs(["/data/x/runs", "/data/y/runs", "memory://z"])
{'x/runs': '/data/x/runs', 'y/runs': '/data/y/runs', 'z': 'memory://z'}
>>> named_logdirs("runs") is None                    # one logdir: run names as they are
True
>>> check_names(["a", "a/b"])
Traceback (most recent call last):
...
ValueError: tbnb: logdir names 'a' and 'a/b' clash: a run 'a/b/...' could be in either; rename one
"""

from __future__ import annotations

import itertools
import os
import posixpath
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import pandas as pd

from tbnb.io.logdir import open_logdir, qualified_run
from tbnb.io.union import LogdirUnion, check_roots
from tbnb.warnings import LogdirWarning

__all__ = [
    "LogdirSpec",
    "Logdirs",
    "Member",
    "check_names",
    "describe_spec",
    "merge_frames",
    "named_logdirs",
    "suffix_names",
]

LogdirSpec: TypeAlias = (
    str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | Sequence[str | os.PathLike[str]]
)
"""One logdir, ``{name: logdir}``, or a list of logdirs (each named by its path)."""


def named_logdirs(spec: Any) -> dict[str, str] | None:
    """``{name: logdir}`` of a spec of several logdirs (``None`` for one logdir).

    Raises
    ------
    TypeError
        A spec, name or logdir of the wrong type.
    ValueError
        No logdir, names that clash or cannot prefix a run name, a list whose paths
        cannot be told apart by their endings.
    """
    if isinstance(spec, (str, os.PathLike)):
        return None
    if isinstance(spec, Mapping):
        out = {}
        for name, logdir in spec.items():
            if not isinstance(name, str):
                raise TypeError(f"tbnb: logdir names must be strings, got {name!r}")
            out[name] = _logdir_text(logdir, name)
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes):
        paths = [_logdir_text(logdir) for logdir in spec]
        out = dict(zip(suffix_names(paths), paths, strict=True))
    else:
        raise TypeError(
            "tbnb: a logdir is a path or URL, {name: logdir} or a list of logdirs; "
            f"got {type(spec).__name__}"
        )
    if not out:
        raise ValueError("tbnb: no logdir given (an empty dict or list)")
    check_names(list(out))
    return out


def _logdir_text(logdir: Any, name: str | None = None) -> str:
    if not isinstance(logdir, (str, os.PathLike)) or not os.fspath(logdir):
        which = f"logdir {name!r}" if name is not None else "each logdir"
        raise TypeError(f"tbnb: {which} must be a path or URL, got {logdir!r}")
    return str(os.fspath(logdir))


def _parts(logdir: str) -> tuple[str, list[str]]:
    """A logdir's protocol (``""`` local) and folder names, a local path made absolute."""
    if "://" in logdir or "::" in logdir:
        protocol, _, path = logdir.split("::", maxsplit=1)[0].rpartition("://")
    else:
        protocol, path = "", os.path.abspath(os.path.expanduser(logdir)).replace(os.sep, "/")
    return protocol, [part for part in path.split("/") if part not in ("", ".")]


def suffix_names(paths: Sequence[str]) -> list[str]:
    """Each path's shortest ending (whole folder names) that no other path shares.

    Examples
    --------
    >>> suffix_names(["/exp/a/runs", "/exp/b/runs", "/exp/c"])
    ['a/runs', 'b/runs', 'c']
    """
    located = [_parts(p) for p in paths]
    parts = [folders for _, folders in located]
    for i, path in enumerate(paths):
        if not parts[i]:
            raise ValueError(
                f"tbnb: logdir {path!r} has no folder name to name its runs by; "
                "name the logdirs: tbnb.load({'name': ..., ...})"
            )
        if located[i] in located[:i]:
            raise ValueError(f"tbnb: logdir {path!r} is given twice")
    names = []
    for i, mine in enumerate(parts):
        others = [p for j, p in enumerate(parts) if j != i]
        for k in range(1, len(mine) + 1):
            if all(p[-k:] != mine[-k:] for p in others):
                names.append("/".join(mine[-k:]))
                break
        else:  # another path ends with this whole one (s3://b/runs and gs://b/runs)
            raise ValueError(
                f"tbnb: logdir {paths[i]!r} cannot be told from the others by its folder "
                "names; name the logdirs: tbnb.load({'name': ..., ...})"
            )
    return names


def check_names(names: Iterable[str]) -> None:
    """Refuse names that cannot prefix run names, or two that clash (``ValueError``).

    A name is folder names joined by ``/``: not empty, no ``.`` or ``..`` part, no
    leading, trailing or doubled ``/``, no backslash, no control or invisible character.
    """
    names = list(names)
    for name in names:
        problem = _name_problem(name)
        if problem:
            raise ValueError(f"tbnb: logdir name {name!r} cannot prefix run names: {problem}")
    ordered = sorted(names)
    for a, b in itertools.pairwise(ordered):
        if a == b or b.startswith(a + "/"):
            raise ValueError(
                f"tbnb: logdir names {a!r} and {b!r} clash: a run '{b}/...' could be in "
                "either; rename one"
            )


def _name_problem(name: str) -> str:
    if not name:
        return "it is empty"
    if name != name.strip():
        return "it starts or ends with a space"
    if "\\" in name:
        return "it holds a backslash (run names use '/')"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        return "it holds a control or invisible character"
    parts = name.split("/")
    if "" in parts:
        return "it starts or ends with '/' or holds '//'"
    if any(part in (".", "..") for part in parts):
        return "it holds a '.' or '..' folder"
    return ""


def describe_spec(named: Mapping[str, str]) -> str:
    """The logdirs as one line, as ``%tbnb`` takes them.

    Examples
    --------
    >>> describe_spec({"baseline": "runs/a", "new": "s3://b/runs"})
    'baseline=runs/a new=s3://b/runs'
    """
    return " ".join(f"{name}={logdir}" for name, logdir in named.items())


@dataclass
class Member:
    """One logdir of an experiment: its name (``""`` alone), as given, and once opened
    its filesystem and root; ``problem`` says why it could not be opened."""

    name: str
    logdir: str
    fs: Any = None
    root: str = ""
    problem: str = ""

    @property
    def readable(self) -> bool:
        """Whether it was opened."""
        return self.fs is not None

    def describe(self) -> str:
        """The logdir in messages: ``'runs/a'``, or ``'baseline' ('runs/a')``."""
        return f"{self.name!r} ({self.logdir!r})" if self.name else repr(self.logdir)


class Logdirs:
    """The logdirs of one experiment, each opened when it can be (see the module).

    Parameters
    ----------
    spec
        One logdir, ``{name: logdir}`` or a list of logdirs.
    storage_options
        fsspec options of every remote logdir, or ``{name: options}`` (every key a
        logdir's name) for each its own.
    """

    def __init__(self, spec: Any, storage_options: dict[str, Any] | None = None) -> None:
        named = named_logdirs(spec)
        self.several = named is not None
        if named is None:
            self.logdir = str(os.fspath(spec))
            fs, root = open_logdir(self.logdir, storage_options)  # one logdir: raise
            self.members = [Member("", self.logdir, fs, root)]
        else:
            self.logdir = describe_spec(named)
            self.members = [Member(name, logdir) for name, logdir in named.items()]
        self._options = storage_options or {}
        self.union: LogdirUnion | None = None
        self.open()

    def _options_of(self, member: Member) -> dict[str, Any] | None:
        options = self._options
        names = {m.name for m in self.members}
        if options and set(options) <= names and all(isinstance(v, dict) for v in options.values()):
            return dict(options.get(member.name) or {})
        return options or None

    def open(self) -> bool:
        """Open the logdirs not open yet; warn once for each that cannot be. Whether one
        was opened now."""
        opened = False
        for member in self.members:
            if member.readable:
                continue
            try:
                fs, root = open_logdir(member.logdir, self._options_of(member))
                check_roots([(fs, root), *((m.fs, m.root) for m in self.readable)])
            except (OSError, ValueError) as error:
                problem = str(error).removeprefix("tbnb: ")
                if problem != member.problem:
                    warnings.warn(
                        f"tbnb: logdir {member.describe()} cannot be read ({problem}); "
                        "its runs are left out, and it is tried again on each reload",
                        LogdirWarning,
                        stacklevel=5,
                    )
                member.problem = problem
                continue
            member.fs, member.root, member.problem = fs, root, ""
            opened = True
        if opened or self.union is None:
            self.union = LogdirUnion([(m.fs, m.root) for m in self.readable])
        return opened

    @property
    def readable(self) -> list[Member]:
        """The logdirs opened."""
        return [m for m in self.members if m.readable]

    @property
    def fs(self) -> Any:
        """One filesystem for every file of the experiment: the logdir's own, or the
        union of the logdirs' (:class:`~tbnb.io.union.LogdirUnion`)."""
        if not self.several:
            return self.members[0].fs
        return self.union

    @property
    def root(self) -> str:
        """The logdir's root on :attr:`fs` (``""``, the union's, for several)."""
        return self.members[0].root if not self.several else LogdirUnion.root

    @property
    def named(self) -> dict[str, str]:
        """``{name: logdir as given}`` (``{"": logdir}`` for one logdir)."""
        return {m.name: m.logdir for m in self.members}

    def member_of(self, run: str) -> Member:
        """The logdir holding ``run`` (``KeyError`` if none)."""
        if not self.several:
            return self.members[0]
        for member in self.members:
            if run == member.name or run.startswith(member.name + "/"):
                return member
        raise KeyError(f"no logdir holds run {run!r}; logdirs: {', '.join(self.named)}")

    def run_path(self, run: str) -> str:
        """The directory of ``run`` on :attr:`fs` (``"."``: the logdir's root; with
        several logdirs, the union's root)."""
        if run == "." or not self.several:
            root = self.root
            return root if run == "." else f"{root.rstrip('/')}/{run}"
        member = self.member_of(run)
        if not member.readable:
            raise KeyError(f"run {run!r}: logdir {member.describe()} was not opened")
        rest = run[len(member.name) :].lstrip("/")
        return member.root if not rest else posixpath.join(member.root.rstrip("/") or "/", rest)


def merge_frames(fs: Any, parts: list[tuple[str, Any]]) -> Any:
    """The listings of several logdirs as one frame, each run named ``name/run``.

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"run": [".", "x"], "n": [1, 2]})
    >>> merge_frames(None, [("a", a), ("b", a)])["run"].tolist()
    ['a', 'a/x', 'b', 'b/x']
    """
    frames = [
        frame.assign(run=[qualified_run(name, str(run)) for run in frame["run"]])
        for name, frame in parts
    ]
    return pd.concat(frames, ignore_index=True)
