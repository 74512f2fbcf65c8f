"""What a kind of data is: the :class:`Kind` record every ``tbnb/kinds/<key>.py`` declares.

A kind is defined once, in its own module, by one :class:`Kind`: the TensorBoard
plugin names and legacy ``Summary.Value`` field that mean it, how a value of it
normalises (the way TensorBoard's ``data_compat`` migrates legacy values to the
tensor form TF2 writes, so later code handles one form), the rows it adds to its
frame and their columns, where its frame comes from, its tbparse event type and its
dashboard tab. Everything that lists kinds (``tbnb.load(event_types=...)``, the
``Experiment`` accessors, ``exp.metadata``, ``tbnb.SummaryReader``, the dashboard's
tabs) derives from the registry in :mod:`tbnb.kinds`.

Examples
--------
>>> from tbnb.kinds import KINDS
>>> KINDS["histograms"].plugins, KINDS["histograms"].legacy_field
(('histograms',), 'histo')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

BASE_COLUMNS = ("run", "tag", "step", "wall_time")
"""Columns every event kind's frame starts with."""

Storage = Literal["columnar", "records", "hparams", "derived", "analysis", "files", "runs"]
"""Where a kind's frame comes from.

``columnar``: the experiment's scalar store; ``records``: rows the loader kept per
run (:attr:`Kind.rows`); ``hparams``: the raw plugin values (``exp.hparams_values``);
``derived``: computed from another kind's frame (:attr:`Kind.derive`); ``analysis``:
built from the whole experiment by a function of a higher layer, named by
:attr:`Kind.builder` and imported on first use; ``files``: read from files beside the
event files (:attr:`Kind.list_files`); ``runs``: the loader's per-run bookkeeping.
"""


@dataclass(frozen=True)
class TagMetadata:
    """What a writer declared about a tag (``SummaryMetadata``), kept per (run, tag)."""

    plugin_name: str = ""
    content: bytes = b""
    display_name: str = ""
    description: str = ""
    data_class: int = 0

    @classmethod
    def from_proto(cls, meta: Any) -> TagMetadata:
        """Build from a ``SummaryMetadata`` message."""
        return cls(
            plugin_name=meta.plugin_data.plugin_name,
            content=bytes(meta.plugin_data.content),
            display_name=meta.display_name,
            description=meta.summary_description,
            data_class=int(meta.data_class),
        )


@dataclass(frozen=True)
class Where:
    """Where one summary value lives: enough to read its bytes again on demand.

    ``value_index`` is the value's position in its event's ``Summary``, or ``-1`` for
    an event-level field (``graph_def``, ``meta_graph_def``, ``tagged_run_metadata``)
    named by ``field``.
    """

    fs: Any
    path: str
    offset: int
    length: int
    value_index: int
    field: str = "summary"


@dataclass(frozen=True)
class RowContext:
    """What the loader knows about one value when a kind turns it into frame rows."""

    tag: str
    step: int
    wall_time: float
    seq: int
    meta: TagMetadata | None
    where: Where | None

    def base(self) -> dict[str, Any]:
        """The columns every row starts with (``seq`` orders rows in stream order)."""
        return {"tag": self.tag, "step": self.step, "wall_time": self.wall_time, "seq": self.seq}


@dataclass(frozen=True)
class AsTensor:
    """Returned by a kind's ``normalize`` when a value belongs with plain tensors.

    TF2 scalar-plugin tensors that do not hold exactly one number are tensors, as
    TensorBoard treats them.
    """

    array: np.ndarray


@dataclass(frozen=True)
class Tab:
    """A kind's dashboard tab.

    Attributes
    ----------
    title
        The tab label.
    factory
        ``"module:function"`` of the widget builder, imported when the tab is first
        built (a lower layer names a higher one only as text, never imports it), or
        the builder itself.
    live
        Whether the builder takes ``refresh=`` (seconds between reloads).
    shown
        ``shown(frame) -> bool``: whether the kind's frame has something to show
        (default: it has rows).
    present
        ``present(experiment) -> bool``, asked instead of ``shown`` when the frame is
        costly to build (the dashboard asks it for every kind before showing anything).
    """

    title: str
    factory: str | Callable[..., Any]
    live: bool = True
    shown: Callable[[Any], bool] | None = None
    present: Callable[[Any], bool] | None = None


Normalize = Callable[[Any, TagMetadata | None], Any]
Rows = Callable[[Any, RowContext], list[dict[str, Any]]]


@dataclass(frozen=True)
class Kind:
    """Everything the package knows about one kind of data.

    Attributes
    ----------
    key
        The kind's name: ``event_types`` entry, ``Experiment`` accessor and frame name.
    doc
        One line for the accessor's docstring.
    storage
        Where the frame comes from (see :data:`Storage`).
    plugins
        TensorBoard plugin names whose tensors are this kind.
    legacy_field
        The ``Summary.Value`` oneof field torch and tensorboardX write for it.
    columns
        Frame columns after :data:`BASE_COLUMNS` (``records`` kinds).
    dtypes
        numpy dtype of the typed columns (everything else is an object column).
    normalize
        ``normalize(value, meta) -> data``: a ``Summary.Value`` of this kind in the
        one normalised form (or :class:`AsTensor`).
    rows
        ``rows(data, context) -> [row, ...]``: the frame rows of one value.
    event_type
        Whether ``tbnb.load(event_types=...)`` can ask for it (kinds read from events).
    counted
        Whether ``exp.metadata`` counts its rows per run.
    tbparse
        tbparse event types its values appear under, in tbparse's own naming.
    derive
        For ``derived`` kinds: ``(source kind, function(frame) -> frame)``.
    builder
        For ``analysis`` kinds: ``"module:function"`` called as ``function(experiment)``.
    list_files
        For ``files`` kinds: ``function(fs, root) -> frame``.
    finish
        Turns the records frame into what the accessor returns (default: the frame).
    own_metadata
        Each value carries its own metadata content (hparams, custom scalars), which
        replaces the tag's first-seen metadata for that value.
    raw
        Values are kept as ``(tag, step, data)`` per run instead of frame rows.
    always
        Loaded whatever ``event_types`` and ``tags`` ask for (hparams describe the run).
    in_metadata
        The value holds no data: everything is in its plugin metadata.
    batch
        ``batch(Batch) -> BatchRows``: the rows of a window's values of this kind as the
        native decoder indexed them (:mod:`tbnb.kinds.batch`), equal to ``normalize`` and
        ``rows``; kinds without one are decoded by protobuf.
    tab
        Its dashboard tab, once a widget shows it.
    """

    key: str
    doc: str
    storage: Storage = "records"
    plugins: tuple[str, ...] = ()
    legacy_field: str | None = None
    columns: tuple[str, ...] = ()
    dtypes: Mapping[str, Any] = field(default_factory=dict)
    normalize: Normalize | None = None
    rows: Rows | None = None
    event_type: bool = True
    counted: bool = False
    tbparse: tuple[str, ...] = ()
    derive: tuple[str, Callable[[Any], Any]] | None = None
    builder: str | None = None
    list_files: Callable[[Any, str], Any] | None = None
    finish: Callable[[Any], Any] | None = None
    own_metadata: bool = False
    raw: bool = False
    always: bool = False
    in_metadata: bool = False
    batch: Callable[[Any], Any] | None = None
    tab: Tab | None = None

    @property
    def frame_columns(self) -> list[str]:
        """Every column of the kind's records frame, in order."""
        return [*BASE_COLUMNS, *self.columns]


def column_rows(column: str) -> Rows:
    """Rows of one value each, the data under ``column`` (``text``, ``layout``, ...).

    Examples
    --------
    >>> rows = column_rows("text")
    >>> rows("hi", RowContext("t", 1, 2.0, 0, None, None))
    [{'tag': 't', 'step': 1, 'wall_time': 2.0, 'seq': 0, 'text': 'hi'}]
    """

    def rows(data: Any, context: RowContext) -> list[dict[str, Any]]:
        return [{**context.base(), column: data}]

    return rows


def value_rows(data: Any, context: RowContext) -> list[dict[str, Any]]:
    """One row per value: a dict's items as columns, anything else as ``value``."""
    if isinstance(data, dict):
        return [{**context.base(), **data}]
    return [{**context.base(), "value": data}]
