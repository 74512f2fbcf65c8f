"""One reload coordinator per experiment: serialised reloads, subscribers, one poller.

Every reload of an :class:`~tbnb.Experiment` goes through its coordinator, from any
thread: reloads run one at a time (two threads never read the same bytes twice),
and every report that changed something reaches every subscriber, whoever asked
for the reload. Widgets subscribe instead of reloading on their own, and ask for
polling with :meth:`ReloadCoordinator.watch`: however many widgets watch one
experiment, one thread polls it, at the shortest interval asked for.

Examples
--------
>>> calls = []
>>> coordinator = ReloadCoordinator(lambda: "report")
>>> subscription = coordinator.subscribe(calls.append)
>>> coordinator.reload(), calls
('report', ['report'])
>>> subscription.cancel()
>>> coordinator.reload(), calls
('report', ['report'])
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["ReloadCoordinator", "Subscription", "Watch"]

log = logging.getLogger(__name__)

R = TypeVar("R")


class Subscription:
    """A subscriber's handle; :meth:`cancel` stops the callbacks."""

    def __init__(self, coordinator: ReloadCoordinator[Any], callback: Callable[[Any], Any]) -> None:
        self._coordinator = coordinator
        self.callback = callback

    def cancel(self) -> None:
        """Stop receiving reports (idempotent)."""
        self._coordinator._remove(self)


class Watch:
    """A request to poll every ``seconds``; :meth:`stop` withdraws it."""

    def __init__(self, coordinator: ReloadCoordinator[Any], seconds: float) -> None:
        self._coordinator = coordinator
        self.seconds = seconds

    def stop(self) -> None:
        """Withdraw this polling request (the poller stops when none is left)."""
        self._coordinator._unwatch(self)


class ReloadCoordinator(Generic[R]):
    """Runs ``reload_once`` one call at a time and hands each report to subscribers.

    Parameters
    ----------
    reload_once
        Reads what is new and returns a report; called with the coordinator's lock
        held, so it never runs twice at once.
    changed
        Whether a report is worth telling subscribers (default: always).
    """

    def __init__(
        self, reload_once: Callable[[], R], changed: Callable[[R], bool] = lambda report: True
    ) -> None:
        self._reload_once = reload_once
        self._changed = changed
        self.lock = threading.RLock()
        self._subscriptions: list[Subscription] = []
        self._watches: list[Watch] = []
        self._poller: threading.Thread | None = None
        self._wake = threading.Condition()

    # ---------------------------------------------------------------- reloads
    def reload(self) -> R:
        """Reload once (waiting for a reload already running), then notify subscribers."""
        with self.lock:
            report = self._reload_once()
        if self._changed(report):
            for subscription in list(self._subscriptions):
                try:
                    subscription.callback(report)
                except Exception:  # one broken view must not stop the others
                    log.exception("tbnb: a reload subscriber failed")
        return report

    def subscribe(self, callback: Callable[[R], Any]) -> Subscription:
        """Call ``callback(report)`` after every reload that changed something."""
        subscription = Subscription(self, callback)
        self._subscriptions.append(subscription)
        return subscription

    def _remove(self, subscription: Subscription) -> None:
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)

    @property
    def subscribers(self) -> int:
        """How many subscriptions are active."""
        return len(self._subscriptions)

    # ---------------------------------------------------------------- polling
    def watch(self, seconds: float) -> Watch:
        """Ask for a reload every ``seconds`` (one poller thread serves every request)."""
        if not seconds > 0:
            raise ValueError(f"refresh must be > 0 seconds, got {seconds}")
        watch = Watch(self, float(seconds))
        with self._wake:
            self._watches.append(watch)
            if self._poller is None or not self._poller.is_alive():
                self._poller = threading.Thread(target=self._poll, name="tbnb-reload", daemon=True)
                self._poller.start()
            self._wake.notify_all()
        return watch

    def _unwatch(self, watch: Watch) -> None:
        with self._wake:
            if watch in self._watches:
                self._watches.remove(watch)
            self._wake.notify_all()

    @property
    def polling(self) -> bool:
        """Whether a poller thread is running."""
        return self._poller is not None and self._poller.is_alive()

    def _interval(self) -> float | None:
        return min((w.seconds for w in self._watches), default=None)

    def _poll(self) -> None:
        while True:
            with self._wake:
                interval = self._interval()
                if interval is None:
                    self._poller = None
                    return
                self._wake.wait(interval)
                if self._interval() is None:
                    self._poller = None
                    return
            try:
                self.reload()
            except Exception:  # keep polling: a logdir can be mid-write or briefly gone
                log.exception("tbnb: reload failed")
