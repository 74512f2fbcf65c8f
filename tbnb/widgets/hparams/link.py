"""``tbnb.link(hp, view)``: the runs brushed in an hparams view, shown in another view.

The link lives in the browser (a saved notebook or an exported page stays linked) and
in Python; see :func:`link`.
"""

from __future__ import annotations

from typing import Any

import ipywidgets

from tbnb.widgets.hparams.widget import HParamsWidget

__all__ = ["link"]


def link(hp: HParamsWidget, scalars: Any) -> ipywidgets.widgets.widget_link.Link:
    """Show in ``scalars`` only the runs selected in ``hp``.

    The link lives in the browser (``ipywidgets.jsdlink``: a saved notebook or an
    exported page stays linked) and in Python (setting ``hp.brushes`` updates
    ``scalars.selected_runs`` with no browser). Returns the browser link;
    ``.unlink()`` it to stop.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> long = pd.DataFrame({"run": ["a", "b"], "tag": "loss", "step": 0,
    ...                      "wall_time": 0.0, "value": [1.0, 2.0]})
    >>> table = pd.DataFrame({"lr": [0.1, 0.01]}, index=pd.Index(["a", "b"], name="run"))
    >>> hp, sc = tbnb.hparams(table, importance=False), tbnb.scalars(long)
    >>> _ = tbnb.link(hp, sc)
    >>> hp.brush("lr", (0.05, 1.0))
    >>> sc.selected_runs
    ['a']
    """
    if not isinstance(hp, HParamsWidget):
        raise TypeError(f"link() needs an HParamsWidget first, got {type(hp).__name__}")
    if not hasattr(scalars, "selected_runs"):
        raise TypeError(f"link() needs a widget with selected_runs, got {type(scalars).__name__}")

    def forward(change: Any) -> None:
        scalars.selected_runs = list(change["new"])

    hp.observe(forward, "selected_runs")
    scalars.selected_runs = list(hp.selected_runs)
    browser_link = ipywidgets.jsdlink((hp, "selected_runs"), (scalars, "selected_runs"))
    original_unlink = browser_link.unlink

    def unlink() -> None:
        hp.unobserve(forward, "selected_runs")
        original_unlink()

    browser_link.unlink = unlink
    return browser_link
