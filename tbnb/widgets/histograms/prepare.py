"""Pure preparation of the histograms view: store -> chart payloads (no widget state).

Three payloads leave Python:

- :func:`series_payload`: one chart's data, exact, as the browser asks for it: the
  steps drawn (at most ``limit``, evenly spaced, first and last always, inside the step
  window), their histograms re-binned on the chart's common bins (TensorBoard's
  algorithm, :func:`tbnb.transforms.histograms.rebin_ragged`) and their nine
  distribution bands (:func:`tbnb.kinds.distributions.percentiles`);
- :func:`at_step_payload`: several runs' histograms of one tag at one step, on bins
  common to all of them;
- :func:`preview_payload`: a small copy of every chart for the widget's saved state, so
  a saved notebook or an exported page draws every chart with no kernel: the same data
  at fewer steps, counts as 8-bit fractions of each step's largest bin and bands as
  16-bit fractions of the series' range, as many steps as the state budget allows.

Examples
--------
>>> import numpy as np, pandas as pd
>>> from tbnb.widgets.histograms.store import HistogramStore
>>> frame = pd.DataFrame({"run": "a", "tag": "w", "step": [0, 1], "wall_time": [5.0, 6.0],
...                       "edges": [np.array([0.0, 2.0]), np.array([1.0, 3.0])],
...                       "counts": [np.array([4.0]), np.array([2.0])]})
>>> item = series_payload(HistogramStore.from_frame(frame), 0, bins=3, limit=10)
>>> item["left"], item["right"], item["counts"].reshape(2, 3).tolist()
(0.0, 3.0, [[2.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tbnb.kinds.distributions import DISTRIBUTION_BPS, percentiles
from tbnb.transforms.histograms import rebin_ragged, sample_indices
from tbnb.widgets.histograms.store import HistogramStore
from tbnb.widgets.ordering import natural_key

__all__ = [
    "MAX_BINS",
    "MODES",
    "TIME_AXES",
    "at_step_payload",
    "nearest_rows",
    "preview_payload",
    "preview_steps",
    "series_payload",
    "steps_wire",
    "tag_group",
]

MODES = ("offset", "overlay", "heatmap", "distribution", "runs")
"""Views: ridgelines (steps offset back to front), steps overlaid, step x bin heatmap,
TensorBoard's nine-band distribution chart, and several runs at one step on one chart."""

TIME_AXES = ("step", "relative", "wall")
MAX_BINS = 512
BANDS = len(DISTRIBUTION_BPS)
PREVIEW_MAX_STEPS = 200
STEP_VALUES = 4000


def tag_group(tag: str) -> str:
    """The group a tag's charts sit in: its first path component.

    Examples
    --------
    >>> tag_group("layer1/weight"), tag_group("loss")
    ('layer1', 'loss')
    """
    return tag.split("/", 1)[0]


def steps_wire(steps: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Steps as int32 when they fit (else float64: exact up to 2**53).

    Examples
    --------
    >>> steps_wire(np.array([0, 5])).dtype, steps_wire(np.array([2**40])).dtype
    (dtype('int32'), dtype('float64'))
    """
    if steps.size == 0 or (steps.min() >= -(2**31) and steps.max() < 2**31):
        return steps.astype(np.int32)
    return steps.astype(np.float64)


def _rebinned(
    store: HistogramStore,
    rows: npt.NDArray[np.int64],
    bins: int,
    bounds: tuple[float, float] | None,
    *,
    bands: bool = True,
) -> tuple[npt.NDArray[Any], ...]:
    """``(kept rows, counts [kept, bins], bands [kept, 9])`` of ``rows`` (with ``bands``
    false, an empty ``[kept, 0]`` table)."""
    edges, counts, lengths, kept = store.buckets(rows)
    if bounds is None:
        binned = np.zeros((kept.size, bins))
    else:
        binned = rebin_ragged(edges, counts, lengths, bins, bounds)
    table = percentiles(edges, counts, lengths) if bands else np.zeros((kept.size, 0))
    return kept, binned, table


def series_payload(
    store: HistogramStore,
    i: int,
    *,
    bins: int,
    limit: int,
    window: tuple[float, float] | None = None,
    hist: bool = True,
    bands: bool = True,
) -> dict[str, Any]:
    """One chart's data: at most ``limit`` steps of series ``i`` inside ``window``.

    Keys: ``run``, ``tag``, ``total`` (histograms in the window), ``steps``, ``wall``,
    ``num`` (each drawn histogram's total count); with ``hist``: ``left``, ``right``
    (the common bins span every histogram of the window, so they do not move when
    fewer steps are drawn) and ``counts`` (``[steps * bins]`` float32); with ``bands``:
    ``bands`` (``[steps * 9]``: 0, 6.68, 15.87, 30.85, 50, 69.15, 84.13, 93.32, 100 %).
    """
    rows = store.rows(i, window)
    run, tag = store.keys[i]
    picked = rows[sample_indices(store.steps[rows], limit)]
    bounds = store.bounds_of(rows)
    kept, binned, table = _rebinned(store, picked, bins, bounds)
    out: dict[str, Any] = {
        "run": run,
        "tag": tag,
        "total": int(rows.size),
        "steps": steps_wire(store.steps[kept]),
        "wall": store.wall[kept],
        "num": binned.sum(axis=1) if bounds is not None else np.zeros(kept.size),
    }
    if hist:
        out["left"], out["right"] = bounds if bounds is not None else (np.nan, np.nan)
        out["counts"] = binned.astype(np.float32).ravel()
    if bands:
        out["bands"] = table.ravel()
    return out


def nearest_rows(
    store: HistogramStore,
    series: Sequence[int],
    step: float,
    window: tuple[float, float] | None = None,
) -> list[int | None]:
    """Per series, the histogram at the step nearest ``step`` (inside ``window``; ties go
    to the earlier step), or None when the series has none there.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": "a", "tag": "w", "step": [0, 10, 20],
    ...                       "edges": [np.array([0.0, 1.0])] * 3, "counts": [np.ones(1)] * 3})
    >>> nearest_rows(HistogramStore.from_frame(frame), [0], 14)
    [1]
    """
    out: list[int | None] = []
    for i in series:
        rows = store.rows(i, window)
        if rows.size == 0:
            out.append(None)
            continue
        steps = store.steps[rows]
        j = int(np.clip(np.searchsorted(steps, step, side="left"), 1, max(rows.size - 1, 1)))
        if rows.size == 1:
            out.append(int(rows[0]))
            continue
        before, after = steps[j - 1], steps[j]
        out.append(int(rows[j - 1] if step - before <= after - step else rows[j]))
    return out


def at_step_payload(
    store: HistogramStore,
    series: Sequence[int],
    *,
    step: float,
    bins: int,
    window: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """Several series (runs of one tag) at the step nearest ``step``, on common bins.

    The bins span every histogram of those series in the window (they stay put while the
    step moves). Keys: ``left``, ``right``, ``items`` (per series with a histogram there:
    ``run``, ``tag``, ``step``, ``wall``, ``num``, ``counts`` of ``bins`` float32, and the
    nine ``bands``).
    """
    spans = [b for b in (store.bounds_of(store.rows(i, window)) for i in series) if b]
    bounds = (min(b[0] for b in spans), max(b[1] for b in spans)) if spans else None
    rows = nearest_rows(store, series, step, window)
    items = []
    for i, row in zip(series, rows, strict=True):
        if row is None:
            continue
        kept, binned, table = _rebinned(store, np.array([row]), bins, bounds)
        if kept.size == 0:
            continue
        run, tag = store.keys[i]
        items.append(
            {
                "run": run,
                "tag": tag,
                "step": int(store.steps[row]),
                "wall": float(store.wall[row]),
                "num": float(binned.sum()),
                "counts": binned[0].astype(np.float32),
                "bands": table[0],
            }
        )
    left, right = bounds if bounds is not None else (np.nan, np.nan)
    return {"left": left, "right": right, "bins": bins, "items": items}


def preview_steps(n_series: int, bins: int, budget: int, limit: int) -> int:
    """Steps per series the saved preview can hold in ``budget`` bytes (2 to ``limit``).

    A step costs ``bins`` bytes of counts, 18 of bands and 12 of step, time and scale.

    Examples
    --------
    >>> preview_steps(800, 30, 1_300_000, 200), preview_steps(4, 30, 1_300_000, 200)
    (27, 200)
    """
    per_step = bins + 2 * BANDS + 12
    return int(np.clip(budget // max(n_series * per_step, 1), 2, max(limit, 2)))


def preview_payload(store: HistogramStore, *, bins: int, steps: int) -> dict[str, Any]:
    """Every series at ``steps`` evenly spaced steps, compact, for the saved state.

    Keys: ``bins``, ``offsets`` (series ``i`` has entries ``offsets[i]:offsets[i+1]``
    of the per-step arrays), ``step``, ``wall`` (float32 seconds after the series'
    first histogram), ``scale`` (float32: the step's largest bin), ``counts``
    (uint8 ``[entries * bins]``: fraction of ``scale`` times 255), ``num``, ``left``,
    ``right`` (per series), ``bands`` (uint16 ``[entries * 9]``: fraction of
    ``band_lo`` .. ``band_hi`` times 65535), ``band_lo``, ``band_hi``.
    """
    n = len(store)
    picks, offsets = [], [0]
    for i in range(n):
        rows = store.rows(i)
        picks.append(rows[sample_indices(store.steps[rows], steps)])
    left, right = np.full(n, np.nan), np.full(n, np.nan)
    band_lo, band_hi = np.full(n, np.nan), np.full(n, np.nan)
    # the buckets and bands of every picked histogram in one pass (800 small calls cost
    # seconds), then each series re-binned on its own bins
    rows = np.concatenate(picks) if picks else np.zeros(0, np.int64)
    edges, counts, lengths, kept_rows = store.buckets(rows)
    every = percentiles(edges, counts, lengths)
    position = np.full(store.steps.size, -1, dtype=np.int64)
    position[kept_rows] = np.arange(kept_rows.size)
    owner = np.repeat(np.arange(n), [p.size for p in picks])[position[rows] >= 0]
    block = np.searchsorted(owner, np.arange(n + 1))
    count_at = np.r_[0, np.cumsum(lengths)]
    edge_at = np.r_[0, np.cumsum(np.where(lengths > 0, lengths + 1, 0))]
    kept_all, counts_all, bands_all = [], [], []
    for i in range(n):
        bounds = store.bounds_of(store.rows(i))
        a, b = block[i], block[i + 1]
        kept, table = kept_rows[a:b], every[a:b]
        binned = (
            np.zeros((kept.size, bins))
            if bounds is None
            else rebin_ragged(
                edges[edge_at[a] : edge_at[b]],
                counts[count_at[a] : count_at[b]],
                lengths[a:b],
                bins,
                bounds,
            )
        )
        if bounds is not None:
            left[i], right[i] = bounds
        finite = table[np.isfinite(table)]
        if finite.size:
            band_lo[i], band_hi[i] = finite.min(), finite.max()
        kept_all.append(kept)
        counts_all.append(binned)
        bands_all.append(table)
        offsets.append(offsets[-1] + kept.size)
    kept = np.concatenate(kept_all) if kept_all else np.zeros(0, np.int64)
    counts = np.concatenate(counts_all) if counts_all else np.zeros((0, bins))
    table = np.concatenate(bands_all) if bands_all else np.zeros((0, BANDS))
    scale = counts.max(axis=1, initial=0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        fraction = np.where(scale[:, None] > 0, counts / scale[:, None], 0.0)
    series_of = np.repeat(np.arange(n), np.diff(offsets))
    lo, span = band_lo[series_of][:, None], (band_hi - band_lo)[series_of][:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        band_fraction = np.where(span > 0, (table - lo) / span, 0.0)
    wall0 = np.array(
        [
            store.wall[store.bounds[i]] if store.bounds[i] < store.bounds[i + 1] else np.nan
            for i in range(n)
        ]
    )
    return {
        "bins": bins,
        "offsets": np.asarray(offsets, dtype=np.int32),
        "step": steps_wire(store.steps[kept]),
        "wall": (store.wall[kept] - wall0[series_of]).astype(np.float32),
        "wall0": wall0,
        "scale": scale.astype(np.float32),
        "num": counts.sum(axis=1).astype(np.float32),
        "counts": np.rint(np.nan_to_num(fraction) * 255).astype(np.uint8).ravel(),
        "left": left,
        "right": right,
        "bands": np.rint(np.clip(np.nan_to_num(band_fraction), 0, 1) * 65535)
        .astype(np.uint16)
        .ravel(),
        "band_lo": band_lo,
        "band_hi": band_hi,
    }


def step_values(store: HistogramStore) -> npt.NDArray[Any]:
    """The steps the step controls choose from: every distinct step (evenly sampled to
    at most 4,000, the first and last kept).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": ["a", "b"], "tag": "w", "step": [3, 1],
    ...                       "edges": [np.array([0.0, 1.0])] * 2, "counts": [np.ones(1)] * 2})
    >>> step_values(HistogramStore.from_frame(frame)).tolist()
    [1, 3]
    """
    unique = np.unique(store.steps)
    return steps_wire(unique[sample_indices(unique, STEP_VALUES)])


def ordered_names(names: Sequence[str]) -> list[str]:
    """Tags in natural order (``layer2`` before ``layer10``).

    Examples
    --------
    >>> ordered_names(["l10/w", "l2/w"])
    ['l2/w', 'l10/w']
    """
    return sorted(names, key=natural_key)
