"""How every view orders, picks and filters names (runs, tags, groups), decided once.

Runs and tags are listed in natural order (numbers read as numbers), a ``runs=`` or
``tags=`` argument picks names the same way in every builder, a filter box's regex is
compiled the way the browser compiles it (case-insensitive, searched, an invalid one
ignored), and run colours follow the experiment's run order.

Examples
--------
>>> sorted(["lr=0.1", "lr=0.001", "lr=0.01"], key=natural_key)
['lr=0.001', 'lr=0.01', 'lr=0.1']
>>> pick(["a/seed0", "b/seed1"], "SEED0", "runs")
['a/seed0']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "color_order",
    "legend_order",
    "matcher",
    "matching",
    "natural_key",
    "pick",
]

_NUMBER = re.compile(r"(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def natural_key(text: str) -> tuple[list[Any], str]:
    """Sort key reading numbers as numbers: ``lr=0.001`` < ``lr=0.01`` < ``lr=0.1`` < ``lr=1e1``.

    Examples
    --------
    >>> sorted(["run10", "run9", "lr=1e1", "lr=0.5"], key=natural_key)
    ['lr=0.5', 'lr=1e1', 'run9', 'run10']
    """
    parts = _NUMBER.split(text)
    return [float(p) if i % 2 else p.lower() for i, p in enumerate(parts)], text


def legend_order(names: list[str]) -> list[str]:
    """Numeric order when every name is a number (groups by an hparam), else natural.

    Examples
    --------
    >>> legend_order(["0.1", "0.01", "1e-3"]), legend_order(["b2", "b10", "a"])
    (['1e-3', '0.01', '0.1'], ['a', 'b2', 'b10'])
    """
    try:
        return sorted(names, key=float)
    except ValueError:
        return sorted(names, key=natural_key)


def pick(names: list[str], spec: str | Sequence[str] | None, what: str) -> list[str]:
    """The names a ``runs=``/``tags=`` argument keeps: a case-insensitive regex, or a list
    of names (an unknown one is a ``ValueError``); ``None`` keeps all.

    Examples
    --------
    >>> pick(["a/seed0", "b/seed1"], "SEED0", "runs"), pick(["a", "b"], ["b"], "runs")
    (['a/seed0'], ['b'])
    >>> pick(["a"], ["z"], "tags")
    Traceback (most recent call last):
    ...
    ValueError: unknown tags: ['z']
    """
    if spec is None:
        return names
    if isinstance(spec, str):
        try:
            pattern = re.compile(spec, re.IGNORECASE)
        except re.error as err:
            raise ValueError(f"{what}= is not a valid regex: {spec!r} ({err})") from err
        return [n for n in names if pattern.search(n)]
    wanted = {str(s) for s in spec}
    missing = wanted.difference(names)
    if missing:
        raise ValueError(f"unknown {what}: {sorted(missing)}")
    return [n for n in names if n in wanted]


def matcher(pattern: str) -> re.Pattern[str] | None:
    """A filter box's regex, compiled as the browser compiles it: case-insensitive and
    searched; None for an empty or invalid one, which the browser also ignores (it marks
    the box instead).

    Examples
    --------
    >>> matcher("^VAL").search("val/x") is not None, matcher("(") is None, matcher("") is None
    (True, True, True)
    """
    if not pattern:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return None


def matching(names: Iterable[str], pattern: str) -> list[str]:
    """The names a filter box's regex keeps (every name for an empty or invalid one).

    Examples
    --------
    >>> matching(["train/loss", "val/loss", "lr"], "loss$"), matching(["a"], "(")
    (['train/loss', 'val/loss'], ['a'])
    """
    compiled = matcher(pattern)
    return [n for n in names if compiled is None or compiled.search(n)]


def color_order(present: Sequence[str], source_runs: Sequence[str] | None) -> list[str]:
    """Runs in the order that decides their colours: the source's run order (``exp.runs``,
    so every widget of one experiment agrees) then any other present run in first-seen order.

    Examples
    --------
    >>> color_order(["b", "c", "a"], ["a", "b"])
    ['a', 'b', 'c']
    >>> color_order(["b", "a"], None)
    ['b', 'a']
    """
    order = [str(r) for r in source_runs] if source_runs is not None else []
    seen = set(order)
    return order + [r for r in present if r not in seen]
