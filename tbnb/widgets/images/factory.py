"""``tbnb.images(...)``: build an images widget from an experiment, a frame or a logdir.

Examples
--------
>>> import tbnb
>>> w = tbnb.images(tbnb.samples.sample_logdir())
>>> len(w.data) == len(w.selected_runs)           # one image shown per run
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.images.widget import ImagesWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ImagesOptions", "images"]


class ImagesOptions(TypedDict, total=False):
    """Keyword arguments of :func:`images` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    brightness: float
    contrast: float
    fit: str
    size: int
    pixelated: str
    palette: str
    embed: str
    max_embed_bytes: int


def images(
    source: Any,
    *,
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    step: int | None = None,
    compare: tuple[str, str] | None = None,
    refresh: float | None = None,
    **kw: Unpack[ImagesOptions],
) -> ImagesWidget:
    """Image cards of an experiment: one per (run, tag), every step, a global step slider.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.images``), a frame like ``exp.images`` (a ``blob`` or
        ``data`` column of encoded bytes), or a logdir path/URL.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    step
        The global step (every card shows the step nearest to it); default: each
        card's last.
    compare
        ``(run_a, run_b)``: those two runs side by side at the same step (the first tag
        they share; see :meth:`ImagesWidget.compare_runs` for the tag and a wipe).
    refresh
        Reload every so many seconds (new steps appear; the global step follows).
    **kw
        ``run_filter``, ``tag_filter`` (regexes), ``brightness``, ``contrast`` (1.0 =
        as logged), ``fit`` (``"fit"`` or ``"actual"``), ``size`` (card width in fit
        mode), ``pixelated`` (``"auto"``, ``"on"``, ``"off"``), ``palette``,
        ``embed`` (``"shown"`` or ``"all"``) and ``max_embed_bytes`` (what a saved
        notebook or exported page keeps; default 600 KB). Anything else is a
        ``TypeError``.

    Examples
    --------
    >>> import tbnb
    >>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
    >>> w = tbnb.images(exp, step=1000, runs="seed=0")
    >>> sorted(set(w.data["step"]))
    [1000]
    """
    check_kwargs("images", dict(kw), ImagesOptions.__annotations__)
    traits: dict[str, Any] = dict(kw)
    if step is not None:
        traits["step"] = int(step)
    widget: ImagesWidget = ImagesWidget.from_source(
        source, runs=runs, tags=tags, refresh=refresh, **traits
    )
    if compare is not None:
        run_a, run_b = compare
        widget.compare_runs(run_a, run_b)
    return widget
