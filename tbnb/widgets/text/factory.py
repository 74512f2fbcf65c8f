"""``tbnb.text(...)``: build a text widget from an experiment, a frame or a logdir.

Examples
--------
>>> import tbnb
>>> w = tbnb.text(tbnb.samples.sample_logdir(), tags="config")
>>> w.item("lr=0.001,seed=0", "config/text_summary", 0)["html"][:26]
'<p><strong>model</strong>:'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.text.widget import TextWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["TextOptions", "text"]


class TextOptions(TypedDict, total=False):
    """Keyword arguments of :func:`text` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    palette: str
    embed: str
    max_embed_bytes: int


def text(
    source: Any,
    *,
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    step: int | None = None,
    raw: bool = False,
    refresh: float | None = None,
    **kw: Unpack[TextOptions],
) -> TextWidget:
    """Text cards of an experiment: markdown (sanitised) or raw, a step slider per card.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.text``), a frame like ``exp.text``, or a logdir path/URL.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    step
        The global step (every card shows the step nearest to it); default: each
        card's last.
    raw
        Show the texts as logged instead of rendering markdown.
    refresh
        Reload every so many seconds.
    **kw
        ``run_filter``, ``tag_filter``, ``palette``, ``embed`` (``"shown"`` or
        ``"all"``) and ``max_embed_bytes`` (what a saved notebook or exported page
        keeps; default 600 KB). Anything else is a ``TypeError``.
    """
    check_kwargs("text", dict(kw), TextOptions.__annotations__)
    traits: dict[str, Any] = {**kw, "raw": bool(raw)}
    if step is not None:
        traits["step"] = int(step)
    widget: TextWidget = TextWidget.from_source(
        source, runs=runs, tags=tags, refresh=refresh, **traits
    )
    return widget
