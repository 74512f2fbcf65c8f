"""A drop-in for tbparse 0.0.9's ``SummaryReader``, built on the tbnb loader (layer 4).

tbparse reads every event file on its own (one ``EventAccumulator`` per file) and
stacks the per-file frames directory by directory, sorting at each level. This module
reproduces that shape exactly (columns, their order, dtypes and row order) from the
normalised values the loader decodes (:func:`tbnb.runload.load_run`, one task per
event file, run in parallel), so that a tbparse user switches by changing an import.

Examples
--------
>>> import tbnb
>>> reader = tbnb.SummaryReader("runs/", extra_columns={"dir_name"})   # doctest: +SKIP
>>> reader.scalars.columns.tolist()                                  # doctest: +SKIP
['step', 'tag', 'value', 'dir_name']
"""

from __future__ import annotations

import io
import os
import posixpath
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from fsspec.core import url_to_fs
from fsspec.implementations.local import LocalFileSystem

from tbnb._proto import HParamsPluginData
from tbnb.discovery import find_runs
from tbnb.normalize import (
    AUDIO,
    CUSTOM_SCALARS,
    GRAPHS,
    HISTOGRAMS,
    HPARAMS,
    IMAGES,
    PR_CURVE_ROWS,
    PR_CURVES,
    SCALARS,
    TENSORS,
    TEXT,
    TagMetadata,
)
from tbnb.runload import FileState, LoadOptions, RunResult, RunTask, load_run

# tbparse's names, in the order of its per-type dictionaries (``_make_empty_dict``).
_TYPE_ORDER = (IMAGES, AUDIO, HISTOGRAMS, SCALARS, TENSORS, HPARAMS, TEXT)
ALL_EVENT_TYPES = frozenset(_TYPE_ORDER)
"""Event types a :class:`SummaryReader` can parse."""
ALL_EXTRA_COLUMNS = frozenset({
    "dir_name", "file_name", "wall_time", "min", "max", "num", "sum", "sum_squares",
    "width", "height", "content_type", "length_frames", "sample_rate"})
"""Extra columns a :class:`SummaryReader` can add."""

_TEXT_SUFFIX = "/text_summary"  # torch and tensorboardX append it to text tags
_SSI_TAG = "_hparams_/session_start_info"
_PLACE_LAST = ("wall_time", "dir_name", "file_name")

# Loader kinds needed for each tbparse event type. tbparse's ``tensors`` holds every
# tensor-valued summary that is not text or hparams: PR curves, custom-scalar layouts,
# Keras graphs, meshes and the tensor forms of TF2 histograms, images and audio.
_KINDS = {
    SCALARS: {SCALARS},
    TENSORS: {TENSORS, PR_CURVES, CUSTOM_SCALARS, GRAPHS, HISTOGRAMS, IMAGES, AUDIO},
    HISTOGRAMS: {HISTOGRAMS},
    IMAGES: {IMAGES},
    AUDIO: {AUDIO},
    HPARAMS: {HPARAMS},
    TEXT: {TEXT},
}


class _Event(NamedTuple):
    step: int
    wall_time: float
    data: Any


@dataclass
class _File:
    """One event file: what the loader read from it, and its per-type frames."""

    name: str
    result: RunResult
    frames: dict[str, pd.DataFrame] = field(default_factory=dict)
    grouped: dict[str, dict[str, list[_Event]]] = field(default_factory=dict)


@dataclass
class _Dir:
    """A directory holding event files somewhere below it."""

    name: str
    children: dict[str, _Dir | _File] = field(default_factory=dict)


def _check_options(extra_columns: Any, event_types: Any) -> tuple[set[str], set[str]]:
    """Validate as tbparse does (same exception types and messages)."""
    extra = extra_columns or set()
    if not isinstance(extra, set):
        raise ValueError(f"`columns` should be a {set} instead of {type(extra)!s}")
    diff = extra - ALL_EXTRA_COLUMNS
    if diff:
        raise KeyError(f"Invalid columns entries: {diff}")
    types = event_types or set(ALL_EVENT_TYPES)
    if not isinstance(types, set):
        raise ValueError(f"`event_types` should be a {set} instead of {type(types)!s}")
    diff = types - ALL_EVENT_TYPES
    if diff:
        raise KeyError(f"Invalid event types: {diff}")
    return set(extra), set(types)


def _open(log_path: str) -> tuple[Any, str]:
    text = os.fspath(log_path)
    if "://" in text or "::" in text:
        fs, path = url_to_fs(text)
        return fs, path.rstrip("/") or "/"
    fs = LocalFileSystem()
    return fs, fs._strip_protocol(os.path.abspath(os.path.expanduser(text)))


def _load(fs: Any, path: str, types: set[str]) -> _Dir | _File:
    """Load every event file under ``path`` (or the file ``path``) into a tree."""
    options = LoadOptions(kinds=frozenset().union(*(_KINDS[t] for t in types)))
    files: list[tuple[tuple[str, ...], str]]
    if not fs.isdir(path):
        files = [((posixpath.basename(path),), path)]
    else:
        files = []
        for run, paths in find_runs(fs, path).items():
            parts = () if run == "." else tuple(run.split("/"))
            files += [((*parts, posixpath.basename(p)), p) for p in paths]
    tasks = [RunTask(run="/".join(parts[:-1]) or ".", fs=fs, files=[FileState(path=p, rank=0)],
                     tag_meta={}, options=options) for parts, p in files]
    workers = min(os.cpu_count() or 1, len(tasks))
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(load_run, tasks))
    else:
        results = [load_run(t) for t in tasks]
    root = _Dir(name="")
    for (parts, _), result in zip(files, results, strict=True):
        for category, message in result.warnings:
            warnings.warn(message, category, stacklevel=3)
        node = root
        part: str
        for part in parts[:-1]:
            child = node.children.setdefault(part, _Dir(name=part))
            assert isinstance(child, _Dir)
            node = child
        node.children[parts[-1]] = _File(name=parts[-1], result=result)
    if not fs.isdir(path):
        return root.children[files[0][0][0]]
    _sort_tree(root)
    return root


def _sort_tree(node: _Dir) -> None:
    """Order children by name at every level, as tbparse walks ``sorted(os.listdir())``."""
    node.children = dict(sorted(node.children.items()))
    for child in node.children.values():
        if isinstance(child, _Dir):
            _sort_tree(child)


# ---------------------------------------------------------------- normalised -> events
def _meta(result: RunResult, tag: str) -> TagMetadata:
    return result.tag_meta.get(tag) or TagMetadata()


def _is_tensor_form(kind: str, result: RunResult, tag: str) -> bool:
    """Whether values of ``tag`` came from TF2 tensors rather than legacy proto fields.

    Legacy ``histo``/``image``/``audio`` values never carry plugin metadata; TF2 tensors
    always declare their plugin on the first event of a tag in a file.
    """
    return _meta(result, tag).plugin_name == kind


def _by_tag(rows: Iterable[tuple[str, int, _Event]]) -> dict[str, list[_Event]]:
    """Group events by tag, tags in order of first appearance, events in stream order."""
    grouped: dict[str, list[_Event]] = {}
    for tag, _, event in sorted(rows, key=lambda r: r[1]):
        grouped.setdefault(tag, []).append(event)
    return grouped


def _rows(result: RunResult, kind: str) -> list[dict[str, Any]]:
    return result.records.get(kind, [])


def _tensor_rows(result: RunResult) -> Iterator[tuple[str, int, _Event]]:
    """Every tensor-valued summary tbparse puts in ``tensors``, as its numpy value."""
    def event(row: dict[str, Any], value: Any) -> tuple[str, int, _Event]:
        if isinstance(value, np.ndarray) and value.shape == ():
            value = value.item()
        return row["tag"], row["seq"], _Event(row["step"], row["wall_time"], value)

    for row in _rows(result, TENSORS):
        yield event(row, row["value"])
    for row in _rows(result, PR_CURVES):
        yield event(row, np.stack([row[name] for name in PR_CURVE_ROWS]).astype(np.float32))
    for row in _rows(result, CUSTOM_SCALARS):
        yield event(row, row["layout"])
    for row in _rows(result, GRAPHS):
        yield event(row, row["value"])
    for row in _rows(result, HISTOGRAMS):
        if _is_tensor_form(HISTOGRAMS, result, row["tag"]):
            edges = np.asarray(row["edges"], dtype=np.float64)
            yield event(row, np.stack([edges[:-1], row["limits"], row["bucket"]], axis=1)
                        .reshape(-1, 3))
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


def _events(file: _File, event_type: str) -> dict[str, list[_Event]]:
    """The events of one type in a file, by tag, as tbparse's accumulator holds them."""
    cached = file.grouped.get(event_type)
    if cached is not None:
        return cached
    result = file.result
    rows: Iterable[tuple[str, int, _Event]]
    if event_type == TENSORS:
        rows = _tensor_rows(result)
    elif event_type == TEXT:
        rows = ((r["tag"], r["seq"], _Event(r["step"], r["wall_time"], r["text"]))
                for r in _rows(result, TEXT))
    elif event_type in (HISTOGRAMS, IMAGES, AUDIO):
        rows = ((r["tag"], r["seq"], _Event(r["step"], r["wall_time"], r))
                for r in _rows(result, event_type)
                if not _is_tensor_form(event_type, result, r["tag"]))
    elif event_type == HPARAMS:
        rows = []
        for tag, _, content in result.hparams_values:
            if tag == _SSI_TAG:
                info = HParamsPluginData.FromString(content).session_start_info
                rows = [(name, 0, _Event(0, 0.0, [info.hparams[name].ListFields()[0][1]]))
                        for name in info.hparams]
                break
    else:
        raise AssertionError(event_type)
    grouped = file.grouped[event_type] = _by_tag(rows)
    return grouped


def _scalar_order(result: RunResult) -> tuple[list[str], np.ndarray, np.ndarray]:
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


# ---------------------------------------------------------------- decoding (as tf.io does)
def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - exercised only without Pillow
        raise ImportError(
            "tbnb.SummaryReader decodes images to numpy arrays with Pillow, which is not "
            "installed: `pip install pillow`, or leave 'images' out of event_types (the "
            "encoded bytes are in tbnb.load(...).images without Pillow)") from None
    return Image


def decode_image(data: bytes) -> np.ndarray:
    """Decode an encoded image as ``tf.image.decode_image`` does (needs Pillow).

    PNG and JPEG give a ``(height, width, channels)`` uint8 array with the file's own
    channels (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA; palettes expand to RGB(A), 16-bit
    samples keep their high byte); a GIF gives ``(frames, height, width, 3)``.

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> buf = io.BytesIO()
    >>> Image.new("RGB", (3, 2), (255, 0, 0)).save(buf, format="PNG")
    >>> decode_image(buf.getvalue()).shape
    (2, 3, 3)
    """
    image_module = _pillow()
    from PIL import ImageSequence

    with image_module.open(io.BytesIO(data)) as opened:
        if opened.format == "GIF":
            return np.stack([np.asarray(frame.convert("RGB"))
                             for frame in ImageSequence.Iterator(opened)])
        mode, image = opened.mode, opened
        if mode == "P":
            image = opened.convert("RGBA" if "transparency" in opened.info else "RGB")
        elif mode == "1":
            image = opened.convert("L")
        elif mode in ("PA", "CMYK", "YCbCr", "LAB", "HSV"):
            image = opened.convert("RGBA" if mode == "PA" else "RGB")
        array: np.ndarray = np.asarray(image)
    if array.dtype != np.uint8:  # 16-bit grey ("I;16", "I")
        array = (array.astype(np.uint32) >> 8).astype(np.uint8)
    return array[..., None] if array.ndim == 2 else array


def decode_wav(data: bytes) -> np.ndarray:
    """Decode 16-bit PCM WAV as ``tf.audio.decode_wav`` does: float32 ``(frames, channels)``
    in [-1, 1).

    Examples
    --------
    >>> import io, wave
    >>> buf = io.BytesIO()
    >>> with wave.open(buf, "wb") as w:
    ...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
    ...     w.writeframes(np.array([0, 16384, -32768], "<i2").tobytes())
    >>> decode_wav(buf.getvalue()).ravel().tolist()
    [0.0, 0.5, -1.0]
    """
    import wave

    with wave.open(io.BytesIO(data), "rb") as clip:
        if clip.getsampwidth() != 2:
            raise ValueError(f"can only decode 16-bit WAV, got {8 * clip.getsampwidth()}-bit")
        channels = clip.getnchannels()
        frames = clip.readframes(clip.getnframes())
    samples: np.ndarray = np.frombuffer(frames, dtype="<i2").astype(np.float32) / np.float32(32768)
    return samples.reshape(-1, channels)


def tensor_to_histogram(tensor: np.ndarray) -> dict[str, Any]:
    """Convert a TF2 ``[k, 3]`` histogram tensor (left, right, count) as tbparse does.

    Examples
    --------
    >>> d = tensor_to_histogram(np.array([[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]))
    >>> d["limits"].tolist(), d["counts"].tolist(), float(d["num"])
    ([0.0, 1.0, 2.0], [0.0, 2.0, 3.0], 5.0)
    """
    limits = [tensor[0][0], *(row[1] for row in tensor)]
    counts = [0, *(row[2] for row in tensor)]
    return {"limits": np.array(limits), "counts": np.array(counts), "min": limits[0],
            "max": limits[-1], "num": np.sum(counts), "sum": np.nan, "sum_squares": np.nan}


# ---------------------------------------------------------------- the reader
class SummaryReader:
    """tbparse 0.0.9's ``SummaryReader``, read by tbnb's loader.

    Parameters
    ----------
    log_path
        A directory of event files (searched recursively), or one event file. Local
        paths, and fsspec URLs (``s3://...``), which tbparse does not read.
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
    - **Speed**: the loader's compiled decoder and a thread per event file (about ten
      times less CPU than tbparse for long frames; wide frames still merge each step's
      values in Python, as tbparse does).
    - Images are decoded with Pillow, as ``tf.image.decode_image`` decodes them, and
      audio with the standard library, as ``tf.audio.decode_wav``: TensorFlow is not
      needed, so ``images`` and ``audio`` are parsed by default (tbparse skips them
      without TensorFlow). Images are decoded only when :attr:`images` is read.
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
    >>> reader = tbnb.SummaryReader(tbnb.samples.sample_logdir(),     # doctest: +SKIP
    ...                             extra_columns={"dir_name", "wall_time"})
    >>> reader.scalars.head()                                          # doctest: +SKIP
    """

    def __init__(self, log_path: str, *, pivot: bool = False,
                 extra_columns: set[str] | None = None,
                 event_types: set[str] | None = None) -> None:
        extra, types = _check_options(extra_columns, event_types)
        fs, path = _open(log_path)
        if not fs.exists(path):
            raise ValueError(f"File or directory not found: {log_path}")
        self._log_path = log_path
        self._pivot = pivot
        self._extra_columns = extra
        self._event_types = types
        self._node: _Dir | _File = _load(fs, path, types)
        self._cache: dict[str, pd.DataFrame] = {}

    def _child(self, name: str, node: _Dir | _File) -> SummaryReader:
        child = object.__new__(SummaryReader)
        child._log_path = os.path.join(self._log_path, name)
        child._pivot = self._pivot
        child._extra_columns = self._extra_columns
        child._event_types = self._event_types
        child._node = node
        child._cache = {}
        return child

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
        if isinstance(node, _File):
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
        types = [event_type] if event_type is not None else list(_TYPE_ORDER)
        tags = {t: self._tags(self._node, t) for t in types}
        return tags[event_type] if event_type is not None else tags

    def _tags(self, node: _Dir | _File, event_type: str) -> list[str]:
        if isinstance(node, _File):
            if event_type not in self._event_types:
                return []
            if event_type == SCALARS:
                return _scalar_order(node.result)[0]
            return list(_events(node, event_type))
        collected = [tag for child in node.children.values()
                     for tag in self._tags(child, event_type)]
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
        return frame.copy(deep=False)

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

    @staticmethod
    def tensor_to_histogram(tensor: np.ndarray) -> dict[str, Any]:
        """See :func:`tensor_to_histogram`."""
        return tensor_to_histogram(tensor)

    # tbparse's stacking, level by level: concatenate the children's frames, prefix
    # dir_name, sort by (dir_name, file_name, tag, step) and in wide form merge the
    # values of one step. Kept literal: pandas' sort and groupby choices show in the
    # row order and dtypes, which must come out the same.
    def _stack(self, node: _Dir | _File, event_type: str) -> pd.DataFrame:
        group_columns: list[Any] = [c for c in ("dir_name", "file_name")
                                    if c in self._extra_columns]
        dfs = []
        if isinstance(node, _File):
            frame = node.frames.get(event_type)
            if frame is None:
                frame = node.frames[event_type] = self._leaf(node, event_type)
            dfs.append(frame.copy())
        else:
            for child in node.children.values():
                df = self._stack(child, event_type)
                if "dir_name" in df and isinstance(child, _Dir):
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
        df = stacked.groupby(group_columns, sort=False).aggregate(_merge_values)
        df = df.reset_index()
        middle = sorted(c for c in stacked.columns
                        if c not in ("step", "wall_time", "dir_name", "file_name"))
        columns = [c for c in ["step", *middle, *_PLACE_LAST] if c in stacked.columns]
        return df[columns]

    # ------------------------------------------------------------ one file's frames
    def _leaf(self, file: _File, event_type: str) -> pd.DataFrame:
        if event_type == SCALARS:
            return self._scalar_frame(file)
        if event_type == HPARAMS:
            return self._hparam_frame(_events(file, HPARAMS), file.name)
        events = _events(file, event_type)
        if event_type == TEXT:
            events = {(t[:-len(_TEXT_SUFFIX)] if t.endswith(_TEXT_SUFFIX) else t): e
                      for t, e in events.items()}
        convert = {TENSORS: _tensor_value, TEXT: _tensor_value, HISTOGRAMS: _histogram_value,
                   IMAGES: _image_value, AUDIO: _audio_value}[event_type]
        return self._frame_from_events(events, file.name, convert,
                                       has_value=event_type != HISTOGRAMS)

    def _default_cols(self, events: dict[str, list[_Event]], name: str,
                      wall_time: bool = True) -> dict[str, list[Any]]:
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
        for column in _PLACE_LAST:
            if column in cols:
                cols[column] = cols.pop(column)
        return pd.DataFrame.from_dict(cols)

    def _frame_from_events(self, events: dict[str, list[_Event]], name: str,
                           convert: Callable[[Any], tuple[Any, dict[str, Any]]],
                           has_value: bool) -> pd.DataFrame:
        cols = self._default_cols(events, name)
        wanted = self._extra_columns if has_value else (self._extra_columns
                                                        | {"limits", "counts"})
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

    def _hparam_frame(self, events: dict[str, list[_Event]], name: str) -> pd.DataFrame:
        cols = self._default_cols(events, name, wall_time=False)
        for idx, (tag, (event,)) in enumerate(events.items()):
            if self._pivot:
                cols[tag][idx] = event.data[0]
            else:
                cols["tag"][idx] = tag
                cols["value"][idx] = event.data[0]
        return self._finish(cols)

    def _scalar_frame(self, file: _File) -> pd.DataFrame:
        result = file.result
        tags, order, tag_index = _scalar_order(result)
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


def _tensor_value(data: Any) -> tuple[Any, dict[str, Any]]:
    return data, {}


def _histogram_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return None, {
        "counts": np.asarray(row["bucket"], dtype=np.float64),
        "limits": np.asarray(row["limits"], dtype=np.float64),
        "max": row["max"], "min": row["min"], "num": row["num"], "sum": row["sum"],
        "sum_squares": row["sum_squares"],
    }


def _image_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return decode_image(row["blob"].read()), {"height": row["height"], "width": row["width"]}


def _audio_value(row: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    return decode_wav(row["blob"].read()), {
        "content_type": row["content_type"], "length_frames": row["length_frames"],
        "sample_rate": row["sample_rate"]}


def _merge_values(s: pd.Series) -> Any:
    """tbparse's merge of the values of one step in wide frames: NaNs dropped, the
    rest concatenated (lists flattened), a single value unwrapped."""
    if len(s) == 1:
        return s.iloc[0]  # tbparse returns ``s``, which pandas unwraps to this
    merged: list[Any] = []
    for item in s:
        if isinstance(item, list):
            merged.extend(item)
        elif np.isscalar(item):
            if not pd.isna(item):
                merged.append(item)
        else:
            merged.append(item)
    if not merged:
        return np.nan
    if len(merged) == 1:
        return merged[0]
    return merged
