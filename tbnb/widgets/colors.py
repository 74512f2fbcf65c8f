"""Run colours, decided once for every widget.

A run's colour is its position in the experiment's run order (``exp.runs``) taken through
a categorical palette, so every widget built from one experiment (the scalars charts, the
hparams lines and table, the dashboards to come) draws a run in the same colour, and runs
next to each other in the order never share one. A DataFrame source uses its own run
order. Colours travel to the browser in each widget's ``run_colors`` trait; the palettes
are mirrored in ``js/src/color/palettes.js`` for colouring by category.

Examples
--------
>>> run_colors(["lr=0.1", "lr=0.01"])
{'lr=0.1': '#4e79a7', 'lr=0.01': '#f28e2b'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import traitlets as t

from tbnb.widgets.ordering import matching
from tbnb.widgets.traits import Choice

__all__ = [
    "COLORBLIND_PALETTE",
    "DEFAULT_PALETTE",
    "PALETTES",
    "Palette",
    "RunColored",
    "palette_of",
    "run_colors",
]

#: 20 colours told apart at a glance (pairwise CIEDE2000 >= 18), each readable on white
#: and on a dark theme: Tableau's blue, orange, red, green and purple, then each next
#: colour the one farthest from those before it. Runs beyond 20 repeat the cycle.
DEFAULT_PALETTE: tuple[str, ...] = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#59a14f",
    "#b07aa1",
    "#694e05",
    "#7f0fbd",
    "#2cc5ce",
    "#095e48",
    "#c8b40c",
    "#843a50",
    "#9f3000",
    "#aaaef4",
    "#496b00",
    "#93834f",
    "#3fb1fa",
    "#9964fb",
    "#08878d",
    "#e7a391",
    "#4f4d7d",
)

#: Paul Tol's "muted" scheme: 9 colours that stay distinct under protanopia, deuteranopia
#: and tritanopia. Runs beyond 9 repeat the cycle.
COLORBLIND_PALETTE: tuple[str, ...] = (
    "#cc6677",
    "#332288",
    "#ddcc77",
    "#117733",
    "#88ccee",
    "#882255",
    "#44aa99",
    "#999933",
    "#aa4499",
)

#: Palettes by name (the ``palette=`` argument of the widget builders).
PALETTES: Mapping[str, tuple[str, ...]] = {
    "default": DEFAULT_PALETTE,
    "colorblind": COLORBLIND_PALETTE,
}


def palette_of(name: str) -> tuple[str, ...]:
    """The palette called ``name``; ``ValueError`` naming the choices otherwise.

    Examples
    --------
    >>> len(palette_of("colorblind"))
    9
    >>> palette_of("rainbow")
    Traceback (most recent call last):
    ...
    ValueError: palette must be one of ['default', 'colorblind'], got 'rainbow'
    """
    try:
        return PALETTES[name]
    except KeyError:
        raise ValueError(f"palette must be one of {list(PALETTES)}, got {name!r}") from None


def run_colors(runs: Iterable[str], palette: str = "default") -> dict[str, str]:
    """Colour of each run: its position in ``runs`` through ``palette``.

    Parameters
    ----------
    runs
        Run names in the experiment's order (``exp.runs``); duplicates keep their first
        position.
    palette
        ``"default"`` (20 distinct colours) or ``"colorblind"`` (9 colours distinct with
        any common colour-vision deficiency).

    Returns
    -------
    dict
        Run -> CSS colour (``#rrggbb``).

    Examples
    --------
    >>> colors = run_colors(["a", "b", "c"], palette="colorblind")
    >>> colors["a"], colors["c"]
    ('#cc6677', '#ddcc77')
    """
    colors = palette_of(palette)
    out: dict[str, str] = {}
    for run in runs:
        name = str(run)
        if name not in out:
            out[name] = colors[len(out) % len(colors)]
    return out


class Palette(Choice):
    """A palette of :data:`PALETTES` (``"default"``, ``"colorblind"``), refused otherwise.

    Examples
    --------
    >>> class View(t.HasTraits):
    ...     palette = Palette()
    >>> View(palette="colorblind").palette
    'colorblind'
    >>> View(palette="rainbow")
    Traceback (most recent call last):
    ...
    traitlets.traitlets.TraitError: palette must be one of ['default', 'colorblind'], got 'rainbow'
    """

    def __init__(self, default_value: str = "default", **kwargs: Any) -> None:
        super().__init__(tuple(PALETTES), default_value, **kwargs)


class RunColored(t.HasTraits):
    """The ``run_colors`` and ``palette`` traits every view that draws runs has, and the
    run order that decides the colours.

    A widget calls :meth:`color_runs` with the order (the experiment's run order, then
    any other run it shows); changing ``palette`` recolours in that order (or, before any,
    in the order of ``run_colors``), an unknown palette is refused naming the choices.

    Examples
    --------
    >>> view = RunColored()
    >>> view.color_runs(["a", "b"])
    >>> view.palette = "colorblind"
    >>> view.run_colors["a"]
    '#cc6677'
    """

    run_colors = t.Dict(value_trait=t.Unicode()).tag(sync=True)
    palette = Palette().tag(sync=True)
    _color_order: list[str] | None = None

    def color_runs(self, order: Iterable[str]) -> None:
        """Colour runs by their position in ``order`` through ``palette``."""
        self._color_order = [str(run) for run in order]
        self.run_colors = run_colors(self._color_order, self.palette)

    @t.observe("palette")
    def _on_palette(self, _change: Any) -> None:
        order = self._color_order if self._color_order is not None else list(self.run_colors)
        self.run_colors = run_colors(order, self.palette)

    _known_runs: set[str] | None = None

    def follow_runs(self, present: Iterable[str]) -> None:
        """Choose the runs shown as the data grows: the first time every run of
        ``present`` that matches ``run_filter``; later each run seen for the first time
        (a run written after the view was built is shown, as TensorBoard shows it), while
        runs the user turned off stay off.

        Examples
        --------
        >>> class View(RunColored):
        ...     selected_runs = t.List(t.Unicode())
        ...     run_filter = t.Unicode("")
        >>> view = View()
        >>> view.follow_runs(["a", "b"])
        >>> view.selected_runs = ["a"]          # the user turns b off
        >>> view.follow_runs(["a", "b", "c"])   # c is written later
        >>> view.selected_runs
        ['a', 'c']
        """
        names = [str(run) for run in present]
        this: Any = self
        pattern = str(getattr(this, "run_filter", "") or "")
        known = self._known_runs
        if known is None:
            this.selected_runs = matching(names, pattern)
        else:
            fresh = matching([r for r in names if r not in known], pattern)
            if fresh:
                this.selected_runs = list(dict.fromkeys([*this.selected_runs, *fresh]))
        self._known_runs = set(names) | (known or set())
