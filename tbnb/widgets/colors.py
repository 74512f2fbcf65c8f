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
from functools import lru_cache
from typing import Any

import numpy as np
import traitlets as t

from tbnb.widgets.ordering import matching
from tbnb.widgets.traits import Choice

__all__ = [
    "COLORBLIND_PALETTE",
    "DEFAULT_PALETTE",
    "PALETTES",
    "Palette",
    "RunColored",
    "extended_palette",
    "palette_of",
    "run_colors",
]

#: 20 colours told apart at a glance (pairwise CIEDE2000 >= 18), each readable on white
#: and on a dark theme: Tableau's blue, orange, red, green and purple, then each next
#: colour the one farthest from those before it. Runs beyond 20 get further colours
#: chosen the same way (:func:`extended_palette`), never a repeat of an earlier run's.
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
#: and tritanopia. Runs beyond 9 get further colours (:func:`extended_palette`; those
#: are distinct for normal colour vision only).
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
    """Colour of each run: its position in ``runs`` through ``palette`` (extended past its
    end by :func:`extended_palette`: no two runs share a colour).

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
    names = list(dict.fromkeys(str(run) for run in runs))
    colors = extended_palette(palette, len(names))
    return {name: colors[i % len(colors)] for i, name in enumerate(names)}


#: Most colours :func:`extended_palette` makes; runs beyond repeat the cycle (by then
#: neighbours in it are a few CIELAB units apart, and colour no longer tells runs apart).
MAX_COLORS = 240


def extended_palette(name: str, n: int) -> tuple[str, ...]:
    """At least ``n`` colours (up to :data:`MAX_COLORS`): palette ``name``, then each
    next colour the sRGB colour farthest (CIELAB distance) from every colour before it,
    among those readable on white and on a dark background (contrast ratio >= 2).

    Two runs never share a colour below :data:`MAX_COLORS` runs, so 50 runs of a sweep do
    not draw runs 1 and 21 in the same blue.

    Examples
    --------
    >>> colors = extended_palette("default", 50)
    >>> len(colors), len(set(colors)), colors[:2]
    (50, 50, ('#4e79a7', '#f28e2b'))
    """
    base = palette_of(name)
    if n <= len(base):
        return base
    return _extended(name, min(n, MAX_COLORS))


def _linear_rgb(rgb: np.ndarray) -> np.ndarray:
    """sRGB bytes (..., 3) -> linear light in [0, 1]."""
    c = rgb / 255.0
    return np.asarray(np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4))


def _to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB bytes (..., 3) -> CIELAB (D65)."""
    lin = _linear_rgb(rgb)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1
    )


def _luminance(rgb: np.ndarray) -> np.ndarray:
    """sRGB bytes (..., 3) -> relative luminance (WCAG)."""
    return np.asarray(_linear_rgb(rgb) @ np.array([0.2126, 0.7152, 0.0722]))


@lru_cache(maxsize=8)
def _extended(name: str, n: int) -> tuple[str, ...]:
    base = palette_of(name)
    levels = np.arange(0, 256, 15)  # an 18^3 grid of candidates
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 3)
    lum = _luminance(grid.astype(float))
    dark = 0.0056  # the dark theme's background, #111
    readable = ((1.05 / (lum + 0.05)) >= 2) & (((lum + 0.05) / (dark + 0.05)) >= 2)
    cands = grid[readable]
    labs = _to_lab(cands.astype(float))
    chosen = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in base], float)
    nearest = np.min(np.linalg.norm(labs[:, None, :] - _to_lab(chosen)[None], axis=-1), axis=1)
    out = list(base)
    while len(out) < n:
        k = int(np.argmax(nearest))
        out.append("#{:02x}{:02x}{:02x}".format(*(int(v) for v in cands[k])))
        nearest = np.minimum(nearest, np.linalg.norm(labs - labs[k], axis=-1))
    return tuple(out)


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
