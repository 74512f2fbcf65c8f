"""What a kind is: the kinds of kinds, each with its ``build(state)``, and what they share.

A kind is defined once, in its own module (``tbnb/kinds/<key>.py``), as one of a few
types, and its type says where its frame comes from and what the loader does with its
values:

- :class:`ColumnarKind`: points kept in the experiment's columnar store (scalars);
- :class:`RecordsKind`: values turned into rows per run (:attr:`RecordsKind.rows`);
- :class:`RawKind`: values kept as they are, ``(run, tag, step, data)``, the frame built
  by an :class:`Analysis` of the whole experiment (hparams);
- :class:`DerivedKind`: computed from another kind's frame (distributions);
- :class:`FilesKind`: read from files beside the event files (embeddings);
- :class:`RunsKind`: the loader's own bookkeeping per run (metadata).

An event kind also declares the TensorBoard plugin names and legacy ``Summary.Value``
field that mean it and how a value normalises (the way TensorBoard's ``data_compat``
migrates legacy values to the tensor form TF2 writes, so later code handles one form).
``build(state)`` gets the experiment's state (:class:`KindState`) and returns the frame;
a higher layer's function is named as text (``"module:function"``), resolved on first
use and declared in the registry, so the layer test can check it. Everything that lists
kinds (``tbnb.load(event_types=...)``, the ``Experiment`` accessors, ``exp.metadata``,
``tbnb.SummaryReader``, the dashboard's tabs) derives from :mod:`tbnb.kinds`.

Examples
--------
>>> from tbnb.kinds import KINDS
>>> KINDS["histograms"].plugins, KINDS["histograms"].legacy_field
(('histograms',), 'histo')
>>> [type(KINDS[key]).__name__ for key in ("scalars", "histograms", "distributions")]
['ColumnarKind', 'RecordsKind', 'DerivedKind']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

BASE_COLUMNS = ("run", "tag", "step", "wall_time")
"""Columns every event kind's frame starts with."""


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


class KindState(Protocol):
    """What a kind's ``build`` may ask of the experiment's state."""

    def frame(self, key: str) -> Any:
        """Another kind's frame."""

    def scalar_frame(self) -> Any:
        """The columnar store's frame of scalar points."""

    def records_frame(self, kind: RecordsKind) -> Any:
        """The frame of a records kind's rows, every run's."""

    def files_frame(self, kind: FilesKind) -> Any:
        """What a files kind lists in every logdir (merged, for several)."""

    def run_table(self) -> Any:
        """One row per run: the loader's bookkeeping."""


def resolve(reference: str) -> Callable[..., Any]:
    """The function ``"module:function"`` names, imported now.

    Examples
    --------
    >>> resolve("math:sqrt")(9.0)
    3.0
    """
    module, _, name = reference.partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


@dataclass(frozen=True)
class Analysis:
    """A question about a whole experiment answered by a higher layer: the run
    information, a model graph, the hparams table.

    Attributes
    ----------
    key
        Its name (``state.analysis(key, ...)``).
    builder
        ``"module:function"`` of the function, called with the experiment's state (and
        the caller's arguments); imported on first use.
    doc
        What it answers.
    """

    key: str
    builder: str
    doc: str = ""

    def __call__(self, state: Any, *args: Any, **kwargs: Any) -> Any:
        """Answer it for ``state``."""
        return resolve(self.builder)(state, *args, **kwargs)


@dataclass(frozen=True, kw_only=True)
class Kind:
    """What every kind declares: its key, accessor doc, tab, tbparse names and counts.

    Attributes
    ----------
    key
        The kind's name: ``event_types`` entry, ``Experiment`` accessor and frame name.
    doc
        One line for the accessor's docstring.
    columns
        Frame columns after :data:`~tbnb.kinds.base.BASE_COLUMNS`.
    dtypes
        numpy dtype of the typed columns (everything else is an object column).
    counted
        Whether ``exp.metadata`` counts its values per run.
    tbparse
        tbparse event types its values appear under, in tbparse's own naming.
    tab
        Its dashboard tab, once a widget shows it.
    """

    key: str
    doc: str
    columns: tuple[str, ...] = ()
    dtypes: Mapping[str, Any] = field(default_factory=dict)
    counted: bool = False
    tbparse: tuple[str, ...] = ()
    tab: Tab | None = None

    storage: ClassVar[str] = ""
    """Where the frame comes from, in one word (``columnar``, ``records``, ...)."""
    comes_from: ClassVar[str] = ""
    """The same in words (the architecture notes' table of kinds)."""

    # What the loader does with values of the kind (event kinds declare them).
    event_type: ClassVar[bool] = False
    plugins: tuple[str, ...] = ()
    legacy_field: str | None = None
    normalize: Normalize | None = None
    rows: Rows | None = None
    batch: Callable[[Any], Any] | None = None
    raw: ClassVar[bool] = False
    always: bool = False
    own_metadata: bool = False
    in_metadata: bool = False

    @property
    def frame_columns(self) -> list[str]:
        """Every column of the kind's frame, in order."""
        return [*BASE_COLUMNS, *self.columns]

    @property
    def references(self) -> tuple[str, ...]:
        """The ``"module:function"`` texts the kind names (resolved on first use)."""
        return ()

    def build(self, state: KindState) -> Any:
        """The kind's frame (or object) from the experiment's ``state``."""
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class EventKind(Kind):
    """A kind read from event files: which values are its own and their normalised form.

    Attributes
    ----------
    plugins
        TensorBoard plugin names whose tensors are this kind.
    legacy_field
        The ``Summary.Value`` oneof field torch and tensorboardX write for it.
    normalize
        ``normalize(value, meta) -> data``: a value of this kind in the one normalised
        form (or :class:`~tbnb.kinds.base.AsTensor`).
    own_metadata
        Each value carries its own metadata content, which replaces the tag's
        first-seen metadata for that value.
    always
        Loaded whatever ``event_types`` and ``tags`` ask for.
    in_metadata
        The value holds no data: everything is in its plugin metadata.
    batch
        ``batch(Batch) -> BatchRows``: the rows of a window's values of this kind as the
        native decoder indexed them (:mod:`tbnb.kinds.batch`), equal to ``normalize`` and
        ``rows``; kinds without one are decoded by protobuf.
    """

    event_type: ClassVar[bool] = True


@dataclass(frozen=True, kw_only=True)
class ColumnarKind(EventKind):
    """Points kept in the experiment's columnar store (``(run, tag, step, wall_time,
    value)``, frames are views)."""

    storage: ClassVar[str] = "columnar"
    comes_from: ClassVar[str] = "the columnar scalar store"

    def build(self, state: KindState) -> Any:
        return state.scalar_frame()


@dataclass(frozen=True, kw_only=True)
class RecordsKind(EventKind):
    """Values turned into rows per run (``rows(data, context) -> [row, ...]``).

    Attributes
    ----------
    finish
        Turns the records frame into what the accessor returns (default: the frame).
    """

    rows: Rows
    finish: Callable[[Any], Any] | None = None

    storage: ClassVar[str] = "records"
    comes_from: ClassVar[str] = "rows per run"

    def build(self, state: KindState) -> Any:
        frame = state.records_frame(self)
        return self.finish(frame) if self.finish is not None else frame


@dataclass(frozen=True, kw_only=True)
class RawKind(EventKind):
    """Values kept as they are (``(run, tag, step, data)``), the frame built by an
    :class:`Analysis` of the whole experiment (``analysis.builder``)."""

    analysis: Analysis

    storage: ClassVar[str] = "raw"
    comes_from: ClassVar[str] = "raw values, through an analysis"
    raw: ClassVar[bool] = True

    @property
    def references(self) -> tuple[str, ...]:
        return (self.analysis.builder,)

    def build(self, state: KindState) -> Any:
        return self.analysis(state)


@dataclass(frozen=True, kw_only=True)
class DerivedKind(Kind):
    """Computed from another kind's frame: ``derive(state.frame(source))``."""

    source: str
    derive: Callable[[Any], Any]

    storage: ClassVar[str] = "derived"
    comes_from: ClassVar[str] = "derived from another kind"

    def build(self, state: KindState) -> Any:
        return self.derive(state.frame(self.source))


@dataclass(frozen=True, kw_only=True)
class FilesKind(Kind):
    """Read from files beside the event files: ``list_files(fs, root) -> frame``.

    Several logdirs are listed one by one and their listings merged by ``merge(fs,
    [(name, listing), ...])`` (``fs`` reads every logdir's files; the default merges
    frames with a ``run`` column, naming each run ``name/run``).
    """

    list_files: Callable[[Any, str], Any]
    merge: Callable[[Any, list[tuple[str, Any]]], Any] | None = None

    storage: ClassVar[str] = "files"
    comes_from: ClassVar[str] = "files beside the event files"

    def build(self, state: KindState) -> Any:
        return state.files_frame(self)


@dataclass(frozen=True, kw_only=True)
class RunsKind(Kind):
    """The loader's bookkeeping of each run (files, writer, wall times, counts)."""

    storage: ClassVar[str] = "runs"
    comes_from: ClassVar[str] = "the loader's bookkeeping per run"

    def build(self, state: KindState) -> Any:
        return state.run_table()
