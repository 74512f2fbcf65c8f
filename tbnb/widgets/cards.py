"""Cards of the media views: one card per (run, tag), a series of steps, samples per step.

The images, audio and text views (``tbnb/widgets/images``, ``audio``, ``text``) show one
card per (run, tag) with a step slider, a sample index when a step holds several
samples (``max_outputs``), and a global step that moves every card. This module holds
what they share and what needs no widget: the :class:`CardIndex` of a frame (every
step of every card, never a reservoir sample), the position rule that picks each
card's step (its pinned step, else the step nearest the global one, else its last),
the keys naming a card and an item, and the index payload the browser reads
(``js/src/media/card-index.js`` is its mirror).

Examples
--------
>>> import pandas as pd
>>> frame = pd.DataFrame({"run": ["a", "a", "a", "b"], "tag": "img", "step": [0, 5, 5, 3],
...                       "wall_time": 0.0, "sample": [0, 0, 1, 0]})
>>> index = CardIndex.build(frame, ["a", "b"])
>>> index.cards, index.card_steps(0).tolist(), index.card_counts(0).tolist()
([('a', 'img'), ('b', 'img')], [0, 5], [1, 2])
>>> position(index, 0, global_step=4, pins={})          # (step, sample): nearest to 4
(5, 0)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.scalars.prepare import natural_key

__all__ = [
    "CardIndex",
    "Pins",
    "card_key",
    "item_key",
    "nearest_index",
    "parse_item_key",
    "position",
    "shown_cards",
    "tag_matcher",
]

Pins = Mapping[str, Mapping[str, Any]]
"""Card key -> ``{"step": int | None, "sample": int}``: a card moved on its own."""


def card_key(run: str, tag: str) -> str:
    """The key naming a card: ``JSON.stringify([run, tag])`` in the browser.

    Examples
    --------
    >>> card_key("lr=0.1", "samples/x")
    '["lr=0.1","samples/x"]'
    """
    return json.dumps([run, tag], ensure_ascii=False, separators=(",", ":"))


def item_key(run: str, tag: str, step: int, sample: int) -> str:
    """The key naming one item (an image, a clip, a text): ``[run, tag, step, sample]``.

    Examples
    --------
    >>> item_key("a", "t", 10, 2)
    '["a","t",10,2]'
    """
    return json.dumps([run, tag, int(step), int(sample)], ensure_ascii=False, separators=(",", ":"))


def parse_item_key(key: Any) -> tuple[str, str, int, int]:
    """``(run, tag, step, sample)`` of an item key or of the list it encodes.

    Raises ``ValueError`` naming what is wrong with it.

    Examples
    --------
    >>> parse_item_key('["a","t",10,2]')
    ('a', 't', 10, 2)
    """
    try:
        value = json.loads(key) if isinstance(key, str) else key
    except ValueError:
        value = None
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 4
        or not all(isinstance(v, str) for v in value[:2])
        or not all(isinstance(v, (int, float)) and float(v) == int(v) for v in value[2:])
    ):
        raise ValueError(f"an item is [run, tag, step, sample], got {key!r}")
    return str(value[0]), str(value[1]), int(value[2]), int(value[3])


def nearest_index(steps: np.ndarray, target: float) -> int:
    """Index of the step nearest ``target`` in sorted ``steps`` (a tie goes to the lower one).

    The same rule as the browser's ``nearestSorted`` (``js/src/core/arrays.js``); -1 when
    there are no steps.

    Examples
    --------
    >>> import numpy as np
    >>> nearest_index(np.array([0, 10, 20]), 15), nearest_index(np.array([0, 10, 20]), 16)
    (1, 2)
    """
    n = len(steps)
    if n == 0:
        return -1
    lo = int(np.searchsorted(steps, target, side="left"))
    if lo >= n:
        return n - 1
    if lo > 0 and abs(float(steps[lo - 1]) - target) <= abs(float(steps[lo]) - target):
        return lo - 1
    return lo


@dataclass
class CardIndex:
    """Every step of every card of a frame, and where each sample's row is.

    Attributes
    ----------
    cards
        ``(run, tag)`` per card, grouped by tag (natural order), runs in run order.
    offsets
        Card ``i``'s steps are ``steps[offsets[i]:offsets[i + 1]]``.
    steps, counts, starts
        Per (card, step): the step, its number of samples, and where its rows start in
        :attr:`rows`.
    rows
        Positions in the frame, ordered by card, step and sample: a step logged several
        times holds every value's samples, in the order written.
    """

    cards: list[tuple[str, str]]
    offsets: np.ndarray
    steps: np.ndarray
    counts: np.ndarray
    starts: np.ndarray
    rows: np.ndarray

    def __post_init__(self) -> None:
        self.lookup = {card: i for i, card in enumerate(self.cards)}

    def __len__(self) -> int:
        return len(self.cards)

    @classmethod
    def build(cls, frame: pd.DataFrame, run_order: Sequence[str]) -> CardIndex:
        """Index ``frame`` (columns run, tag, step, and sample for kinds that have samples).

        A value's samples are consecutive rows starting at sample 0 (as the loader
        writes them); when a (run, tag, step) was logged more than once (seven images
        logged one by one at one step), every value is there: their samples are the
        step's samples, numbered in the order written.
        """
        n = len(frame)
        if n == 0:
            empty = np.zeros(0, dtype=np.int64)
            return cls([], np.zeros(1, dtype=np.int64), empty, empty, empty, empty)
        run = frame["run"].astype(str).to_numpy()
        tag = frame["tag"].astype(str).to_numpy()
        step = frame["step"].to_numpy(dtype=np.int64)
        sample = (
            frame["sample"].to_numpy(dtype=np.int64)
            if "sample" in frame.columns
            else np.zeros(n, dtype=np.int64)
        )
        value = np.cumsum(sample == 0)  # one id per logged value
        rank = {r: i for i, r in enumerate(run_order)}
        runs = list(dict.fromkeys(run.tolist()))
        run_rank = {r: rank.get(r, len(rank) + i) for i, r in enumerate(runs)}
        tags = sorted(set(tag.tolist()), key=natural_key)
        tag_rank = {t: i for i, t in enumerate(tags)}
        table = pd.DataFrame(
            {
                "tag": [tag_rank[t] for t in tag],
                "run": [run_rank[r] for r in run],
                "step": step,
                "value": value,
                "sample": sample,
                "pos": np.arange(n, dtype=np.int64),
            }
        )
        names = {v: k for k, v in run_rank.items()}
        # a (run, tag, step) logged several times keeps every value: each one's samples
        # follow the earlier one's, in the order written, as TensorBoard shows them
        table = table.sort_values(["tag", "run", "step", "value", "sample"], kind="stable")
        keys = table[["tag", "run", "step"]].to_numpy()
        new_step = np.ones(len(keys), dtype=bool)
        new_step[1:] = (keys[1:] != keys[:-1]).any(axis=1)
        starts = np.flatnonzero(new_step)
        counts = np.diff(np.append(starts, len(keys)))
        step_keys = keys[starts]
        new_card = np.ones(len(step_keys), dtype=bool)
        new_card[1:] = (step_keys[1:, :2] != step_keys[:-1, :2]).any(axis=1)
        card_starts = np.flatnonzero(new_card)
        cards = [(names[int(r)], tags[int(t)]) for t, r in step_keys[card_starts, :2]]
        return cls(
            cards=cards,
            offsets=np.append(card_starts, len(step_keys)).astype(np.int64),
            steps=step_keys[:, 2].astype(np.int64),
            counts=counts.astype(np.int64),
            starts=starts.astype(np.int64),
            rows=table["pos"].to_numpy(np.int64),
        )

    def card_steps(self, card: int) -> np.ndarray:
        """The steps of card ``card``, sorted."""
        return self.steps[self.offsets[card] : self.offsets[card + 1]]

    def card_counts(self, card: int) -> np.ndarray:
        """The number of samples at each step of card ``card``."""
        return self.counts[self.offsets[card] : self.offsets[card + 1]]

    def row(self, card: int, step: int, sample: int) -> int | None:
        """Frame position of one item, or None when the card has no such step or sample."""
        lo, hi = int(self.offsets[card]), int(self.offsets[card + 1])
        j = lo + int(np.searchsorted(self.steps[lo:hi], step))
        if j >= hi or self.steps[j] != step or not 0 <= sample < self.counts[j]:
            return None
        return int(self.rows[self.starts[j] + sample])

    def card_rows(self, card: int) -> np.ndarray:
        """Frame positions of every item of card ``card`` (steps, then samples)."""
        lo, hi = int(self.offsets[card]), int(self.offsets[card + 1])
        if lo == hi:
            return np.zeros(0, dtype=np.int64)
        return self.rows[self.starts[lo] : self.starts[hi - 1] + self.counts[hi - 1]]

    def payload(self) -> dict[str, Any]:
        """What the browser reads (``_index``): names once, everything else binary.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"run": "a", "tag": "t", "step": [3, 1], "wall_time": 0.0})
        >>> p = CardIndex.build(frame, ["a"]).payload()
        >>> p["runs"], p["tags"], p["steps"].tolist(), p["counts"].dtype.name
        (['a'], ['t'], [1, 3], 'uint8')
        """
        runs = list(dict.fromkeys(run for run, _ in self.cards))
        tags = list(dict.fromkeys(tag for _, tag in self.cards))
        run_id = {r: i for i, r in enumerate(runs)}
        tag_id = {t: i for i, t in enumerate(tags)}
        most = int(self.counts.max()) if len(self.counts) else 0
        count_type = np.uint8 if most < 256 else np.uint16 if most < 65536 else np.int32
        return {
            "runs": runs,
            "tags": tags,
            "card_run": np.array([run_id[r] for r, _ in self.cards], dtype=np.int32),
            "card_tag": np.array([tag_id[t] for _, t in self.cards], dtype=np.int32),
            "offsets": self.offsets.astype(np.int32),
            "steps": self.steps,  # int32 on the wire when it fits (tbnb.widgets.serializers)
            "counts": self.counts.astype(count_type),
        }


def position(
    index: CardIndex, card: int, global_step: int | None, pins: Pins
) -> tuple[int, int] | None:
    """``(step, sample)`` a card shows: its pinned step, else the step nearest the global
    step, else (no global step) its last; the sample is the card's own, within range.

    The browser applies the same rule (``positionOf`` in ``js/src/media/card-index.js``).
    """
    steps = index.card_steps(card)
    if len(steps) == 0:
        return None
    pin = pins.get(card_key(*index.cards[card])) or {}
    target = pin.get("step")
    if target is None:
        target = global_step
    j = len(steps) - 1 if target is None else nearest_index(steps, float(target))
    count = int(index.card_counts(card)[j])
    try:
        sample = int(pin.get("sample") or 0)
    except (TypeError, ValueError):
        sample = 0
    return int(steps[j]), min(max(sample, 0), count - 1)


def tag_matcher(pattern: str) -> re.Pattern[str] | None:
    """The compiled tag filter (case-insensitive, searched); None for an empty or invalid one,
    which the browser also ignores (it marks the box instead).

    Examples
    --------
    >>> tag_matcher("^VAL").search("val/x") is not None, tag_matcher("(") is None
    (True, True)
    """
    if not pattern:
        return None
    try:
        return re.compile(pattern, re.IGNORECASE)
    except re.error:
        return None


def shown_cards(index: CardIndex, selected_runs: Sequence[str], tag_filter: str) -> list[int]:
    """Cards shown: a selected run and a tag passing the filter, in display order.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": ["a", "b"], "tag": ["x", "y"], "step": 0, "wall_time": 0.0})
    >>> shown_cards(CardIndex.build(frame, ["a", "b"]), ["a", "b"], "y")
    [1]
    """
    selected = set(selected_runs)
    matcher = tag_matcher(tag_filter)
    return [
        i
        for i, (run, tag) in enumerate(index.cards)
        if run in selected and (matcher is None or matcher.search(tag))
    ]
