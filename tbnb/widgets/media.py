"""The base of the media views (images, audio, text): cards, items on request, saved items.

:class:`MediaWidget` holds what the three views share: the card index (``_index``, every
step of every (run, tag), binary), the run selection, tag filter and run colours as the
other views have them, the global ``step`` and each card's own position
(``positions``), and the items themselves, which never sit in the state by the
thousand: the browser asks for the items it shows and their neighbours with an
``"items"`` request (``[[run, tag, step, sample], ...]``) and gets their bytes back as
binary buffers (PNG/JPEG/GIF/WAV as written; text as UTF-8).

A saved notebook or an exported page has no kernel to ask, so the widget keeps the
items shown (each shown card at its step and sample) in the ``_held`` trait, within
``max_embed_bytes`` (default 600 KB, filled in display order); ``embed="all"`` keeps
every step of every shown card instead, when they fit in the budget (else it warns and
keeps the shown ones). ``embedded`` says what was kept.

Subclasses (``tbnb/widgets/<key>/widget.py``) set ``_kind`` and give an item's payload
(:meth:`MediaWidget._payload`) and its size before reading (:meth:`MediaWidget._size`).
"""

from __future__ import annotations

import logging
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.warnings import DataWarning
from tbnb.widgets.cards import (
    CardIndex,
    card_key,
    item_key,
    parse_item_key,
    position,
    shown_cards,
)
from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.ordering import color_order, natural_key, pick
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.source import Source, source_of
from tbnb.widgets.traits import Choice, IntRange, Regex, either

__all__ = ["DEFAULT_EMBED_BYTES", "MediaWidget"]

log = logging.getLogger(__name__)

DEFAULT_EMBED_BYTES = 600_000
"""Bytes of items (as logged) a saved notebook or exported page keeps by default. The
notebook stores them in base64 (4/3 as many bytes), beside the step index and the front
end, so a widget's saved state stays under 1 MB even with 16,000 steps indexed
(benchmarks/bench_media.py measures it)."""

CACHE_BYTES = 64 << 20
"""Items read from event files kept in memory for the next request."""

MAX_BATCH = 256
"""Items one request may ask for."""


class MediaWidget(LiveWidget, RunColored):
    """Cards of one media kind (subclassed by the images, audio and text views).

    Traits (synced with the browser)
    --------------------------------
    selected_runs : list of str
        Runs shown (the run selector writes it; setting it from Python toggles runs).
    run_filter, tag_filter : str
        Case-insensitive regexes (empty = all).
    run_colors : dict
        Run -> CSS colour (:func:`tbnb.widgets.colors.run_colors`, the experiment's order).
    palette : str
        ``"default"`` or ``"colorblind"``; recomputes ``run_colors``.
    step : int or None
        The global step: every card not moved on its own shows the step nearest to it.
        ``None`` shows each card's last step (and follows new ones).
    positions : dict
        Card key (``'["run","tag"]'``) -> ``{"step": int or None, "sample": int}``: a card
        moved on its own (``step`` None: it follows the global step) and its sample.
    embed : str
        ``"shown"`` (default): a saved notebook or exported page keeps the items shown;
        ``"all"``: every step of every shown card, when it fits in ``max_embed_bytes``.
    max_embed_bytes : int
        Budget of the items kept in the saved state.
    embedded : dict
        What the state keeps: ``mode``, ``items``, ``bytes``, ``left_out`` (over budget).
    problems : list of str
        Data that cannot be shown, naming run, tag and step (also issued as warnings).
    """

    _kind: ClassVar[str] = ""
    _columns: ClassVar[tuple[str, ...]] = ()

    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    tag_filter = Regex().tag(sync=True)
    step = t.Int(None, allow_none=True).tag(sync=True)
    positions = t.Dict().tag(sync=True)
    embed = Choice(("shown", "all"), expected=either("shown", "all")).tag(sync=True)
    max_embed_bytes = IntRange(DEFAULT_EMBED_BYTES, lo=0).tag(sync=True)
    embedded = t.Dict().tag(sync=True)
    problems = t.List(t.Unicode()).tag(sync=True)
    _index = t.Dict().tag(sync=True, **tree_serialization)
    _held = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        source: Source | None = None,
        runs: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        super().__init__(**traits)
        self._frame = pd.DataFrame(columns=["run", "tag", "step", "wall_time"])
        self._cards = CardIndex.build(self._frame, [])
        self._build: dict[str, Any] = {"runs": runs, "tags": tags}
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._cache_bytes = 0
        self._warned: set[str] = set()
        self._held_keys: list[str] = []
        self._generation = 0  # bumped when stored items may have changed (a restart purge)
        self._open(source, refresh, lambda given: self._set_frame(given.data))

    @classmethod
    def from_source(cls, source: Any, **options: Any) -> Any:
        """The widget of ``source`` (an Experiment, a frame like ``exp.<kind>`` or a
        logdir path): what each media builder calls."""
        expected = f"a DataFrame like exp.{cls._kind}"
        given = source_of(source, cls._kind, expected=expected, columns=cls._columns)
        return cls(source=given, **options)

    # ------------------------------------------------------------ subclasses
    def _payload(self, row: pd.Series) -> dict[str, Any]:
        """What the browser gets for one frame row: metadata and ``data`` (bytes)."""
        raise NotImplementedError

    def _size(self, row: pd.Series) -> int:
        """Bytes the item will take, before reading it (for the embedding budget)."""
        return int(row.get("nbytes", 0) or 0)

    def _row_problems(self, frame: pd.DataFrame) -> list[str]:
        """Rows that cannot be shown, as messages naming run, tag and step."""
        return []

    def _extra_shown(self) -> list[tuple[int, int, int]]:
        """Items shown beyond each card's position (the images view's comparison)."""
        return []

    # ------------------------------------------------------------------ data
    def _set_frame(self, frame: pd.DataFrame) -> None:
        """(Re)build the card index from ``frame`` and send it (with the saved items)."""
        opts = self._build
        runs = sorted(dict.fromkeys(frame["run"].astype(str)), key=natural_key)
        tags = sorted(dict.fromkeys(frame["tag"].astype(str)), key=natural_key)
        keep_runs = pick(runs, opts.get("runs"), "runs")
        keep_tags = pick(tags, opts.get("tags"), "tags")
        if len(keep_runs) < len(runs) or len(keep_tags) < len(tags):
            keep = frame["run"].astype(str).isin(keep_runs) & frame["tag"].astype(str).isin(
                keep_tags
            )
            frame = frame[keep.to_numpy()]
        frame = frame.reset_index(drop=True)
        cards = CardIndex.build(frame, keep_runs)
        self._frame, self._cards = frame, cards
        self._cache.clear()
        self._cache_bytes = 0
        present = list(dict.fromkeys(run for run, _ in cards.cards))
        self.color_runs(color_order(present, getattr(self._source, "runs", None)))
        self._report(self._problems(frame, cards))
        payload = cards.payload()
        payload["version"] = int(self._index.get("version", 0)) + 1 if self._index else 1
        payload["generation"] = self._generation
        self.follow_runs(present)
        self._index = payload
        self._refresh_held()

    def _problems(self, frame: pd.DataFrame, cards: CardIndex) -> list[str]:
        return self._row_problems(frame)

    def _report(self, problems: list[str]) -> None:
        for message in problems:
            if message not in self._warned:
                self._warned.add(message)
                warnings.warn(message, DataWarning, stacklevel=4)
        self.problems = problems

    # ----------------------------------------------------------------- items
    def _item(self, card: int, step: int, sample: int) -> dict[str, Any]:
        run, tag = self._cards.cards[card]
        key = item_key(run, tag, step, sample)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        row_pos = self._cards.row(card, step, sample)
        if row_pos is None:
            raise KeyError(f"run {run!r}, tag {tag!r} has no step {step} sample {sample}")
        row = self._frame.iloc[row_pos]
        try:
            payload = self._payload(row)
        except Exception as err:
            raise ValueError(
                f"run {run!r}, tag {tag!r}, step {step}, sample {sample}: "
                f"{type(err).__name__}: {err}"
            ) from err
        item = {
            "key": key,
            "run": run,
            "tag": tag,
            "step": int(step),
            "sample": int(sample),
            "wall_time": float(row["wall_time"]),
            **payload,
        }
        data = item.get("data")
        if isinstance(data, (bytes, bytearray, memoryview)):
            item["data"] = np.frombuffer(bytes(data), dtype=np.uint8)
        size = _nbytes(item)
        self._cache[key] = item
        self._cache_bytes += size
        while self._cache_bytes > CACHE_BYTES and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cache_bytes -= _nbytes(old)
        return item

    def item(self, run: str, tag: str, step: int, sample: int = 0) -> dict[str, Any]:
        """The item the browser gets for ``(run, tag, step, sample)`` (metadata and bytes).

        Raises ``KeyError`` naming the run, tag and step when there is no such item.
        """
        card = self._cards.lookup.get((run, tag))
        if card is None:
            raise KeyError(f"no {self._kind} card for run {run!r}, tag {tag!r}")
        return self._item(card, step, sample)

    def _request_items(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{"keys": [[run, tag, step, sample], ...], "meta_only": bool}`` -> items.

        An item that cannot be read becomes ``{"key", "error"}`` naming run, tag, step and
        what went wrong; the others are answered.
        """
        keys = content.get("keys") or []
        if len(keys) > MAX_BATCH:
            raise ValueError(f"at most {MAX_BATCH} items per request, asked for {len(keys)}")
        meta_only = bool(content.get("meta_only"))
        items = []
        for raw in keys:
            key = raw if isinstance(raw, str) else str(raw)
            try:
                run, tag, step, sample = parse_item_key(raw)
                key = item_key(run, tag, step, sample)
                item = self.item(run, tag, step, sample)
            except (KeyError, ValueError) as err:
                message = err.args[0] if isinstance(err, KeyError) and err.args else str(err)
                items.append({"key": key, "error": str(message)})
                continue
            if meta_only and self._kind != "text":
                item = {k: v for k, v in item.items() if k != "data"}
            items.append(item)
        return {"items": items}

    # ------------------------------------------------------------------ shown
    def _row(self, card: int, step: int, sample: int) -> int:
        row = self._cards.row(card, step, sample)
        if row is None:
            raise KeyError(f"card {card} has no step {step} sample {sample}")
        return row

    def shown_items(self) -> list[dict[str, Any]]:
        """The items shown, in display order: ``run``, ``tag``, ``step``, ``sample`` and
        ``samples`` (the most samples one step of its card holds)."""
        cards = self._cards
        out = []
        for card, step, sample in self._shown_items():
            run, tag = cards.cards[card]
            samples = int(cards.card_counts(card).max())
            out.append({"run": run, "tag": tag, "step": step, "sample": sample, "samples": samples})
        return out

    def _shown_items(self) -> list[tuple[int, int, int]]:
        """(card, step, sample) shown: each shown card at its position, in display order."""
        cards = self._cards
        out = []
        for card in shown_cards(cards, self.selected_runs, self.tag_filter):
            where = position(cards, card, self.step, self.positions)
            if where is not None:
                out.append((card, *where))
        seen = set(out)
        out += [item for item in self._extra_shown() if item not in seen]
        return out

    @t.observe("step", "positions", "selected_runs", "tag_filter", "embed", "max_embed_bytes")
    def _on_shown(self, _change: Any) -> None:
        self._refresh_held()

    def _refresh_held(self) -> None:
        """Put the items a saved notebook or page keeps into ``_held``, within the budget."""
        if not hasattr(self, "_held_keys"):  # a trait set while the widget is built
            return
        cards, budget = self._cards, self.max_embed_bytes
        shown = self._shown_items()
        wanted = shown
        mode = self.embed
        if mode == "all":
            every = [
                (card, int(cards.card_steps(card)[j]), sample)
                for card in dict.fromkeys(c for c, _, _ in shown)
                for j in range(len(cards.card_steps(card)))
                for sample in range(int(cards.card_counts(card)[j]))
            ]
            total = sum(self._size(self._frame.iloc[self._row(*i)]) for i in every)
            if total <= budget:
                wanted = every
            else:
                message = (
                    f"embed='all' needs {total / 1e6:.1f} MB for {len(every)} "
                    f"{self._kind} items, over max_embed_bytes={budget}; keeping the "
                    f"shown ones (pass max_embed_bytes={total} to keep all)"
                )
                warnings.warn(message, DataWarning, stacklevel=3)
                mode = "shown"
        held: dict[str, Any] = {}
        used, left_out = 0, 0
        for card, step, sample in wanted:
            row_pos = cards.row(card, step, sample)
            if row_pos is None:
                continue
            size = self._size(self._frame.iloc[row_pos])
            if used + size > budget:
                left_out += 1
                continue
            try:
                item = self._item(card, step, sample)
            except ValueError as err:
                log.debug("not embedded: %s", err)
                continue
            held[item["key"]] = item
            used += size
        keys = list(held)
        status = {
            "mode": mode,
            "items": len(held),
            "bytes": used,
            "left_out": left_out,
            "budget": budget,
        }
        if keys != self._held_keys:
            self._held_keys = keys
            self._held = held
        if status != self.embedded:
            self.embedded = status

    # -------------------------------------------------------------- refresh
    def _on_reload(self, report: Any = None) -> None:
        """Rebuild the index when a reload brought (or purged) this kind's values."""
        added = 0 if report is None else int(getattr(report, "values_added", {}).get(self._kind, 0))
        purged = 0 if report is None else int(getattr(report, "points_purged", 0))
        if report is not None and not added and not purged:
            return
        with self._lock:
            if purged:
                self._generation += 1
            frame = getattr(self._source, self._kind)
            self._set_frame(frame)
            self._sent += added

    # ---------------------------------------------------------------- views
    @property
    def data(self) -> pd.DataFrame:
        """The rows shown: each shown card at its step and sample, in display order."""
        positions = [self._cards.row(*i) for i in self._shown_items()]
        return self._frame.iloc[[p for p in positions if p is not None]].reset_index(drop=True)

    @property
    def full_data(self) -> pd.DataFrame:
        """Every row of the shown cards: every step and sample, not only the one shown."""
        cards = shown_cards(self._cards, self.selected_runs, self.tag_filter)
        rows = [self._cards.card_rows(c) for c in cards]
        order = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        return self._frame.iloc[order].reset_index(drop=True)

    def shown_titles(self) -> list[str]:
        """A title per shown item (``run · tag · step N[ #sample]``), in display order."""
        return [
            f"{i['run']} · {i['tag']} · step {i['step']}"
            + (f" #{i['sample']}" if i["samples"] > 1 else "")
            for i in self.shown_items()
        ]

    def pin(self, run: str, tag: str, step: int | None = None, sample: int = 0) -> None:
        """Move one card on its own (``step=None``: back to following the global step)."""
        if (run, tag) not in self._cards.lookup:
            raise KeyError(f"no {self._kind} card for run {run!r}, tag {tag!r}")
        self.positions = {**self.positions, card_key(run, tag): {"step": step, "sample": sample}}


def _nbytes(item: dict[str, Any]) -> int:
    data = item.get("data")
    return int(getattr(data, "nbytes", 0)) + 200
