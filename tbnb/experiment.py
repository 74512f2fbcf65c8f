"""Load a logdir into tidy DataFrames, and keep it up to date (layer 4).

Examples
--------
>>> import tbnb
>>> exp = tbnb.load("runs/")                     # doctest: +SKIP
>>> exp.scalars.groupby(["run", "tag"]).value.last()   # doctest: +SKIP
>>> report = exp.reload()                        # only the bytes written since  # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from tbnb.discovery import find_runs, is_add_hparams_subrun, open_logdir
from tbnb.embeddings import list_embeddings, read_embedding
from tbnb.frames import COLUMNS, histogram_percentiles, records_frame
from tbnb.normalize import (
    AUDIO,
    CUSTOM_SCALARS,
    EVENT_TYPES,
    GRAPHS,
    HISTOGRAMS,
    IMAGES,
    PR_CURVES,
    SCALARS,
    TENSORS,
    TEXT,
    TagMetadata,
)
from tbnb.runload import (
    FileState,
    LoadOptions,
    RunResult,
    RunTask,
    decoder_ready,
    load_run,
    warm_decoder,
)
from tbnb.scalar_store import MIN_BYTES_PER_POINT, ScalarStore

RunFilter = str | Sequence[str] | Callable[[str], bool] | None

COLD_PROTOBUF_BYTES = 32 << 20
"""Up to this many unread bytes, a load decodes with protobuf while the compiled
decoder is not compiled yet (about 8 s of protobuf at worst, against a compile of
tens of seconds)."""


@dataclass
class ReloadReport:
    """What a load or :meth:`Experiment.reload` found."""

    new_runs: list[str] = field(default_factory=list)
    new_files: list[str] = field(default_factory=list)
    bytes_read: int = 0
    scalars_added: int = 0
    values_added: dict[str, int] = field(default_factory=dict)
    points_purged: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether anything new was read."""
        return bool(self.new_runs or self.new_files or self.scalars_added
                    or any(self.values_added.values()) or self.points_purged)

    def __str__(self) -> str:
        parts = [f"{self.scalars_added} scalar points"]
        parts += [f"{n} {kind}" for kind, n in sorted(self.values_added.items()) if n]
        if self.new_runs:
            parts.append(f"{len(self.new_runs)} new runs")
        if self.new_files:
            parts.append(f"{len(self.new_files)} new files")
        if self.points_purged:
            parts.append(f"{self.points_purged} points dropped by restarts")
        if self.problems:
            parts.append(f"{len(self.problems)} problems")
        return f"read {self.bytes_read} bytes: " + ", ".join(parts)


def _run_matcher(runs: RunFilter) -> Callable[[str], bool]:
    if runs is None:
        return lambda run: True
    if callable(runs):
        return runs
    if isinstance(runs, str):
        try:
            pattern = re.compile(runs)
        except re.error as error:
            raise ValueError(f"runs={runs!r} is not a valid regular expression: {error}") from None
        return lambda run: pattern.search(run) is not None
    wanted = set(runs)
    return lambda run: run in wanted


def _tag_option(tags: str | Sequence[str] | None) -> str | tuple[str, ...] | None:
    if tags is None:
        return None
    if isinstance(tags, str):
        try:
            re.compile(tags)
        except re.error as error:
            raise ValueError(f"tags={tags!r} is not a valid regular expression: {error}") from None
        return tags
    return tuple(tags)


def _kinds(event_types: Iterable[str] | None) -> frozenset[str]:
    if event_types is None:
        return EVENT_TYPES
    if isinstance(event_types, str):
        event_types = {event_types}
    kinds = frozenset(event_types)
    unknown = kinds - EVENT_TYPES
    if unknown:
        raise ValueError(f"unknown event_types {sorted(unknown)}; "
                         f"choose from {sorted(EVENT_TYPES)}")
    return kinds


class Experiment:
    """Everything in a logdir, as DataFrames; :meth:`reload` reads only what is new.

    Use :func:`tbnb.load` to create one.
    """

    def __init__(self, logdir: str | os.PathLike[str], *, runs: RunFilter = None,
                 tags: str | Sequence[str] | None = None,
                 event_types: Iterable[str] | None = None, executor: Executor | None = None,
                 verify_crc: bool = True, progress: bool | None = None,
                 storage_options: dict[str, Any] | None = None, fast: bool = True) -> None:
        self.logdir = str(logdir)
        self.fs, self.root = open_logdir(logdir, storage_options)
        self._keep_run = _run_matcher(runs)
        self._options = LoadOptions(tags=_tag_option(tags), kinds=_kinds(event_types),
                                    verify_crc=verify_crc, fast=fast)
        self._executor = executor
        self._progress = progress
        self._files: dict[str, list[FileState]] = {}
        self._tag_meta: dict[str, dict[str, TagMetadata]] = {}
        self._store: ScalarStore | None = None
        self._records: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(
            lambda: defaultdict(list))
        self._hparams_values: list[tuple[str, str, int, bytes]] = []
        self._graphs: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._cache: dict[str, Any] = {}
        self.last_report = self.reload()

    def __repr__(self) -> str:
        n = self._store.n if self._store else 0
        return f"<tbnb.Experiment {self.logdir!r}: {len(self.runs)} runs, {n} scalar points>"

    # ------------------------------------------------------------------ loading
    def reload(self) -> ReloadReport:
        """Read what was written since the last load: new bytes, new files, new runs.

        Returns
        -------
        ReloadReport
            What changed. Problems (corrupt records, unreadable files) are also
            issued as warnings naming the file.
        """
        report = ReloadReport()
        tasks = self._plan(report)
        tasks = self._choose_decoder(tasks)
        if self._store is None:
            capacity = sum(self._unread_bytes(t) for t in tasks) // MIN_BYTES_PER_POINT
            self._store = ScalarStore(capacity=capacity,
                                      runs=[t.run for t in tasks] if SCALARS in self._options.kinds
                                      else [])
        for result in self._run_tasks(tasks):
            self._absorb(result, report)
        if report.changed or report.bytes_read:
            self._cache.clear()  # hparams or metadata may have changed with no new points
        self.last_report = report
        return report

    def _plan(self, report: ReloadReport) -> list[RunTask]:
        tasks = []
        for run, paths in find_runs(self.fs, self.root).items():
            if not self._wanted(run):
                continue
            states = self._files.get(run)
            if states is None:
                states = self._files[run] = []
                self._tag_meta[run] = {}
                report.new_runs.append(run)
            known = {s.path for s in states}
            for path in paths:
                if path not in known:
                    states.append(FileState(path=path, rank=len(states)))
                    report.new_files.append(path)
            tasks.append(RunTask(run=run, fs=self.fs, files=states,
                                 tag_meta=self._tag_meta[run], options=self._options))
        return tasks

    def _choose_decoder(self, tasks: list[RunTask]) -> list[RunTask]:
        """Decode a small load with protobuf while the compiled decoder is still cold.

        Compiling it takes tens of seconds once per install; protobuf decodes a few
        megabytes faster than that, and both give identical frames. The compiler
        runs in the background meanwhile, for the next (re)load.
        """
        if not self._options.fast or decoder_ready():
            return tasks
        warm_decoder()
        if sum(self._unread_bytes(t) for t in tasks) > COLD_PROTOBUF_BYTES:
            return tasks
        slow = replace(self._options, fast=False)
        return [replace(t, options=slow) for t in tasks]

    def _wanted(self, run: str) -> bool:
        """Whether the run filter keeps ``run``.

        The sub-run torch and tensorboardX ``add_hparams`` write (``<run>/<time.time()>``)
        goes with its parent, so filtering runs never separates a run from its hparams.
        """
        if self._keep_run(run):
            return True
        return is_add_hparams_subrun(run) and self._keep_run(run.rpartition("/")[0])

    def _unread_bytes(self, task: RunTask) -> int:
        total = 0
        for state in task.files:
            try:
                total += max(int(self.fs.size(state.path)) - state.offset, 0)
            except OSError:
                continue
        return total

    def _run_tasks(self, tasks: list[RunTask]) -> Iterator[RunResult]:
        if not tasks:
            return iter(())
        total = sum(self._unread_bytes(t) for t in tasks)
        bar = None
        if self._progress is not False:
            from tqdm.auto import tqdm

            bar = tqdm(total=total, unit="B", unit_scale=True, desc="tbnb.load",
                       delay=0.0 if self._progress else 1.0, leave=False)
        executor = self._executor
        own = None
        if executor is None and len(tasks) > 1 and (os.cpu_count() or 1) > 1:
            own = executor = ThreadPoolExecutor(max_workers=min(os.cpu_count() or 1, len(tasks)))

        def results() -> Iterator[RunResult]:
            try:
                stream = executor.map(load_run, tasks) if executor else map(load_run, tasks)
                for result in stream:
                    if bar is not None:
                        bar.update(result.bytes_read)
                    yield result
            finally:
                if own is not None:
                    own.shutdown(wait=True)
                if bar is not None:
                    bar.close()

        return results()

    def _absorb(self, result: RunResult, report: ReloadReport) -> None:
        run = result.run
        self._files[run] = result.files
        self._tag_meta[run] = result.tag_meta
        report.bytes_read += result.bytes_read
        for category, message in result.warnings:
            report.problems.append(message)
            warnings.warn(message, category, stacklevel=4)
        store = self._store
        assert store is not None
        if result.starts:  # everything stored for this run came before these restarts
            min_step = min(step for _, step in result.starts)
            report.points_purged += store.purge(run, min_step)
            for kind, rows in self._records[run].items():
                kept = [r for r in rows if r["step"] < min_step]
                report.points_purged += len(rows) - len(kept)
                self._records[run][kind] = kept
        report.scalars_added += result.num_scalars
        store.append(run, result.scalar_tags, result.scalar_pieces)
        for kind, rows in result.records.items():
            self._records[run][kind].extend(rows)
            report.values_added[kind] = report.values_added.get(kind, 0) + len(rows)
        for tag, step, content in result.hparams_values:
            self._hparams_values.append((run, tag, step, content))
        if result.hparams_values:
            report.values_added["hparams"] = (report.values_added.get("hparams", 0)
                                              + len(result.hparams_values))
        self._graphs[run].extend(result.graphs)

    # ------------------------------------------------------------------ frames
    def _frame(self, kind: str) -> pd.DataFrame:
        frame = self._cache.get(kind)
        if frame is None:
            frame = self._cache[kind] = records_frame(
                kind, {run: kinds.get(kind, []) for run, kinds in self._records.items()})
        return frame.copy(deep=False)

    @property
    def scalars(self) -> pd.DataFrame:
        """Scalar points: run, tag, step, wall_time, value (TF2 tensor scalars included)."""
        assert self._store is not None
        return self._store.frame()

    @property
    def histograms(self) -> pd.DataFrame:
        """Histograms: run, tag, step, wall_time, edges (k+1), counts (k), min, max, num, ..."""
        return self._frame(HISTOGRAMS)

    @property
    def distributions(self) -> pd.DataFrame:
        """TensorBoard's distribution percentiles of every histogram.

        See :func:`tbnb.histogram_percentiles`.
        """
        return histogram_percentiles(self.histograms)

    @property
    def images(self) -> pd.DataFrame:
        """Images: one row per sample, metadata columns and a lazy ``blob`` (``.read()``)."""
        return self._frame(IMAGES)

    @property
    def audio(self) -> pd.DataFrame:
        """Audio clips: one row per sample, metadata columns and a lazy ``blob``."""
        return self._frame(AUDIO)

    @property
    def text(self) -> pd.DataFrame:
        """Text summaries: run, tag, step, wall_time, text (str, or an array for rank > 0)."""
        return self._frame(TEXT)

    @property
    def pr_curves(self) -> pd.DataFrame:
        """PR curves: one row per (run, tag, step) with threshold/precision/recall/... arrays."""
        return self._frame(PR_CURVES)

    @property
    def tensors(self) -> pd.DataFrame:
        """Every other tensor summary: value (numpy array), dtype, shape, plugin."""
        return self._frame(TENSORS)

    @property
    def graphs(self) -> pd.DataFrame:
        """Graphs and run metadata written to the event files (kind, tag, step, size)."""
        frame = records_frame(GRAPHS, self._graphs)
        frame["kind"] = frame["kind"].astype(str)
        return frame

    @property
    def custom_scalars(self) -> dict[str, bytes]:
        """The custom-scalars layout (a serialized ``Layout``) written by each run."""
        return {run: rows[-1]["layout"] for run, kinds in self._records.items()
                if (rows := kinds.get(CUSTOM_SCALARS))}

    @property
    def hparams(self) -> pd.DataFrame:
        """One row per run: hparam columns, then final-metric columns."""
        frame = self._cache.get("hparams")
        if frame is None:
            from tbnb.hparams_discovery import hparams_frame

            frame = self._cache["hparams"] = hparams_frame(self)
        return frame.copy(deep=False)

    @property
    def embeddings(self) -> pd.DataFrame:
        """Embeddings declared in ``projector_config.pbtxt`` files (one row each; vectors lazy)."""
        frame = self._cache.get("embeddings")
        if frame is None:
            frame = self._cache["embeddings"] = list_embeddings(self.fs, self.root)
        return frame.copy(deep=False)

    def embedding(self, which: int | str = 0) -> tuple[np.ndarray, pd.DataFrame]:
        """Return ``(vectors, metadata)`` of an embedding, by row number or name.

        Examples
        --------
        >>> vectors, labels = exp.embedding("features:00010")   # doctest: +SKIP
        """
        table = self.embeddings
        if isinstance(which, str):
            matches = table.index[table["name"] == which]
            if len(matches) == 0:
                raise KeyError(f"no embedding named {which!r}; have {table['name'].tolist()}")
            which = int(matches[-1])
        return read_embedding(self.fs, table.iloc[which])

    @property
    def hparams_values(self) -> list[tuple[str, str, int, bytes]]:
        """(run, tag, step, content) of every hparams-plugin summary value."""
        return list(self._hparams_values)

    def run_path(self, run: str) -> str:
        """The directory of ``run``, as a path (or URL path) on :attr:`fs`."""
        return self.root if run == "." else f"{self.root.rstrip('/')}/{run}"

    # ------------------------------------------------------------------ overview
    @property
    def runs(self) -> list[str]:
        """Run names (relative to the logdir, ``.`` for the logdir itself), sorted."""
        return sorted(self._files)

    @property
    def tags(self) -> pd.DataFrame:
        """One row per (run, tag, kind): plugin, count, first and last step."""
        parts = []
        scalars = self.scalars
        if len(scalars):
            g = scalars.groupby(["run", "tag"], observed=True)["step"].agg(["count", "min", "max"])
            g = g.reset_index().assign(kind=SCALARS)
            parts.append(g)
        for kind in COLUMNS:
            if kind == GRAPHS:
                continue
            frame = self._frame(kind)
            if len(frame):
                g = frame.groupby(["run", "tag"], observed=True)["step"].agg(
                    ["count", "min", "max"])
                parts.append(g.reset_index().assign(kind=kind))
        if not parts:
            return pd.DataFrame(columns=["run", "tag", "kind", "plugin", "count", "first_step",
                                         "last_step"])
        table = pd.concat([p.astype({"run": str, "tag": str}) for p in parts], ignore_index=True)
        table = table.rename(columns={"min": "first_step", "max": "last_step"})
        table["plugin"] = [self._tag_meta.get(r, {}).get(t, TagMetadata()).plugin_name
                           for r, t in zip(table["run"], table["tag"], strict=True)]
        return table[["run", "tag", "kind", "plugin", "count", "first_step", "last_step"]]

    @property
    def metadata(self) -> pd.DataFrame:
        """One row per run: files, writer, host, first/last wall time, record counts."""
        rows = []
        counts = self.scalars["run"].value_counts() if self._store and self._store.n else {}
        for run in self.runs:
            states = self._files[run]
            firsts = [s.first_wall_time for s in states if s.first_wall_time == s.first_wall_time]
            lasts = [s.last_wall_time for s in states if s.last_wall_time == s.last_wall_time]
            rows.append({
                "run": run,
                "files": len(states),
                "writer": ", ".join(sorted({s.writer for s in states if s.writer})) or "",
                "file_version": ", ".join(sorted({s.version for s in states if s.version})),
                "host": ", ".join(sorted({s.host for s in states if s.host})),
                "first_wall_time": min(firsts) if firsts else np.nan,
                "last_wall_time": max(lasts) if lasts else np.nan,
                "records": sum(s.records for s in states),
                "corrupt_records": sum(s.corrupt_records for s in states),
                "bytes_read": sum(s.offset for s in states),
                "scalars": int(counts.get(run, 0)) if len(counts) else 0,
                **{kind: len(self._records[run].get(kind, [])) for kind in
                   (HISTOGRAMS, IMAGES, AUDIO, TEXT, PR_CURVES, TENSORS)},
            })
        return pd.DataFrame(rows).set_index("run") if rows else pd.DataFrame()


def load(logdir: str | os.PathLike[str], *, runs: RunFilter = None,
         tags: str | Sequence[str] | None = None, event_types: Iterable[str] | None = None,
         executor: Executor | None = None, verify_crc: bool = True,
         progress: bool | None = None, storage_options: dict[str, Any] | None = None
         ) -> Experiment:
    """Load every run of a TensorBoard logdir.

    Parameters
    ----------
    logdir
        A local directory or any fsspec URL (``s3://bucket/runs``, ``gs://...``,
        ``memory://...``).
    runs
        Keep only matching runs: a regular expression (searched in the run name),
        a list of run names, or a predicate.
    tags
        Keep only matching tags: a regular expression or a list of tags.
    event_types
        Kinds to keep, from ``scalars``, ``histograms``, ``images``, ``audio``,
        ``text``, ``pr_curves``, ``hparams``, ``tensors``, ``custom_scalars``,
        ``graphs`` (default: all).
    executor
        Any :class:`concurrent.futures.Executor`; runs are loaded as independent
        tasks on it (default: a thread pool as large as the machine).
    verify_crc
        Check each record's data CRC (the length CRC is always checked).
    progress
        Show a progress bar: ``None`` shows one for loads longer than a second.
    storage_options
        Passed to fsspec for URLs (credentials, endpoints).

    Returns
    -------
    Experiment

    Examples
    --------
    >>> import tbnb
    >>> exp = tbnb.load(tbnb.samples.sample_logdir())       # doctest: +SKIP
    >>> exp.scalars.query("tag == 'train/loss'").head()    # doctest: +SKIP
    """
    return Experiment(logdir, runs=runs, tags=tags, event_types=event_types, executor=executor,
                      verify_crc=verify_crc, progress=progress, storage_options=storage_options)
