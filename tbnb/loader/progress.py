"""The load progress bar: plain HTML in a notebook, tqdm in a terminal.

In a notebook the bar is an HTML ``<progress>`` output updated in place through a
display id, and emptied when the load ends. It creates no widget model: tqdm's
notebook bar is an ipywidgets model that is closed when the load ends, so a
notebook saved afterwards keeps an output pointing at a model that no longer
exists, and reopening it shows "Error displaying widget: model not found".

Examples
--------
>>> shown = []
>>> bar = HtmlProgress(total=2_000_000, desc="tbnb.load", delay=0.0,
...                    display=lambda obj, **kw: shown.append(obj) or _Recorder(shown))
>>> bar.update(1_000_000)
>>> "50%" in shown[-1].data and "1.0 MB / 2.0 MB" in shown[-1].data
True
>>> bar.close()
>>> shown[-1].data
''
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["HtmlProgress", "Progress", "in_notebook", "progress_bar"]


class Progress(Protocol):
    """What a load needs of a progress bar (tqdm's ``update`` and ``close``)."""

    def update(self, n: int) -> Any: ...

    def close(self) -> Any: ...


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (where tqdm.auto would draw a widget).

    Examples
    --------
    >>> in_notebook()
    False
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def _megabytes(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


class HtmlProgress:
    """A byte-count progress bar drawn as HTML output, left empty when closed.

    Parameters
    ----------
    total : int
        Bytes expected.
    desc : str
        The label (a fixed string, not data from logs).
    delay : float
        Show the bar only once the load has taken this many seconds.
    display : callable, optional
        ``IPython.display.display`` (the default) or a stand-in taking
        ``(obj, display_id=True)`` and returning a handle with ``update(obj)``.
    min_interval : float
        Redraw at most this often, in seconds.
    """

    def __init__(
        self,
        total: int,
        desc: str,
        delay: float = 1.0,
        display: Callable[..., Any] | None = None,
        min_interval: float = 0.2,
    ) -> None:
        self.total = max(int(total), 0)
        self.desc = desc
        self.n = 0
        self._delay = delay
        self._display = display
        self._min_interval = min_interval
        self._start = time.monotonic()
        self._drawn_at = -float("inf")
        self._handle: Any = None
        self._closed = False

    def _html(self) -> str:
        share = self.n / self.total if self.total else 1.0
        return (
            '<div class="tbnb-progress" style="font:12px monospace">'
            f'<progress max="1000" value="{round(1000 * min(share, 1.0))}" '
            'style="width:16em;vertical-align:middle"></progress> '
            f"{self.desc}: {share:.0%} ({_megabytes(self.n)} / {_megabytes(self.total)})</div>"
        )

    def _show(self, html_text: str) -> None:
        if self._handle is None:
            show: Callable[..., Any] = self._display or _ipython_display()
            self._handle = show(_html_output(html_text), display_id=True)
        else:
            self._handle.update(_html_output(html_text))

    def update(self, n: int) -> None:
        """Count ``n`` more bytes read; redraw if the bar is due."""
        if self._closed:
            return
        self.n += int(n)
        now = time.monotonic()
        if now - self._start < self._delay or now - self._drawn_at < self._min_interval:
            return
        self._drawn_at = now
        self._show(self._html())

    def close(self) -> None:
        """Empty the output (if the bar was shown): nothing is left in the notebook."""
        if self._closed:
            return
        self._closed = True
        if self._handle is not None:
            self._handle.update(_html_output(""))


def _ipython_display() -> Callable[..., Any]:
    from IPython.display import display

    return display


def _html_output(text: str) -> Any:
    from IPython.display import HTML

    return HTML(text)  # type: ignore[no-untyped-call]


class _Recorder:
    """A display handle for the examples: records what would be shown."""

    def __init__(self, shown: list[Any]) -> None:
        self.shown = shown

    def update(self, obj: Any) -> None:
        self.shown.append(obj)


def progress_bar(total: int, desc: str, delay: float) -> Progress:
    """An HTML bar in a notebook, else tqdm's terminal bar (``leave=False``).

    Examples
    --------
    >>> bar = progress_bar(10, "tbnb.load", delay=60.0)
    >>> bar.update(10); bar.close()
    """
    if in_notebook():
        return HtmlProgress(total, desc, delay)
    from tqdm import tqdm

    bar: Progress = tqdm(
        total=total, unit="B", unit_scale=True, desc=desc, delay=delay, leave=False
    )
    return bar
