"""Trait types that validate at the boundary: the rule, the message and the default live
with the type, not in a validator per widget.

A value set from Python (a builder's argument, ``w.bins = 40``) or from the browser
goes through the same check, and a wrong one is refused with a message naming the
trait, what it accepts and what it got. :class:`Regex` is the one exception the
browser needs: a filter box holds whatever is typed (the browser marks an invalid
regex and ignores it), so only a widget's constructor refuses an invalid pattern
(:func:`check_regexes`).

Examples
--------
>>> import traitlets as t
>>> class View(t.HasTraits):
...     mode = Choice(("a", "b", "c"), "a")
...     bins = IntRange(30, lo=1, hi=512)
...     smoothing = FloatRange(0.6, lo=0.0, hi=0.999)
>>> view = View()
>>> view.bins = 600
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: bins must be 1 to 512, got 600
>>> view.mode = "d"
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: mode must be one of ['a', 'b', 'c'], got 'd'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import traitlets as t

__all__ = [
    "Choice",
    "FloatRange",
    "IntRange",
    "Regex",
    "check_regexes",
    "either",
]


def either(*choices: str) -> str:
    """``'a' or 'b'`` / ``'a', 'b' or 'c'``: the choices of a message, in words.

    Examples
    --------
    >>> either("pr", "roc"), either("step", "relative", "wall")
    ("'pr' or 'roc'", "'step', 'relative' or 'wall'")
    """
    quoted = [repr(c) for c in choices]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


class Choice(t.Unicode):  # type: ignore[type-arg]
    """One of a few strings.

    Parameters
    ----------
    choices
        The accepted values.
    default_value
        Default: the first choice.
    aliases
        Other spellings accepted and stored as their choice (``{"wall_time": "wall"}``).
    accepts
        ``accepts(value) -> bool`` for values beyond ``choices`` (``"tag:<name>"``).
    expected
        What the message says is accepted (default ``one of [...]``).
    label
        The name the message gives (default the trait's name).
    lower
        Compare and store in lower case.

    Examples
    --------
    >>> import traitlets as t
    >>> class View(t.HasTraits):
    ...     x_axis = Choice(("step", "wall"), aliases={"wall_time": "wall"}, label="x",
    ...                     expected=either("step", "wall"))
    >>> view = View(x_axis="wall_time")
    >>> view.x_axis
    'wall'
    >>> view.x_axis = "time"
    Traceback (most recent call last):
    ...
    traitlets.traitlets.TraitError: x must be 'step' or 'wall', got 'time'
    """

    def __init__(
        self,
        choices: Sequence[str],
        default_value: str | None = None,
        *,
        aliases: Mapping[str, str] | None = None,
        accepts: Callable[[str], bool] | None = None,
        expected: str | None = None,
        label: str | None = None,
        lower: bool = False,
        **kwargs: Any,
    ) -> None:
        self.choices = tuple(choices)
        self.aliases = dict(aliases or {})
        self.accepts = accepts
        self.expected = expected or f"one of {list(self.choices)}"
        self.label = label
        self.lower = lower
        default = self.choices[0] if default_value is None else default_value
        super().__init__(default, **kwargs)
        self.info_text = self.expected

    def validate(self, obj: Any, value: Any) -> str:
        text = str(value)
        text = self.aliases.get(text, text)
        if self.lower:
            text = text.lower()
        if text in self.choices or (self.accepts is not None and self.accepts(text)):
            return text
        raise t.TraitError(f"{self.label or self.name} must be {self.expected}, got {value!r}")


def _bounds(name: str, lo: float | None, hi: float | None, unit: str = "") -> str:
    if lo is not None and hi is not None and unit:
        return f"{name} must be between {lo:g} and {hi:g} {unit}"
    if lo is not None and hi is not None:
        return f"{name} must be {lo} to {hi}"
    if lo is not None:
        return f"{name} must be >= {lo}"
    return f"{name} must be <= {hi}"


class IntRange(t.Int):  # type: ignore[type-arg]
    """An integer within ``[lo, hi]`` (either end optional); ``clip`` clamps instead of
    refusing; ``unit`` names what is counted in the message (``"pixels"``).

    Examples
    --------
    >>> import traitlets as t
    >>> class View(t.HasTraits):
    ...     page_size = IntRange(25, lo=1)
    >>> View(page_size=0)
    Traceback (most recent call last):
    ...
    traitlets.traitlets.TraitError: page_size must be >= 1, got 0
    """

    def __init__(
        self,
        default_value: int | None = 0,
        *,
        lo: int | None = None,
        hi: int | None = None,
        clip: bool = False,
        unit: str = "",
        **kwargs: Any,
    ) -> None:
        self.lo, self.hi, self.clip, self.unit = lo, hi, clip, unit
        super().__init__(default_value, **kwargs)

    def validate(self, obj: Any, value: Any) -> int | None:
        if value is None and self.allow_none:
            return None
        number = int(super().validate(obj, int(value) if isinstance(value, float) else value))
        return int(_check(str(self.name), number, self.lo, self.hi, self.clip, self.unit))


class FloatRange(t.Float):  # type: ignore[type-arg]
    """A float within ``[lo, hi]`` (either end optional); ``clip`` clamps instead of
    refusing.

    Examples
    --------
    >>> import traitlets as t
    >>> class View(t.HasTraits):
    ...     opacity = FloatRange(0.8, lo=0.05, hi=1.0, clip=True)
    >>> View(opacity=3).opacity
    1.0
    """

    def __init__(
        self,
        default_value: float = 0.0,
        *,
        lo: float | None = None,
        hi: float | None = None,
        clip: bool = False,
        unit: str = "",
        **kwargs: Any,
    ) -> None:
        self.lo, self.hi, self.clip, self.unit = lo, hi, clip, unit
        super().__init__(default_value, **kwargs)

    def validate(self, obj: Any, value: Any) -> float:
        number = float(super().validate(obj, float(value)))
        return float(_check(str(self.name), number, self.lo, self.hi, self.clip, self.unit))


def _check(
    name: str, value: float, lo: float | None, hi: float | None, clip: bool, unit: str
) -> float:
    low = lo is not None and value < lo
    high = hi is not None and value > hi
    if not (low or high):
        return value
    if clip:
        return float(lo if low else hi)  # type: ignore[arg-type]
    raise t.TraitError(f"{_bounds(name, lo, hi, unit)}, got {value}")


class Regex(t.Unicode):  # type: ignore[type-arg]
    """A filter box's case-insensitive regex (empty: no filter).

    The browser writes what is typed, an unfinished regex included (it marks the box and
    ignores it, as :func:`tbnb.widgets.ordering.matcher` does), so the trait keeps any
    text; a widget's constructor refuses an invalid one (:func:`check_regexes`).
    """

    def __init__(self, default_value: str = "", **kwargs: Any) -> None:
        super().__init__(default_value, **kwargs)

    def check(self, value: Any) -> None:
        """Raise ``ValueError`` naming the argument when ``value`` is not a valid regex."""
        import re

        try:
            re.compile(str(value))
        except re.error as err:
            raise ValueError(f"{self.name}= is not a valid regex: {value!r} ({err})") from err


def check_regexes(widget: type[t.HasTraits], given: Mapping[str, Any]) -> None:
    """Refuse an invalid regex given for any :class:`Regex` trait of class ``widget``.

    Examples
    --------
    >>> import traitlets as t
    >>> class View(t.HasTraits):
    ...     run_filter = Regex()
    >>> check_regexes(View, {"run_filter": "["})
    Traceback (most recent call last):
    ...
    ValueError: run_filter= is not a valid regex: '[' (unterminated character set at position 0)
    """
    traits = widget.class_traits()
    for name, value in given.items():
        trait = traits.get(name)
        if isinstance(trait, Regex) and value:
            trait.check(value)
