"""tbparse 0.0.9's ``SummaryReader``, read by tbnb's loader.

Examples
--------
>>> import tbnb
>>> reader = tbnb.SummaryReader(tbnb.samples.sample_logdir(), extra_columns={"dir_name"})
>>> reader.scalars.columns.tolist()
['step', 'tag', 'value', 'dir_name']
"""

from __future__ import annotations

import os
import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from tbnb.compat.tbparse.events import events_of, scalar_order, tensor_scalars_note
from tbnb.compat.tbparse.helpers import TbparseHelpers
from tbnb.compat.tbparse.names import (
    ALL_EVENT_TYPES,
    AUDIO,
    HISTOGRAMS,
    HPARAMS,
    IMAGES,
    PLACE_LAST,
    SCALARS,
    TENSORS,
    TEXT,
    TEXT_SUFFIX,
    TYPE_ORDER,
)
from tbnb.compat.tbparse.tree import Dir, Event, File, check_options, read_log_path
from tbnb.compat.tbparse.values import (
    audio_value,
    histogram_value,
    image_value,
    merge_values,
    tensor_value,
)
from tbnb.warnings import TbnbWarning

__all__ = ["SummaryReader"]


# ---------------------------------------------------------------- the reader
class SummaryReader(TbparseHelpers):
    """tbparse 0.0.9's ``SummaryReader``, read by tbnb's loader.

    Parameters
    ----------
    log_path
        A directory of event files (searched recursively), or one event file. Local
        paths, and fsspec URLs (``s3://...``), which tbparse does not read. Several, as
        :func:`tbnb.load` takes them (``{name: path}`` or a list): each read below its
        name (``dir_name`` ``name/run``; a path not found warns, the others are read).
    pivot
        Wide frames (one column per tag, values of one step merged into lists) instead
        of long ones, exactly as tbparse.
    extra_columns
        A ``set`` from ``dir_name`` (the event file's directory relative to
        ``log_path``, ``''`` at the top), ``file_name`` (its base name),
        ``wall_time``, ``min``/``max``/``num``/``sum``/``sum_squares`` (histograms),
        ``width``/``height`` (images), ``content_type``/``length_frames``/
        ``sample_rate`` (audio).
    event_types
        A ``set`` of types to parse, from ``scalars``, ``tensors``, ``histograms``,
        ``images``, ``audio``, ``hparams``, ``text`` (default: all of them).

    Frames match tbparse's for the same files column for column: names, order,
    dtypes and row order, with these deliberate differences:

    - **TF2 scalars are in ``scalars``** (``tf.summary.scalar``, Keras, tensorboardX
      ``new_style``): rank-0 float tensors declared by the scalars plugin. tbparse
      puts them in ``tensors``.
    - **Speed**: the loader's decoders and a thread per event file (about ten times
      less CPU than tbparse for long frames; wide frames still merge each step's
      values in Python, as tbparse does).
    - Images are decoded with Pillow, as ``tf.image.decode_image`` decodes them, and
      audio with the standard library, as ``tf.audio.decode_wav``: TensorFlow is not
      needed, so ``images`` and ``audio`` are parsed by default (tbparse skips them
      without TensorFlow). Images are decoded only when :attr:`images` is read. The
      static helpers (``tensor_to_histogram``, ``tensor_to_image``, ``tensor_to_audio``,
      ``histogram_to_cdf``, ``histogram_to_pdf``, ``histogram_to_bins``,
      ``buckets_to_histogram_dict``) are tbparse's, the media ones without TensorFlow.
    - A ``SessionLog.START`` (``purge_step``) drops the file's earlier points of every
      kind with a step at or above it; TensorBoard's accumulator, hence tbparse,
      spares tensor-valued ones (text, PR curves).
    - ``event_types={'text'}`` without ``'tensors'`` gives every text event; tbparse
      keeps the last one per tag (its tensor reservoir then holds one item).
    - Only event files (``tfevents`` in the name) are read, and :attr:`children`
      lists only them and the directories holding them (tbparse lists every file).
    - Corrupt records are skipped with a warning and every good record kept (tbparse
      drops the rest of the file). ``raw_tags``/``raw_events`` (the accumulator's
      internals) are not provided.

    Examples
    --------
    >>> import tbnb
    >>> reader = tbnb.SummaryReader(tbnb.samples.sample_logdir(),
    ...                             extra_columns={"dir_name", "wall_time"})
    >>> reader.scalars.columns.tolist()
    ['step', 'tag', 'value', 'wall_time', 'dir_name']
    """

    def __init__(
        self,
        log_path: str | os.PathLike[str] | Any,
        *,
        pivot: bool = False,
        extra_columns: set[str] | None = None,
        event_types: set[str] | None = None,
    ) -> None:
        extra, types = check_options(extra_columns, event_types)
        self._pivot = pivot
        self._extra_columns = extra
        self._event_types = types
        self._cache: dict[str, pd.DataFrame] = {}
        self._log_path: str
        self._logdirs: dict[str, str]
        self._node: Dir | File
        self._log_path, self._logdirs, self._node = read_log_path(log_path, types)

    def _child(self, name: str, node: Dir | File) -> SummaryReader:
        return _Child(self, name, node)

    def __repr__(self) -> str:
        return f"SummaryReader(log_path='{self.log_path}')"

    def __getitem__(self, child_idx: str) -> SummaryReader:
        return self.children[child_idx]

    @property
    def log_path(self) -> str:
        """The directory or file this reader was given."""
        return self._log_path

    @property
    def children(self) -> dict[str, SummaryReader]:
        """A reader for each event file and event-holding directory directly below
        :attr:`log_path`, by name (views on the same loaded data: nothing is re-read)."""
        node = self._node
        if isinstance(node, File):
            return {}
        return {name: self._child(name, child) for name, child in node.children.items()}

    # ------------------------------------------------------------ tags
    @property
    def tags(self) -> dict[str, list[str]]:
        """``{event_type: [tags]}`` for every event type (raw tags, as tbparse)."""
        tags = self.get_tags()
        assert isinstance(tags, dict)
        return tags

    def get_tags(self, event_type: str | None = None) -> list[str] | dict[str, list[str]]:
        """Tags of one event type, or of all of them as a dict.

        Raises
        ------
        ValueError
            For an unknown event type.
        """
        if event_type is not None and event_type not in ALL_EVENT_TYPES:
            raise ValueError(f"Unknown event_type: {event_type}")
        types = [event_type] if event_type is not None else list(TYPE_ORDER)
        tags = {t: self._tags(self._node, t) for t in types}
        return tags[event_type] if event_type is not None else tags

    def _tags(self, node: Dir | File, event_type: str) -> list[str]:
        if isinstance(node, File):
            if event_type not in self._event_types:
                return []
            if event_type == SCALARS:
                return scalar_order(node.result)[0]
            return list(events_of(node, event_type))
        collected = [
            tag for child in node.children.values() for tag in self._tags(child, event_type)
        ]
        return list(dict.fromkeys(collected))

    # ------------------------------------------------------------ frames
    def get_events(self, event_type: str) -> pd.DataFrame:
        """All events of ``event_type`` under :attr:`log_path`, as one DataFrame.

        Raises
        ------
        ValueError
            For an unknown event type, or one left out of ``event_types``.
        """
        if event_type not in ALL_EVENT_TYPES:
            raise ValueError(f"Unknown event_type: {event_type}")
        if event_type not in self._event_types:
            raise ValueError(f"event_type is ignored by user: {event_type}")
        frame = self._cache.get(event_type)
        if frame is None:
            frame = self._cache[event_type] = self._stack(self._node, event_type)
            note = tensor_scalars_note(self._files()) if event_type == TENSORS else ""
            if note:  # tbparse users look for TF2 scalars here: say once where they are
                warnings.warn(note, TbnbWarning, stacklevel=3)
        return frame.copy(deep=False)

    def _files(self, node: Dir | File | None = None, path: str = "") -> list[tuple[str, File]]:
        node = self._node if node is None else node
        if isinstance(node, File):
            return [(path or node.name, node)]
        return [
            pair
            for name, child in node.children.items()
            for pair in self._files(child, f"{path}/{name}" if path else name)
        ]

    @property
    def scalars(self) -> pd.DataFrame:
        """Scalar events (``simple_value`` and TF2 scalars): step, tag, value."""
        return self.get_events(SCALARS)

    @property
    def tensors(self) -> pd.DataFrame:
        """Other tensor summaries: step, tag, value (a number or a numpy array)."""
        return self.get_events(TENSORS)

    @property
    def histograms(self) -> pd.DataFrame:
        """Legacy histograms: step, tag, counts, limits (raw bucket arrays)."""
        return self.get_events(HISTOGRAMS)

    @property
    def images(self) -> pd.DataFrame:
        """Images: step, tag, value (decoded uint8 array; needs Pillow)."""
        return self.get_events(IMAGES)

    @property
    def audio(self) -> pd.DataFrame:
        """Audio clips: step, tag, value (float32 ``(frames, channels)``)."""
        return self.get_events(AUDIO)

    @property
    def hparams(self) -> pd.DataFrame:
        """Hyperparameters of ``add_hparams``/``hp.hparams``: tag, value."""
        return self.get_events(HPARAMS)

    @property
    def text(self) -> pd.DataFrame:
        """Text summaries: step, tag (without ``/text_summary``), value."""
        return self.get_events(TEXT)

    # tbparse's stacking, level by level: concatenate the children's frames, prefix
    # dir_name, sort by (dir_name, file_name, tag, step) and in wide form merge the
    # values of one step. Kept literal: pandas' sort and groupby choices show in the
    # row order and dtypes, which must come out the same.
    def _stack(self, node: Dir | File, event_type: str) -> pd.DataFrame:
        group_columns: list[Any] = [
            c for c in ("dir_name", "file_name") if c in self._extra_columns
        ]
        dfs = []
        if isinstance(node, File):
            frame = node.frames.get(event_type)
            if frame is None:
                frame = node.frames[event_type] = self._leaf(node, event_type)
            dfs.append(frame.copy())
        else:
            for child in node.children.values():
                df = self._stack(child, event_type)
                if "dir_name" in df and isinstance(child, Dir):
                    cond = df["dir_name"] == ""
                    df.loc[cond, "dir_name"] = child.name
                    df.loc[~cond, "dir_name"] = child.name + "/" + df.loc[~cond, "dir_name"]
                dfs.append(df)
        if not dfs:
            return pd.DataFrame()
        stacked = pd.concat(dfs, ignore_index=True)
        if stacked.empty:
            return pd.DataFrame()
        if not self._pivot:
            group_columns.append("tag")
        group_columns.append("step")
        group_columns = [c for c in group_columns if c in stacked.columns]
        stacked = stacked.sort_values(group_columns, ignore_index=True)
        if not self._pivot:
            return stacked
        if not group_columns:
            group_columns = [True] * len(stacked)
        df = stacked.groupby(group_columns, sort=False).aggregate(merge_values)
        df = df.reset_index()
        middle = sorted(
            c for c in stacked.columns if c not in ("step", "wall_time", "dir_name", "file_name")
        )
        columns = [c for c in ["step", *middle, *PLACE_LAST] if c in stacked.columns]
        return df[columns]

    # ------------------------------------------------------------ one file's frames
    def _leaf(self, file: File, event_type: str) -> pd.DataFrame:
        if event_type == SCALARS:
            return self._scalar_frame(file)
        if event_type == HPARAMS:
            return self._hparam_frame(events_of(file, HPARAMS), file.name)
        events = events_of(file, event_type)
        if event_type == TEXT:
            events = {
                (t[: -len(TEXT_SUFFIX)] if t.endswith(TEXT_SUFFIX) else t): e
                for t, e in events.items()
            }
        convert = {
            TENSORS: tensor_value,
            TEXT: tensor_value,
            HISTOGRAMS: histogram_value,
            IMAGES: image_value,
            AUDIO: audio_value,
        }[event_type]
        return self._frame_from_events(
            events, file.name, convert, has_value=event_type != HISTOGRAMS
        )

    def _default_cols(
        self, events: dict[str, list[Event]], name: str, wall_time: bool = True
    ) -> dict[str, list[Any]]:
        length = sum(len(e) for e in events.values())
        cols: dict[str, list[Any]] = defaultdict(lambda: [np.nan] * length)
        if "dir_name" in self._extra_columns:
            cols["dir_name"] = [""] * length
        if "file_name" in self._extra_columns:
            cols["file_name"] = [name] * length
        if "wall_time" in self._extra_columns and wall_time:
            cols["wall_time"] = [e.wall_time for evs in events.values() for e in evs]
        return cols

    @staticmethod
    def _finish(cols: dict[str, Any]) -> pd.DataFrame:
        for column in PLACE_LAST:
            if column in cols:
                cols[column] = cols.pop(column)
        return pd.DataFrame.from_dict(cols)

    def _frame_from_events(
        self,
        events: dict[str, list[Event]],
        name: str,
        convert: Callable[[Any], tuple[Any, dict[str, Any]]],
        has_value: bool,
    ) -> pd.DataFrame:
        cols = self._default_cols(events, name)
        wanted = self._extra_columns if has_value else (self._extra_columns | {"limits", "counts"})
        idx = 0
        for tag, tag_events in events.items():
            for event in tag_events:
                value, columns = convert(event.data)
                cols["step"][idx] = event.step
                if not has_value:
                    if not self._pivot:
                        cols["tag"][idx] = tag
                elif self._pivot:
                    cols[tag][idx] = value
                else:
                    cols["tag"][idx] = tag
                    cols["value"][idx] = value
                for key, item in columns.items():
                    if key in wanted:
                        cols[key if not self._pivot else f"{tag}/{key}"][idx] = item
                idx += 1
        return self._finish(cols)

    def _hparam_frame(self, events: dict[str, list[Event]], name: str) -> pd.DataFrame:
        cols = self._default_cols(events, name, wall_time=False)
        for idx, (tag, (event,)) in enumerate(events.items()):
            if self._pivot:
                cols[tag][idx] = event.data[0]
            else:
                cols["tag"][idx] = tag
                cols["value"][idx] = event.data[0]
        return self._finish(cols)

    def _scalar_frame(self, file: File) -> pd.DataFrame:
        result = file.result
        tags, order, tag_index = scalar_order(result)
        n = len(order)
        if n == 0:
            return self._finish(self._default_cols({}, file.name))
        cols: dict[str, Any] = {}
        if "dir_name" in self._extra_columns:
            cols["dir_name"] = np.full(n, "", dtype=object)
        if "file_name" in self._extra_columns:
            cols["file_name"] = np.full(n, file.name, dtype=object)
        if "wall_time" in self._extra_columns:
            cols["wall_time"] = result.wall_time[order]
        cols["step"] = result.step[order]
        values = result.value[order]
        if self._pivot:
            for i, tag in enumerate(tags):
                column = np.full(n, np.nan)
                mask = tag_index == i
                column[mask] = values[mask]
                cols[tag] = column
        else:
            names = np.empty(len(tags), dtype=object)
            names[:] = tags
            cols["tag"] = names[tag_index]
            cols["value"] = values
        return self._finish(cols)


class _Child(SummaryReader):
    """A reader of one child (a directory or an event file) of a reader: its part of the
    tree already read, the parent's options."""

    def __init__(self, parent: SummaryReader, name: str, node: Dir | File) -> None:
        self._log_path = parent._logdirs.get(name) or os.path.join(parent._log_path, name)
        self._logdirs = {}
        self._pivot = parent._pivot
        self._extra_columns = parent._extra_columns
        self._event_types = parent._event_types
        self._node = node
        self._cache = {}
