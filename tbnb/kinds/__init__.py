"""The kind registry: every kind of data, each defined once in its own module.

Layer ``kinds`` (above ``io`` and ``decode``, below ``loader``): what each kind of
summary is and how its values normalise. :data:`KINDS` lists them in dashboard order;
everything else that lists kinds derives from it: ``tbnb.load(event_types=...)``
(:data:`EVENT_TYPES`), the ``Experiment`` accessors and ``exp.metadata`` counts, the
tbparse compatibility layer and the dashboard's tabs.

Adding a kind is one module here (a :class:`~tbnb.kinds.base.Kind` named ``KIND``,
listed below), one ``tbnb/widgets/<key>/`` folder and one ``js/src/widgets/<key>/``
folder, plus their tests.

Examples
--------
>>> from tbnb._proto import Summary
>>> normalize_value(Summary.Value(tag="loss", simple_value=0.25), None)
('scalars', 0.25)
>>> titles = [kind.tab.title for kind in KINDS.values() if kind.tab]
>>> titles[0], "HParams" in titles
('Scalars', True)
"""

from __future__ import annotations

from typing import Any

from tbnb.kinds import (
    audio,
    custom_scalars,
    distributions,
    embeddings,
    graphs,
    histograms,
    hparams,
    images,
    meshes,
    metadata,
    pr_curves,
    profile,
    scalars,
    tensors,
    text,
)
from tbnb.kinds.base import AsTensor, Kind, RowContext, Tab, TagMetadata, Where

__all__ = [
    "EVENT_TYPES",
    "KINDS",
    "Kind",
    "RowContext",
    "Tab",
    "TagMetadata",
    "Where",
    "kind_of",
    "normalize_value",
]

KINDS: dict[str, Kind] = {
    kind.key: kind
    for kind in (
        scalars.KIND,
        custom_scalars.KIND,
        hparams.KIND,
        histograms.KIND,
        distributions.KIND,
        images.KIND,
        audio.KIND,
        text.KIND,
        pr_curves.KIND,
        meshes.KIND,
        embeddings.KIND,
        profile.KIND,
        graphs.KIND,
        metadata.KIND,
        tensors.KIND,
    )
}
"""Every kind, by key, in the dashboard's tab order."""

EVENT_TYPES = frozenset(key for key, kind in KINDS.items() if kind.event_type)
"""Kinds read from event files: what ``tbnb.load(event_types=...)`` accepts."""

_BY_PLUGIN = {plugin: kind.key for kind in KINDS.values() for plugin in kind.plugins}
_BY_FIELD = {kind.legacy_field: kind.key for kind in KINDS.values() if kind.legacy_field}
_IN_METADATA = {
    plugin: kind.key for kind in KINDS.values() if kind.in_metadata for plugin in kind.plugins
}


def kind_of(value: Any, meta: TagMetadata | None) -> str | None:
    """The kind of a ``Summary.Value``, as TensorBoard decides it, or None if it holds no data.

    A legacy field (``simple_value``, ``histo``, ``image``, ``audio``) names its kind; a
    tensor belongs to its tag's plugin (``meta``, often declared on the tag's first
    event only), else it is a plain tensor; a value with no data is an hparams summary
    when its own metadata says so.
    """
    field = value.WhichOneof("value")
    if field is None:
        own = value.metadata.plugin_data.plugin_name if value.HasField("metadata") else ""
        return _IN_METADATA.get(own)
    if field == "tensor":
        return _BY_PLUGIN.get(meta.plugin_name if meta is not None else "", tensors.KEY)
    return _BY_FIELD.get(field)  # obsolete_old_style_histogram: no supported writer


def normalize_value(value: Any, meta: TagMetadata | None) -> tuple[str, Any] | None:
    """``(kind, data)`` of a ``Summary.Value`` in the one normalised form, or None.

    ``data`` is what the kind's ``normalize`` returns (see each ``tbnb/kinds`` module).

    Raises
    ------
    tbnb.decode.tensors.TensorDecodeError
        When a tensor's contents do not fit its dtype or shape.
    """
    key = kind_of(value, meta)
    if key is None:
        return None
    kind = KINDS[key]
    assert kind.normalize is not None
    data = kind.normalize(value, meta)
    if isinstance(data, AsTensor):
        return tensors.KEY, data.array
    return key, data
