"""The run, tag and kind filters of :func:`tbnb.load`, validated once with clear errors.

Examples
--------
>>> keep = run_matcher("seed=1")
>>> keep("lr=0.1,seed=1"), keep("lr=0.1,seed=2")
(True, False)
>>> kinds_option(["scalars", "histogram"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown event_types ['histogram'] (did you mean 'histograms'?); choose from ...
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence

from tbnb.kinds import EVENT_TYPES

__all__ = ["RunFilter", "describe", "kinds_option", "run_matcher", "tag_option"]

RunFilter = str | Sequence[str] | Callable[[str], bool] | None
"""A regular expression searched in run names, a list of names, or a predicate."""


def run_matcher(runs: RunFilter) -> Callable[[str], bool]:
    """The predicate a run filter stands for."""
    if runs is None:
        return lambda run: True
    if callable(runs):
        return runs
    if isinstance(runs, str):
        try:
            pattern = re.compile(runs)
        except re.error as error:
            raise ValueError(f"runs={runs!r} is not a valid regular expression: {error}") from None
        return lambda run: pattern.search(run) is not None
    wanted = set(runs)
    return lambda run: run in wanted


def tag_option(tags: str | Sequence[str] | None) -> str | tuple[str, ...] | None:
    """A validated tag filter: a regular expression or a tuple of tags."""
    if tags is None:
        return None
    if isinstance(tags, str):
        try:
            re.compile(tags)
        except re.error as error:
            raise ValueError(f"tags={tags!r} is not a valid regular expression: {error}") from None
        return tags
    return tuple(tags)


def kinds_option(event_types: Iterable[str] | None) -> frozenset[str]:
    """The kinds to load; unknown names raise ``ValueError`` with a suggestion."""
    if event_types is None:
        return EVENT_TYPES
    if isinstance(event_types, str):
        event_types = {event_types}
    kinds = frozenset(event_types)
    unknown = sorted(kinds - EVENT_TYPES)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(EVENT_TYPES), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown event_types {unknown}{hint}; choose from {sorted(EVENT_TYPES)}")
    return kinds


def describe(value: object) -> str:
    """A filter as the user wrote it, for messages."""
    if callable(value) and not isinstance(value, str):
        return getattr(value, "__name__", "a function")
    return repr(value if isinstance(value, str) else list(value))  # type: ignore[call-overload]
