"""Notebook glue: the ``%tbnb`` magic and the :class:`Dashboard` widget.

``%load_ext tbnb`` registers the line magic::

    %tbnb [LOGDIR | NAME=LOGDIR ...] [--refresh N] [--runs REGEX] [--tags REGEX]

which shows a :class:`Dashboard` inline: one tab per kind of data present in the
logdir. Several logdirs are one experiment, as TensorBoard's ``--logdir_spec``:
``%tbnb baseline=runs/a new=s3://b/runs`` names each (runs ``baseline/...``),
``%tbnb runs/a runs/b`` names each by its path's shortest distinct ending
(:mod:`tbnb.loader.logdirs`). Everything renders inside the notebook (no TensorBoard server, port or
iframe), so it works behind JupyterHub/SageMaker proxies, in VS Code and Colab.

Without ``LOGDIR`` it shows the first of ``logs/``, ``runs/`` and
``lightning_logs/`` (the usual places writers put runs) found beside the notebook
(the kernel's working directory).

A kind gets a tab by declaring one in its ``tbnb/kinds/<key>.py`` (:mod:`tbnb.notebook.dashboard`).

Examples
--------
>>> args = parse_magic_line("memory://runs --refresh 10")
>>> args.logdir, args.refresh
('memory://runs', 10.0)
>>> parse_magic_line("baseline=memory://a new=memory://b").logdir
{'baseline': 'memory://a', 'new': 'memory://b'}
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
from pathlib import Path
from typing import Any, NoReturn

from tbnb.io.logdir import not_a_folder
from tbnb.loader.logdirs import named_logdirs
from tbnb.notebook.dashboard import Dashboard, expand_location

__all__ = [
    "DEFAULT_LOGDIRS",
    "find_logdir",
    "load_ipython_extension",
    "parse_magic_line",
    "tbnb_magic",
]

#: Where ``%tbnb`` looks, in order, when no logdir is given: PyTorch and Keras
#: examples' ``logs/`` and ``runs/`` (``SummaryWriter``'s default), Lightning's
#: ``lightning_logs/``.
DEFAULT_LOGDIRS = ("logs", "runs", "lightning_logs")


class _HelpShownError(Exception):
    """``%tbnb --help`` printed the help: nothing else to do."""


class _MagicArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting the kernel."""

    def error(self, message: str) -> NoReturn:
        from IPython.core.error import UsageError

        raise UsageError(f"{self.format_usage().strip()}\n%tbnb: error: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if status == 0:
            raise _HelpShownError
        self.error(message or "invalid arguments")


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text!r}")
    return value


def _regex(text: str) -> str:
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"invalid regular expression {text!r}: {exc}") from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = _MagicArgumentParser(
        prog="%tbnb",
        allow_abbrev=False,  # options added later must not change what a line means
        description="Show a TensorBoard logdir inline: one tab per kind of data.",
        epilog="Examples: %tbnb   %tbnb runs/   %tbnb '~/my runs' --refresh 30 --runs 'lr=0\\.01'"
        "   %tbnb baseline=runs/a new=s3://bucket/runs",
    )
    parser.add_argument(
        "logdir",
        nargs="*",
        metavar="LOGDIR | NAME=LOGDIR",
        help="local path (quote it if it has spaces) or fsspec URL; several are one "
        "experiment, their runs named NAME/run (or by each path's shortest distinct "
        "ending); default: the first of "
        + ", ".join(f"{d}/" for d in DEFAULT_LOGDIRS)
        + " in the current directory",
    )
    parser.add_argument(
        "--refresh", type=_positive_seconds, metavar="N", help="poll for new data every N seconds"
    )
    parser.add_argument("--runs", type=_regex, metavar="REGEX", help="only runs matching REGEX")
    parser.add_argument("--tags", type=_regex, metavar="REGEX", help="only tags matching REGEX")
    return parser


def find_logdir(directory: str | os.PathLike[str] = ".") -> Path | None:
    """The first of :data:`DEFAULT_LOGDIRS` under ``directory`` holding event files.

    A folder that exists but holds no ``*tfevents*`` file is passed over (an empty
    ``logs/`` left by a tool that logs elsewhere); ``None`` when none qualifies.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> here = pathlib.Path(tempfile.mkdtemp())
    >>> (here / "lightning_logs" / "version_0").mkdir(parents=True)
    >>> (here / "lightning_logs" / "version_0" / "events.out.tfevents.1.host").touch()
    >>> find_logdir(here).name
    'lightning_logs'
    >>> find_logdir(here / "lightning_logs" / "version_0") is None
    True
    """
    base = Path(directory)
    for name in DEFAULT_LOGDIRS:
        candidate = base / name
        if candidate.is_dir() and next(candidate.rglob("*tfevents*"), None) is not None:
            return candidate
    return None


def parse_magic_line(line: str) -> argparse.Namespace | None:
    """Parse the arguments of ``%tbnb``; ``None`` when ``--help`` was shown.

    Quoting follows the shell (``'my runs/'``); ``~`` is expanded for local paths
    and URLs are kept as they are. A local path that does not exist is an error. Several
    logdirs give ``args.logdir`` as ``{name: logdir}`` (``NAME=LOGDIR`` words) or a list
    (plain words), as :func:`tbnb.load` takes them: their names are checked here, a
    logdir that cannot be read warns when loaded and the others are shown.

    Raises
    ------
    IPython.core.error.UsageError
        On any invalid argument, with the usage line and the reason.

    Examples
    --------
    >>> from tbnb.notebook.magic import parse_magic_line
    >>> ns = parse_magic_line("memory://runs --refresh 5 --runs 'seed=0'")
    >>> (ns.logdir, ns.refresh, ns.runs)
    ('memory://runs', 5.0, 'seed=0')
    """
    parser = _parser()
    try:
        words = shlex.split(line, posix=os.name != "nt")
    except ValueError as exc:  # unbalanced quotes
        parser.error(f"cannot parse {line!r}: {exc}")
    try:
        args = parser.parse_args(words)
    except _HelpShownError:
        return None
    given: list[str] = args.logdir
    if not given:
        found = find_logdir()
        if found is None:
            parser.error(
                "no LOGDIR given, and none of "
                + ", ".join(f"{d}/" for d in DEFAULT_LOGDIRS)
                + f" in {Path.cwd()} holds event files; pass the logdir: %tbnb path/to/runs"
            )
        given = [str(found)]
    named = [_named(word) for word in given]
    if len(given) == 1 and named[0] is None:
        args.logdir = expand_location(given[0])
        if "://" not in args.logdir and not Path(args.logdir).is_dir():
            if Path(args.logdir).exists():
                parser.error(not_a_folder(args.logdir, os.path.abspath(args.logdir)))
            parser.error(f"logdir {args.logdir!r} does not exist")
        return args
    if any(n is None for n in named) and any(n is not None for n in named):
        parser.error(
            "name every logdir (NAME=LOGDIR ...) or none (each is then named by its path), "
            f"not some: {' '.join(given)}"
        )
    spec: dict[str, str] | list[str] = (
        {n[0]: expand_location(n[1]) for n in named if n is not None}
        if named[0] is not None
        else [expand_location(word) for word in given]
    )
    if isinstance(spec, dict) and len(spec) < len(given):
        parser.error(f"a logdir name is given twice: {' '.join(given)}")
    try:
        named_logdirs(spec)  # names checked here; unreadable logdirs warn when loaded
    except (TypeError, ValueError) as exc:
        parser.error(str(exc).removeprefix("tbnb: "))
    args.logdir = spec
    return args


def _named(word: str) -> tuple[str, str] | None:
    """``(name, logdir)`` of a ``NAME=LOGDIR`` word; ``None`` for a plain logdir (no
    ``=``, a ``/`` before the first ``=``, or an existing folder named so: ``lr=0.1``)."""
    name, equals, logdir = word.partition("=")
    if not equals or "/" in name or Path(expand_location(word)).exists():
        return None
    return name, logdir


def tbnb_magic(line: str) -> Dashboard | None:
    """``%tbnb [LOGDIR | NAME=LOGDIR ...] [--refresh N] [--runs REGEX] [--tags REGEX]``: the
    Dashboard, shown as the cell's result (``dash = %tbnb logs`` keeps it: ``dash.to_html()``,
    ``dash.views``; ``dash`` shows it)."""
    args = parse_magic_line(line)
    if args is None:
        return None
    return Dashboard(args.logdir, refresh=args.refresh, runs=args.runs, tags=args.tags)


tbnb_magic.__doc__ = _parser().format_help()


def load_ipython_extension(ipython: Any) -> None:
    """Register the ``%tbnb`` line magic (run ``%load_ext tbnb``).

    Examples
    --------
    >>> class Shell:                                 # stands in for get_ipython()
    ...     def register_magic_function(self, function, magic_kind, magic_name):
    ...         print(magic_kind, magic_name)
    >>> load_ipython_extension(Shell())
    line tbnb
    """
    ipython.register_magic_function(tbnb_magic, magic_kind="line", magic_name="tbnb")
