"""A window's indexed values (tensors, histograms, images, audio) into each kind's rows.

The native event decoder (:func:`tbnb.decode.scalars.decode_events`) decodes scalar
values and indexes every other value. Here each indexed value gets its kind, as
TensorBoard decides it (:func:`tbnb.kinds.kind_of`: a legacy field names its kind, a
tensor belongs to its tag's plugin), and the values of every kind with a native
decoder (:attr:`tbnb.kinds.base.Kind.batch`) become a :class:`~tbnb.loader.rowsets.RowSet`
at once. A value no batch decoder reproduces exactly sends its whole record to
protobuf (:func:`tbnb.loader.run.load_run` parses it, and warns where it must).

Examples
--------
>>> BY_PLUGIN["histograms"], LEGACY_KIND[5]
('histograms', 'histograms')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tbnb.decode.scalars import VALUE_AUDIO, VALUE_HISTO, VALUE_IMAGE, FastScalars
from tbnb.kinds import KINDS, TagMetadata
from tbnb.kinds import tensors as tensor_kind
from tbnb.kinds.batch import Batch
from tbnb.loader.rowsets import Ragged, RowSet

__all__ = ["BY_PLUGIN", "LEGACY_KIND", "Indexed", "index_values"]

BY_PLUGIN = {plugin: kind.key for kind in KINDS.values() for plugin in kind.plugins}
"""A tensor's kind by its tag's plugin (a plugin tbnb has no kind for: plain tensors)."""

_FIELDS = {VALUE_HISTO: "histo", VALUE_IMAGE: "image", VALUE_AUDIO: "audio"}
LEGACY_KIND = {
    code: next(kind.key for kind in KINDS.values() if kind.legacy_field == name)
    for code, name in _FIELDS.items()
}
"""The kind of each legacy value (by the decoder's code)."""

_SCALARS = KINDS["scalars"].key


@dataclass
class Indexed:
    """What became of a window's indexed values.

    Attributes
    ----------
    protobuf
        ``bool`` per record: records whose values must come from protobuf after all.
    rows
        Each kind's row sets, with each row's record and position in its event's
        ``Summary`` (to drop rows of records that went to protobuf, and to keep a
        record's values in order: :meth:`kept`).
    """

    protobuf: np.ndarray
    rows: dict[str, list[tuple[RowSet, np.ndarray, np.ndarray]]] = field(default_factory=dict)

    def add(self, key: str, rows: RowSet, rec: np.ndarray, value_index: np.ndarray) -> None:
        """Rows of kind ``key`` made of the values at ``rec``/``value_index``."""
        self.rows.setdefault(key, []).append((rows, rec, value_index))

    def kept(self) -> dict[str, RowSet]:
        """Each kind's rows of the records decoded here, one row set per kind, in
        stream order (record, then value)."""
        out = {}
        for key, sets in self.rows.items():
            kept, recs, indices = [], [], []
            for made, rec, value_index in sets:
                keep = ~self.protobuf[rec]
                if keep.any():
                    kept.append(made if keep.all() else made.take(keep))
                    recs.append(rec[keep])
                    indices.append(value_index[keep])
            if len(kept) == 1:
                out[key] = kept[0]
            elif kept:
                order = np.lexsort((np.concatenate(indices), np.concatenate(recs)))
                out[key] = RowSet.concat(kept, order)
        return out


def value_kinds(
    fast: FastScalars, tag_meta: dict[str, TagMetadata], indexed: np.ndarray
) -> np.ndarray:
    """The kind of each value of ``indexed`` (an object array of kind keys)."""
    codes = fast.dtype[indexed]
    tag_plugin = [
        BY_PLUGIN.get(meta.plugin_name if (meta := tag_meta.get(tag)) else "", tensor_kind.KEY)
        for tag in fast.tags
    ]
    by_tag = np.array(tag_plugin, dtype=object)
    kinds: np.ndarray = by_tag[fast.tag_id[indexed]]
    for code, key in LEGACY_KIND.items():
        kinds[codes == code] = key
    return kinds


def index_values(
    buf: np.ndarray,
    fast: FastScalars,
    starts: np.ndarray,
    lengths: np.ndarray,
    where: tuple[Any, str, int, int],
    acc: Any,
) -> Indexed:
    """Decode the indexed values of a window (``fast``) into rows of their kinds.

    ``where`` is ``(fs, path, file offset of buf, stream position of buf)``; ``acc`` the
    run's accumulator (its tag metadata, options and tag filter).
    """
    fs, path, base, seq_base = where
    options = acc.options
    protobuf = fast.fallback.copy()
    out = Indexed(protobuf)
    # scalar tensors of a tag whose plugin is neither scalars nor a plain tensor, and every
    # other indexed value
    candidate = np.flatnonzero(fast.dtype >= 2)
    if candidate.size == 0:
        return out
    kinds = value_kinds(fast, acc.tag_meta, candidate)
    scalar_tensor = fast.dtype[candidate] <= 3
    plain = (kinds == _SCALARS) | (kinds == tensor_kind.KEY)
    # rank-0 float tensors of scalars or no plugin stay with the scalar path
    pick = ~(scalar_tensor & plain)
    candidate, kinds, scalar_tensor = candidate[pick], kinds[pick], scalar_tensor[pick]
    to_protobuf = scalar_tensor.copy()  # a scalar tensor some other kind claims
    tag_names = np.array(fast.tags, dtype=object)
    kept_tags = np.array([options.keep_tag(t) for t in fast.tags], dtype=bool)
    for key in dict.fromkeys(kinds[~scalar_tensor].tolist()):
        kind = KINDS[key]
        mine = np.flatnonzero((kinds == key) & ~scalar_tensor)
        if kind.batch is None or key == _SCALARS:
            to_protobuf[mine] = True
            continue
        values = candidate[mine]
        if not kind.always:
            keep = kept_tags[fast.tag_id[values]] & (key in options.kinds)
            values, mine = values[keep], mine[keep]
        if values.size == 0:
            continue
        rec = fast.rec[values]
        tag_id = fast.tag_id[values]
        tags = tag_names[tag_id]
        batch = Batch(
            buf,
            fast.dtype[values],
            fast.data_start[values],
            fast.data_len[values],
            tags,
            meta={fast.tags[t]: acc.tag_meta.get(fast.tags[t]) for t in np.unique(tag_id).tolist()},
            value_index=fast.value_index[values],
            record_offset=base + starts[rec],
            record_length=lengths[rec],
            fs=fs,
            path=path,
            raw_buckets=options.raw_buckets,
        )
        made = kind.batch(batch)
        to_protobuf[mine[~made.ok]] = True
        source = values[made.source]
        columns: dict[str, Any] = {
            "tag": tags[made.source],
            "step": fast.value_step[source],
            "wall_time": fast.value_wall_time[source],
            "seq": seq_base + starts[fast.rec[source]],
        }
        for name, column in made.columns.items():
            columns[name] = Ragged(*column) if isinstance(column, tuple) else column
        out.add(key, RowSet(columns), fast.rec[source], fast.value_index[source])
    protobuf[fast.rec[candidate[to_protobuf]]] = True
    return out
