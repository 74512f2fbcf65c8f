"""Load a logdir into tidy DataFrames, and keep it up to date.

Layer ``loader``: an :class:`Experiment` holds every kind's data and reads only
what is new on :meth:`~Experiment.reload` (new bytes, files, runs), through its
:class:`~tbnb.loader.coordinator.ReloadCoordinator`, so reloads from several
threads (widgets, a poller, the user) never overlap. Its frame accessors
(``exp.scalars``, ``exp.histograms``, ...) derive from the kind registry.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> exp.scalars.groupby(["run", "tag"], observed=True).value.last().shape
(63,)
>>> exp.reload().changed                         # only the bytes written since
False
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from tbnb.io.logdir import find_runs, open_logdir
from tbnb.kinds import KINDS, Kind, TagMetadata
from tbnb.kinds.hparams import parent_run
from tbnb.loader import overview
from tbnb.loader.coordinator import ReloadCoordinator, Subscription, Watch
from tbnb.loader.filters import RunFilter, kinds_option, run_matcher, tag_option
from tbnb.loader.frames import records_frame
from tbnb.loader.memory import release_free_memory
from tbnb.loader.report import ReloadReport
from tbnb.loader.rowsets import KindRows
from tbnb.loader.run import FileState, LoadOptions, RunResult, RunTask
from tbnb.loader.runs import RunSet
from tbnb.loader.scalar_store import MIN_BYTES_PER_POINT, ScalarStore
from tbnb.loader.tasks import PARALLEL_MIN_BYTES, choose_backend_for, run_tasks, unread_bytes

__all__ = ["Experiment", "ReloadReport", "load"]

_SCALARS = "scalars"
_HPARAMS = "hparams"


class Experiment(RunSet):
    """Everything in a logdir, as DataFrames; :meth:`reload` reads only what is new.

    Use :func:`tbnb.load` to create one. Every kind of the registry has an accessor
    named by its key (``exp.scalars``, ``exp.histograms``, ``exp.distributions``,
    ``exp.images``, ``exp.audio``, ``exp.text``, ``exp.pr_curves``, ``exp.tensors``,
    ``exp.graphs``, ``exp.custom_scalars``, ``exp.hparams``, ``exp.embeddings``,
    ``exp.metadata``); frames handed out are never changed by a later reload.
    ``decoder=`` (one of :data:`tbnb.loader.backend.DECODERS`, default ``auto``) picks how
    records are decoded; every decoder gives the same frames.
    """

    def __init__(
        self,
        logdir: str | os.PathLike[str],
        *,
        runs: RunFilter = None,
        tags: str | Sequence[str] | None = None,
        event_types: Iterable[str] | None = None,
        executor: Executor | None = None,
        verify_crc: bool = True,
        progress: bool | None = None,
        storage_options: dict[str, Any] | None = None,
        decoder: str = "auto",
    ) -> None:
        self.logdir = str(logdir)
        self.fs, self.root = open_logdir(logdir, storage_options)
        self.filters = {"runs": runs, "tags": tags, "event_types": event_types}
        self._keep_run = run_matcher(runs)
        self._options = LoadOptions(
            tags=tag_option(tags),
            kinds=kinds_option(event_types),
            verify_crc=verify_crc,
            decoder=decoder,
        )
        self._executor = executor
        self._progress = progress
        self._files: dict[str, list[FileState]] = {}
        self._tag_meta: dict[str, dict[str, TagMetadata]] = {}
        self._store: ScalarStore | None = None
        self._records: dict[str, dict[str, KindRows]] = defaultdict(lambda: defaultdict(KindRows))
        self._raw: dict[str, list[tuple[str, str, int, Any]]] = defaultdict(list)
        self._seen_tags: set[str] = set()
        self._candidates: set[str] = set()  # children of kept runs the filter rejected
        self._rejected: set[str] = set()
        self._cache: dict[str, Any] = {}
        self._discovered: list[str] = []
        self.coordinator: ReloadCoordinator[ReloadReport] = ReloadCoordinator(
            self._reload_once, changed=lambda report: report.changed
        )
        self.last_report = self.reload()
        self.empty_reason = overview.explain_empty(self)
        if self.empty_reason:
            warnings.warn(self.empty_reason, overview.EmptyResultWarning, stacklevel=3)

    def __repr__(self) -> str:
        n = self._store.n if self._store else 0
        return (
            f"<tbnb.Experiment {self.logdir!r}: {overview.plural(len(self.runs), 'run')}, "
            f"{n} scalar points>"
        )

    def _repr_html_(self) -> str:
        return overview.html_summary(self)

    # ------------------------------------------------------------------ loading
    def reload(self) -> ReloadReport:
        """Read what was written since the last load: new bytes, new files, new runs.

        Safe from any thread: reloads run one at a time, and every subscriber
        (:meth:`subscribe`) hears of what any of them found.

        Returns
        -------
        ReloadReport
            What changed. Problems (corrupt records, unreadable files) are also
            issued as warnings naming the file.
        """
        return self.coordinator.reload()

    def subscribe(self, callback: Callable[[ReloadReport], Any]) -> Subscription:
        """Call ``callback(report)`` after every reload that found something new."""
        return self.coordinator.subscribe(callback)

    def watch(self, seconds: float) -> Watch:
        """Reload every ``seconds`` in one background thread (shared by every watcher).

        Returns a handle whose ``stop()`` withdraws the request.
        """
        return self.coordinator.watch(seconds)

    def _reload_once(self) -> ReloadReport:
        report = ReloadReport()
        tasks = self._plan(report)
        unread = sum(unread_bytes(t) for t in tasks)
        tasks = choose_backend_for(tasks)
        if tasks:
            report.backend = tasks[0].options.backend
        if self._store is None:
            self._store = ScalarStore(
                capacity=unread // MIN_BYTES_PER_POINT,
                runs=[t.run for t in tasks] if _SCALARS in self._options.kinds else [],
            )
        # Runs are copied into the scalar store in parallel (each into the rows reserved
        # for it in run order) while later runs still load.
        workers = min(os.cpu_count() or 1, len(tasks))
        copies = (
            ThreadPoolExecutor(workers, "tbnb-copy")
            if workers > 1 and unread >= PARALLEL_MIN_BYTES
            else None
        )
        try:
            for result in run_tasks(tasks, self._executor, self._progress, unread):
                self._absorb(result, report, copies)
            self._store.wait()
        finally:
            if copies is not None:
                copies.shutdown(wait=True)
        if report.changed or report.bytes_read:
            self._cache.clear()  # hparams or metadata may have changed with no new points
        self._settle_candidates()
        self.last_report = report
        return report

    def _plan(self, report: ReloadReport) -> list[RunTask]:
        tasks = []
        found = find_runs(self.fs, self.root)
        self._discovered = list(found)
        kept = {run for run in found if self._keep_run(run)}
        for run, paths in found.items():
            if run in self._rejected:
                continue
            if run not in kept:
                parent = parent_run(run)
                if parent is None or parent not in kept:
                    continue
                self._candidates.add(run)  # an add_hparams sub-run goes with its parent
            states = self._files.get(run)
            if states is None:
                states = self._files[run] = []
                self._tag_meta[run] = {}
                if run not in self._candidates:
                    report.new_runs.append(run)
            known = {s.path for s in states}
            for path in paths:
                if path not in known:
                    states.append(FileState(path=path, rank=len(states)))
                    report.new_files.append(path)
            tasks.append(
                RunTask(
                    run=run,
                    fs=self.fs,
                    files=states,
                    tag_meta=self._tag_meta[run],
                    options=self._options,
                )
            )
        return tasks

    def _absorb(
        self, result: RunResult, report: ReloadReport, copies: Executor | None = None
    ) -> None:
        run = result.run
        if result.reset:  # a file was truncated, replaced or deleted: the run read anew
            report.points_purged += self._drop_values(run)
        self._files[run] = result.files
        self._tag_meta[run] = result.tag_meta
        self._seen_tags.update(result.seen_tags)
        report.bytes_read += result.bytes_read
        if result.bytes_read:
            report.decoders.add(result.decoder)
        report.protobuf_records += result.protobuf_records
        for category, message in result.warnings:
            report.problems.append(message)
            warnings.warn(message, category, stacklevel=5)
        store = self._store
        assert store is not None
        if result.starts:  # everything stored for this run came before these restarts
            min_step = min(step for _, step in result.starts)
            report.points_purged += store.purge(run, min_step)
            for rows in self._records[run].values():
                report.points_purged += rows.drop(lambda _, step: step >= min_step)
        report.scalars_added += result.num_scalars
        store.append(
            run, result.scalar_tags, result.scalar_pieces, grouped=result.grouped, jobs=copies
        )
        for key, rows in result.records.items():
            self._records[run][key].extend(rows)
            report.values_added[key] = report.values_added.get(key, 0) + len(rows)
        for key, values in result.raw.items():
            self._raw[key].extend((run, tag, step, data) for tag, step, data in values)
            report.values_added[key] = report.values_added.get(key, 0) + len(values)
        if copies is not None:  # a large load: what the run's decoding used, given back
            release_free_memory()

    def _drop_values(self, run: str) -> int:
        dropped = 0
        if self._store is not None:
            dropped += self._store.purge(run, np.iinfo(np.int64).min)
            self._store.run_tags.pop(run, None)
        dropped += sum(len(rows) for rows in self._records.pop(run, {}).values())
        for key, values in self._raw.items():
            self._raw[key] = [v for v in values if v[0] != run]
        return dropped

    # ------------------------------------------------------------------ frames
    def frame(self, key: str) -> Any:
        """The frame (or object) of one kind, by its registry key.

        ``exp.frame("histograms")`` is ``exp.histograms``.
        """
        kind = KINDS.get(key)
        if kind is None:
            raise KeyError(f"no kind {key!r}; kinds: {', '.join(KINDS)}")
        with self.coordinator.lock:
            if kind.storage == "columnar":
                assert self._store is not None
                return self._store.frame()
            cached = self._cache.get(key)
            if cached is None:
                cached = self._cache[key] = self._build(kind)
        return cached.copy(deep=False) if isinstance(cached, pd.DataFrame) else cached

    def _build(self, kind: Kind) -> Any:
        if kind.storage == "records":
            frame = records_frame(
                kind, {run: kinds.get(kind.key, []) for run, kinds in self._records.items()}
            )
            return kind.finish(frame) if kind.finish is not None else frame
        if kind.storage == "derived":
            assert kind.derive is not None
            source, function = kind.derive
            return function(self.frame(source))
        if kind.storage == "analysis":
            assert kind.builder is not None
            module, _, name = kind.builder.partition(":")
            return getattr(importlib.import_module(module), name)(self)
        if kind.storage == "files":
            assert kind.list_files is not None
            return kind.list_files(self.fs, self.root)
        if kind.storage == "runs":
            return overview.run_table(self)
        raise AssertionError(kind.storage)

    def embedding(
        self, which: int | str = 0, *, run: str | None = None
    ) -> tuple[np.ndarray, pd.DataFrame]:
        """Return ``(vectors, metadata)`` of an embedding of ``exp.embeddings``.

        ``which`` is a row number, a tensor name (``"feat:00003"``) or a tag
        (``"feat"``: its latest step); ``run`` picks among runs holding the same name.

        Examples
        --------
        >>> import fsspec, tbnb
        >>> fs = fsspec.filesystem("memory")
        >>> fs.pipe("/emb-doc/events.out.tfevents.1.host", b"")
        >>> fs.pipe("/emb-doc/projector_config.pbtxt",
        ...         b'embeddings { tensor_name: "words" tensor_path: "t.tsv" }')
        >>> fs.pipe("/emb-doc/t.tsv", b"1\\t2\\n3\\t4\\n")
        >>> vectors, labels = tbnb.load("memory://emb-doc", progress=False).embedding("words")
        >>> vectors.shape
        (2, 2)
        """
        from tbnb.kinds.embeddings import read_embedding

        return read_embedding(self.fs, self.embedding_row(which, run=run))

    def embedding_row(self, which: int | str = 0, *, run: str | None = None) -> pd.Series:
        """The row of ``exp.embeddings`` that :meth:`embedding` reads."""
        table = self.frame("embeddings")
        if run is not None:
            if run not in set(table["run"]):
                raise KeyError(
                    f"no embeddings in run {run!r}; runs with embeddings: "
                    f"{sorted(set(table['run']))}"
                )
            table = table[table["run"] == run]
        names = table["name"].tolist()
        if isinstance(which, str):
            matches = table.index[table["name"] == which]
            if len(matches) == 0:
                by_tag = table[table["tag"] == which].sort_values("step", kind="stable")
                matches = by_tag.index
            if len(matches) == 0:
                raise KeyError(f"no embedding named {which!r}; have {names}")
            return table.loc[matches[-1]]
        if not -len(table) <= which < len(table):
            have = (
                f"{len(table)} embeddings ({', '.join(map(repr, names))})"
                if names
                else (f"no embeddings in {self.logdir!r} (no projector_config.pbtxt found)")
            )
            raise IndexError(f"embedding {which} does not exist: there are {have}")
        return table.iloc[which]

    def graph(self, run: str, tag: str | None = None, *, stats: str | None = "auto") -> Any:
        """One model graph of ``run``: ``.nodes`` and ``.edges`` frames, ``.to_networkx()``.

        See :func:`tbnb.analysis.graph.model_graph` (``tag`` picks the graph, ``stats``
        the ``RunMetadata`` joined in).
        """
        module = importlib.import_module("tbnb.analysis.graph")
        return module.model_graph(self, run, tag, stats=stats)

    @property
    def info(self) -> pd.DataFrame:
        """Everything the logs tell about each run: one row per run, columns
        ``(section, key)`` (see :func:`tbnb.analysis.runinfo.run_info`)."""
        with self.coordinator.lock:
            cached = self._cache.get("info")
            if cached is None:
                module = importlib.import_module("tbnb.analysis.runinfo")
                cached = self._cache["info"] = module.run_info(self)
        return cached.copy(deep=False)

    def count(self, key: str) -> int:
        """How many values of kind ``key`` were read, without building its frame.

        ``-1`` for kinds counted only by their frame (derived and analysis kinds).
        """
        kind = KINDS.get(key)
        if kind is None:
            raise KeyError(f"no kind {key!r}; kinds: {', '.join(KINDS)}")
        with self.coordinator.lock:
            if kind.storage == "columnar":
                return self._store.n if self._store is not None else 0
            if kind.storage == "records":
                return sum(len(per_run.get(key, [])) for per_run in self._records.values())
        return -1

    @property
    def hparams_values(self) -> list[tuple[str, str, int, bytes]]:
        """(run, tag, step, content) of every hparams-plugin summary value."""
        return list(self._raw.get(_HPARAMS, []))

    def run_path(self, run: str) -> str:
        """The directory of ``run``, as a path (or URL path) on :attr:`fs`."""
        return self.root if run == "." else f"{self.root.rstrip('/')}/{run}"

    @property
    def tags(self) -> pd.DataFrame:
        """One row per (run, tag, kind): plugin, count, first and last step."""
        return overview.tag_table(self)


def _accessor(kind: Kind) -> property:
    def get(self: Experiment) -> Any:
        return self.frame(kind.key)

    get.__name__ = kind.key
    get.__doc__ = kind.doc
    return property(get)


for _kind in KINDS.values():
    setattr(Experiment, _kind.key, _accessor(_kind))


def load(
    logdir: str | os.PathLike[str],
    *,
    runs: RunFilter = None,
    tags: str | Sequence[str] | None = None,
    event_types: Iterable[str] | None = None,
    executor: Executor | None = None,
    verify_crc: bool = True,
    progress: bool | None = None,
    storage_options: dict[str, Any] | None = None,
) -> Experiment:
    """Load every run of a TensorBoard logdir.

    Parameters
    ----------
    logdir
        A local directory or any fsspec URL (``s3://bucket/runs``, ``gs://...``,
        ``memory://...``).
    runs
        Keep only matching runs: a regular expression (searched in the run name),
        a list of run names, or a predicate. A run's add_hparams sub-run goes with it.
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
        Passed to fsspec for URLs (credentials, endpoints), e.g. ``{"anon": True}``.

    Returns
    -------
    Experiment

    Examples
    --------
    >>> import tbnb
    >>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
    >>> exp.runs[:2]
    ['lr=0.001,seed=0', 'lr=0.001,seed=1']
    >>> exp.scalars.query("tag == 'train/loss'").shape[1]
    5
    """
    return Experiment(
        logdir,
        runs=runs,
        tags=tags,
        event_types=event_types,
        executor=executor,
        verify_crc=verify_crc,
        progress=progress,
        storage_options=storage_options,
    )
