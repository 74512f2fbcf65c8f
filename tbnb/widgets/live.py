"""Live widgets: follow an experiment's reloads, and ask it to poll.

A widget built from an :class:`~tbnb.Experiment` subscribes to its reload
coordinator (:meth:`LiveWidget.follow`): whoever reloads (the user, another widget,
the dashboard's poller), the widget hears of what changed and sends only that.
``refresh=N`` asks the experiment to poll every N seconds
(:meth:`LiveWidget.start_refresh`): one poller per experiment however many widgets
watch it. Subclasses implement :meth:`LiveWidget._on_reload` and count what they
sent in ``self._sent``.

Examples
--------
>>> class Source:                       # anything with reload(); an Experiment also
...     def reload(self):               # has subscribe() and watch()
...         return "report"
>>> class Counter(LiveWidget):
...     _widget_key = ""
...     def _on_reload(self, report):
...         self._sent += 1
>>> widget = Counter()
>>> widget.follow(Source())
>>> widget.refresh_now()
1
>>> widget.close()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from tbnb.widgets.base import TbnbWidget
from tbnb.widgets.source import REFRESH_NEEDS_RELOAD, Source

__all__ = ["LiveWidget"]

log = logging.getLogger(__name__)


class LiveWidget(TbnbWidget):
    """A widget that follows a reloadable source (an experiment)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._source: Any = None
        self._sent = 0
        self._watch: Any = None
        self._subscription: Any = None
        self._stop: threading.Event | None = None
        self._lock = threading.RLock()

    def _on_reload(self, report: Any = None) -> None:
        """Send what changed (subclasses); called after every reload that found something."""
        raise NotImplementedError

    def _open(
        self, source: Source | None, refresh: float | None, show: Callable[[Source], None]
    ) -> None:
        """Open on ``source`` (what each widget's constructor calls): follow its
        experiment, ``show(source)``, then poll every ``refresh`` seconds."""
        if source is None:
            if refresh is not None:
                raise ValueError(REFRESH_NEEDS_RELOAD)
            return
        source.check_refresh(refresh)
        if source.live is not None:
            self.follow(source.live)
        show(source)
        if refresh is not None:
            self.start_refresh(float(refresh))

    def follow(self, source: Any) -> None:
        """Show ``source``'s data and follow its reloads (an experiment's, any caller's)."""
        self._source = source
        subscribe = getattr(source, "subscribe", None)
        if callable(subscribe):
            self._subscription = subscribe(self._on_reload)

    def refresh_now(self) -> int:
        """Reload the source once and send what is new; returns how much was sent.

        With an experiment as source the reload goes through its coordinator, which
        tells every widget following it (this one included) what changed.
        """
        source = self._source
        if source is None:
            raise RuntimeError("this widget was built from a DataFrame: nothing to reload")
        self._sent = 0
        report = source.reload()
        if not callable(getattr(source, "subscribe", None)) and getattr(report, "changed", True):
            self._on_reload(report)
        return self._sent

    def start_refresh(self, seconds: float) -> None:
        """Reload the source every ``seconds`` (one poller per experiment, shared)."""
        if seconds <= 0:
            raise ValueError(f"refresh must be > 0 seconds, got {seconds}")
        source = self._source
        if source is None:
            raise ValueError(REFRESH_NEEDS_RELOAD)
        self.stop_refresh()
        watch = getattr(source, "watch", None)
        if callable(watch):
            self._watch = watch(seconds)
            return
        stop = self._stop = threading.Event()

        def loop() -> None:  # a source without a coordinator: poll it here
            while not stop.wait(seconds):
                try:
                    self.refresh_now()
                except Exception:  # keep polling; a log dir can be mid-write
                    log.exception("tbnb refresh failed")

        threading.Thread(target=loop, name="tbnb-refresh", daemon=True).start()

    def stop_refresh(self) -> None:
        """Stop polling (also done by :meth:`close`)."""
        watch = getattr(self, "_watch", None)  # absent if __init__ failed
        if watch is not None:
            watch.stop()
            self._watch = None
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()

    def close(self) -> None:
        """Stop polling, stop following the source, and close the widget."""
        self.stop_refresh()
        subscription = getattr(self, "_subscription", None)
        if subscription is not None:
            subscription.cancel()
            self._subscription = None
        super().close()
