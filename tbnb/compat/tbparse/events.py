"""Values of one event file, grouped by tag, as tbparse's ``EventAccumulator`` holds them.

Examples
--------
>>> by_tag([("b", 1, Event(0, 0.0, 1)), ("a", 0, Event(0, 0.0, 2))])
{'a': [Event(step=0, wall_time=0.0, data=2)], 'b': [Event(step=0, wall_time=0.0, data=1)]}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from tbnb._proto import HParamsPluginData
from tbnb.compat.tbparse.names import (
    AUDIO,
    HISTOGRAMS,
    HPARAMS,
    IMAGES,
    SSI_TAG,
    TENSORS,
    TEXT,
)
from tbnb.compat.tbparse.tree import Event, File
from tbnb.kinds import TagMetadata
from tbnb.kinds.graphs import EVENT_FIELDS
from tbnb.kinds.pr_curves import PR_CURVE_ROWS
from tbnb.loader.run import RunResult

__all__ = ["by_tag", "events_of", "scalar_order", "tensor_scalar_tags"]


# ---------------------------------------------------------------- normalised -> events
def _meta(result: RunResult, tag: str) -> TagMetadata:
    return result.tag_meta.get(tag) or TagMetadata()


def _is_tensor_form(kind: str, result: RunResult, tag: str) -> bool:
    """Whether values of ``tag`` came from TF2 tensors rather than legacy proto fields.

    Legacy ``histo``/``image``/``audio`` values never carry plugin metadata; TF2 tensors
    always declare their plugin on the first event of a tag in a file.
    """
    return _meta(result, tag).plugin_name == kind


def tensor_scalar_tags(result: RunResult) -> list[str]:
    """Scalar tags of a file written as TF2 tensors (tbparse lists them in ``tensors``)."""
    return [tag for tag in scalar_order(result)[0] if _meta(result, tag).plugin_name == "scalars"]


def tensor_scalars_note(files: Iterable[tuple[str, File]]) -> str:
    """Why ``.tensors`` lacks rows tbparse has: the TF2 scalars of ``(path, file)``, or ""."""
    found: dict[str, list[str]] = {}
    for path, file in files:
        for tag in tensor_scalar_tags(file.result):
            found.setdefault(tag, []).append(path)
    if not found:
        return ""
    tags = ", ".join(repr(t) for t in list(found)[:5]) + (", ..." if len(found) > 5 else "")
    where = sorted({p for paths in found.values() for p in paths})
    return (
        f"tbnb.SummaryReader: {len(found)} TF2 scalar tag(s) ({tags}, in "
        f"{where[0]!r}{' and others' if len(where) > 1 else ''}) are in .scalars, not in "
        ".tensors where tbparse puts them: read reader.scalars (step, tag, value as "
        "float). The differences from tbparse: help(tbnb.SummaryReader)"
    )


def by_tag(rows: Iterable[tuple[str, int, Event]]) -> dict[str, list[Event]]:
    """Group events by tag, tags in order of first appearance, events in stream order."""
    grouped: dict[str, list[Event]] = {}
    for tag, _, event in sorted(rows, key=lambda r: r[1]):
        grouped.setdefault(tag, []).append(event)
    return grouped


def _rows(result: RunResult, kind: str) -> Iterable[dict[str, Any]]:
    return result.records.get(kind, [])


def _tensor_rows(result: RunResult) -> Iterator[tuple[str, int, Event]]:
    """Every tensor-valued summary tbparse puts in ``tensors``, as its numpy value."""

    def event(row: dict[str, Any], value: Any) -> tuple[str, int, Event]:
        if isinstance(value, np.ndarray) and value.shape == ():
            value = value.item()
        return row["tag"], row["seq"], Event(row["step"], row["wall_time"], value)

    for row in _rows(result, TENSORS):
        yield event(row, row["value"])
    for row in _rows(result, "pr_curves"):
        yield event(row, np.stack([row[name] for name in PR_CURVE_ROWS]).astype(np.float32))
    for row in _rows(result, "custom_scalars"):
        yield event(row, row["layout"])
    for row in _rows(result, "meshes"):  # each part under its own tag, as written
        yield row["instance_tag"], row["seq"], Event(row["step"], row["wall_time"], row["value"])
    for row in _rows(result, "graphs"):
        if row["kind"] not in EVENT_FIELDS:  # summary values only, as the accumulator
            yield event(row, row["blob"].read())
    for row in _rows(result, HISTOGRAMS):
        if _is_tensor_form(HISTOGRAMS, result, row["tag"]):
            edges = np.asarray(row["edges"], dtype=np.float64)
            yield event(
                row, np.stack([edges[:-1], row["limits"], row["bucket"]], axis=1).reshape(-1, 3)
            )
    for kind in (IMAGES, AUDIO):
        samples: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for row in _rows(result, kind):
            if _is_tensor_form(kind, result, row["tag"]):
                samples.setdefault((row["seq"], row["blob"].value_index), []).append(row)
        for group in samples.values():
            if kind == IMAGES:
                head = [str(group[0]["width"]).encode(), str(group[0]["height"]).encode()]
                value = np.array(head + [r["blob"].read() for r in group], dtype=object)
            else:
                value = np.empty((len(group), 2), dtype=object)
                for i, r in enumerate(group):
                    value[i] = (r["blob"].read(), r["label"].encode())
            yield event(group[0], value)


def events_of(file: File, event_type: str) -> dict[str, list[Event]]:
    """The events of one type in a file, by tag, as tbparse's accumulator holds them."""
    cached = file.grouped.get(event_type)
    if cached is not None:
        return cached
    result = file.result
    rows: Iterable[tuple[str, int, Event]]
    if event_type == TENSORS:
        rows = _tensor_rows(result)
    elif event_type == TEXT:
        rows = (
            (r["tag"], r["seq"], Event(r["step"], r["wall_time"], r["text"]))
            for r in _rows(result, TEXT)
        )
    elif event_type in (HISTOGRAMS, IMAGES, AUDIO):
        rows = (
            (r["tag"], r["seq"], Event(r["step"], r["wall_time"], r))
            for r in _rows(result, event_type)
            if not _is_tensor_form(event_type, result, r["tag"])
        )
    elif event_type == HPARAMS:
        rows = []
        for tag, _, content in result.hparams_values:
            if tag == SSI_TAG:
                info = HParamsPluginData.FromString(content).session_start_info
                rows = [
                    (name, 0, Event(0, 0.0, [info.hparams[name].ListFields()[0][1]]))
                    for name in info.hparams
                ]
                break
    else:
        raise AssertionError(event_type)
    grouped = file.grouped[event_type] = by_tag(rows)
    return grouped


def scalar_order(result: RunResult) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Scalar tags in order of first appearance, the point order grouping them, and
    each ordered point's tag index."""
    tag_id = result.scalar_tag_id
    if tag_id.size == 0:
        return [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    present, first = np.unique(tag_id, return_index=True)
    ordered = present[np.argsort(first, kind="stable")]
    rank = np.zeros(len(result.scalar_tags), dtype=np.int64)
    rank[ordered] = np.arange(len(ordered))
    ranks = rank[tag_id]
    order = np.argsort(ranks, kind="stable")
    return [result.scalar_tags[t] for t in ordered.tolist()], order, ranks[order]
