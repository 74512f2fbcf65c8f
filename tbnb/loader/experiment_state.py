"""Everything an experiment knows, in one explicit state, and how a reload adds to it.

:class:`ExperimentState` holds what was read of each run (file states, tag metadata,
scalar points in the columnar store, other kinds' rows, raw values) and the run
bookkeeping (sub-run candidates, runs found), and answers every read: a kind's frame is
``kind.build(state)`` (:mod:`tbnb.kinds.base`), cached until the next change; an
analysis (the hparams table, run information, a model graph) is the registry's
:class:`~tbnb.kinds.base.Analysis` called with the state. The ``Experiment``
(:mod:`tbnb.loader.experiment`) is a facade over it; the overview
(:mod:`tbnb.loader.overview`), the run bookkeeping (:mod:`tbnb.loader.runs`) and the
analyses read it through its public attributes.

Examples
--------
>>> import tbnb
>>> state = tbnb.load(tbnb.samples.sample_logdir(), progress=False).state
>>> state.runs[:1], state.frame("scalars").shape[1], state.count("histograms") > 0
(['lr=0.001,seed=0'], 5, True)
"""

from __future__ import annotations

import os
import warnings
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from tbnb.io.logdir import find_runs, qualified_run
from tbnb.io.memory import release_free_memory
from tbnb.kinds import ANALYSES, KINDS, RecordsKind, TagMetadata
from tbnb.kinds.base import ColumnarKind, FilesKind
from tbnb.kinds.hparams import parent_run
from tbnb.loader import overview, runs
from tbnb.loader.coordinator import ReloadCoordinator
from tbnb.loader.frames import records_frame
from tbnb.loader.logdirs import Logdirs, merge_frames
from tbnb.loader.report import ReloadReport
from tbnb.loader.rowsets import KindRows
from tbnb.loader.run import FileState, LoadOptions, RunResult, RunTask
from tbnb.loader.scalar_store import MIN_BYTES_PER_POINT, ScalarStore
from tbnb.loader.tasks import PARALLEL_MIN_BYTES, choose_backend_for, run_tasks, unread_bytes

__all__ = ["ExperimentState"]

_SCALARS = KINDS["scalars"].key
_HPARAMS = KINDS["hparams"].key


class ExperimentState:
    """What one experiment has read, and the reads every layer above asks of it.

    Attributes
    ----------
    logdirs
        The logdirs read (:class:`~tbnb.loader.logdirs.Logdirs`: one, or several named
        ones whose runs are named ``name/run``); ``logdir``, ``fs`` and ``root`` are
        theirs.
    filters
        The load's ``runs``, ``tags`` and ``event_types`` as given.
    options
        What each run's task keeps (:class:`~tbnb.loader.state.LoadOptions`).
    files, tag_meta
        Per run: its file states, its tags' metadata.
    store
        The columnar store of scalar points (None before the first load).
    records, raw
        Per run and kind, the rows of records kinds; per raw kind, ``(run, tag, step,
        data)``.
    seen_tags
        Every tag met, kept by the tag filter or not.
    candidates, rejected, discovered
        Children of kept runs the run filter rejected (loaded to see whether they are
        add_hparams sub-runs), those that were not, and every run directory found.
    last_report, empty_reason
        What the last reload found; why a fresh load holds nothing (or None).
    coordinator, lock
        The reload coordinator (one reload at a time) and its lock, held by every read.
    """

    def __init__(
        self,
        logdirs: Logdirs,
        *,
        filters: dict[str, Any],
        options: LoadOptions,
        keep_run: Callable[[str], bool],
        executor: Executor | None = None,
        progress: bool | None = None,
    ) -> None:
        self.logdirs = logdirs
        self.filters = filters
        self.options = options
        self.keep_run = keep_run
        self.executor = executor
        self.progress = progress
        self.files: dict[str, list[FileState]] = {}
        self.tag_meta: dict[str, dict[str, TagMetadata]] = {}
        self.store: ScalarStore | None = None
        self.records: dict[str, dict[str, KindRows]] = defaultdict(lambda: defaultdict(KindRows))
        self.raw: dict[str, list[tuple[str, str, int, Any]]] = defaultdict(list)
        self.seen_tags: set[str] = set()
        self.candidates: set[str] = set()
        self.rejected: set[str] = set()
        self.cache: dict[str, Any] = {}
        self.discovered: list[str] = []
        self.last_report: ReloadReport | None = None
        self.empty_reason: str | None = None
        self.coordinator: ReloadCoordinator[ReloadReport] = ReloadCoordinator(
            self.reload_once, changed=lambda report: report.changed
        )
        self.lock = self.coordinator.lock

    @property
    def logdir(self) -> str:
        """The logdir as given (several: ``name=logdir ...``)."""
        return self.logdirs.logdir

    @property
    def fs(self) -> Any:
        """The filesystem every file of the experiment is read from (several logdirs:
        their union, :class:`~tbnb.io.union.LogdirUnion`)."""
        return self.logdirs.fs

    @property
    def root(self) -> str:
        """The logdir's root on :attr:`fs` (several logdirs: the union's, ``""``)."""
        return self.logdirs.root

    # ------------------------------------------------------------------ reads
    def frame(self, key: str) -> Any:
        """The frame (or object) of kind ``key``: ``KINDS[key].build(state)``, cached
        until the next change; frames handed out are never changed by a later reload."""
        kind = KINDS.get(key)
        if kind is None:
            raise KeyError(f"no kind {key!r}; kinds: {', '.join(KINDS)}")
        with self.lock:
            if isinstance(kind, ColumnarKind):  # a view of the store, always current
                return kind.build(self)
            cached = self.cache.get(key)
            if cached is None:
                cached = self.cache[key] = kind.build(self)
        return cached.copy(deep=False) if isinstance(cached, pd.DataFrame) else cached

    def __getattr__(self, name: str) -> Any:
        """A kind's frame by its key (``state.scalars``), as the experiment's accessors."""
        if name in KINDS:
            return self.frame(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def scalar_frame(self) -> pd.DataFrame:
        """The columnar store's frame of scalar points (empty before the first load)."""
        store = self.store
        assert store is not None
        return store.frame()

    def records_frame(self, kind: RecordsKind) -> pd.DataFrame:
        """The tidy frame of a records kind's rows, every run's."""
        rows: dict[str, KindRows] = {
            run: per_run.get(kind.key, KindRows()) for run, per_run in self.records.items()
        }
        return records_frame(kind, rows)

    def files_frame(self, kind: FilesKind) -> Any:
        """What a files kind lists in the logdir, or in each of several, merged (by the
        kind's ``merge``, or :func:`~tbnb.loader.logdirs.merge_frames`)."""
        logdirs = self.logdirs
        parts = [(m.name, kind.list_files(m.fs, m.root)) for m in logdirs.readable]
        if not logdirs.several or not parts:  # none readable: the union's empty listing
            return parts[0][1] if parts else kind.list_files(self.fs, self.root)
        return (kind.merge or merge_frames)(self.fs, parts)

    def run_table(self) -> pd.DataFrame:
        """One row per run: the loader's bookkeeping (``exp.metadata``)."""
        return overview.run_table(self)

    def analysis(self, key: str, *args: Any, **kwargs: Any) -> Any:
        """The registry's analysis ``key`` of this state (:data:`tbnb.kinds.ANALYSES`)."""
        return ANALYSES[key](self, *args, **kwargs)

    def count(self, key: str) -> int:
        """How many values of kind ``key`` were read, without building its frame
        (``-1`` for kinds counted only by their frame)."""
        kind = KINDS.get(key)
        if kind is None:
            raise KeyError(f"no kind {key!r}; kinds: {', '.join(KINDS)}")
        with self.lock:
            if isinstance(kind, ColumnarKind):
                return self.store.n if self.store is not None else 0
            if isinstance(kind, RecordsKind):
                return sum(len(per_run.get(key, [])) for per_run in self.records.values())
        return -1

    @property
    def hparams_values(self) -> list[tuple[str, str, int, bytes]]:
        """(run, tag, step, content) of every hparams-plugin summary value."""
        return list(self.raw.get(_HPARAMS, []))

    def run_path(self, run: str) -> str:
        """The directory of ``run``, as a path (or URL path) on :attr:`fs`."""
        return self.logdirs.run_path(run)

    @property
    def runs(self) -> list[str]:
        """Run names, sorted, add_hparams sub-runs left out (see :mod:`tbnb.loader.runs`)."""
        return runs.kept_runs(self)

    @property
    def all_runs(self) -> list[str]:
        """Every run directory loaded, add_hparams sub-runs included, sorted."""
        return runs.all_runs(self)

    @property
    def subruns(self) -> dict[str, str]:
        """The runs ``add_hparams`` wrote below a training run, each with its parent."""
        return runs.subruns(self)

    # ---------------------------------------------------------------- reloads
    def reload_once(self) -> ReloadReport:
        """Read what was written since the last load (called by the coordinator, under
        its lock: one reload at a time)."""
        report = ReloadReport()
        tasks = self._plan(report)
        unread = sum(unread_bytes(t) for t in tasks)
        tasks = choose_backend_for(tasks)
        if tasks:
            report.backend = tasks[0].options.backend
        if self.store is None:
            self.store = ScalarStore(
                capacity=unread // MIN_BYTES_PER_POINT,
                runs=[t.run for t in tasks] if _SCALARS in self.options.kinds else [],
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
            for result in run_tasks(tasks, self.executor, self.progress, unread):
                self._absorb(result, report, copies)
            self.store.wait()
        finally:
            if copies is not None:
                copies.shutdown(wait=True)
        if report.changed or report.bytes_read:
            self.cache.clear()  # hparams or metadata may have changed with no new points
        runs.settle_candidates(self)
        self.last_report = report
        return report

    def _plan(self, report: ReloadReport) -> list[RunTask]:
        tasks = []
        if self.logdirs.open():  # a logdir that could not be opened before, now can
            self.cache.clear()
        found: dict[str, tuple[Any, list[str]]] = {}
        for member in self.logdirs.readable:
            for run, paths in find_runs(member.fs, member.root).items():
                found[qualified_run(member.name, run)] = (member.fs, paths)
        found = dict(sorted(found.items()))
        self.discovered = list(found)
        kept = {run for run in found if self.keep_run(run)}
        for run, (fs, paths) in found.items():
            if run in self.rejected:
                continue
            if run not in kept:
                parent = parent_run(run)
                if parent is None or parent not in kept:
                    continue
                self.candidates.add(run)  # an add_hparams sub-run goes with its parent
            states = self.files.get(run)
            if states is None:
                states = self.files[run] = []
                self.tag_meta[run] = {}
                if run not in self.candidates:
                    report.new_runs.append(run)
            known = {s.path for s in states}
            for path in paths:
                if path not in known:
                    states.append(FileState(path=path, rank=len(states)))
                    report.new_files.append(path)
            tasks.append(
                RunTask(
                    run=run,
                    fs=fs,
                    files=states,
                    tag_meta=self.tag_meta[run],
                    options=self.options,
                )
            )
        return tasks

    def _absorb(self, result: RunResult, report: ReloadReport, copies: Executor | None) -> None:
        run = result.run
        if result.reset:  # a file was truncated, replaced or deleted: the run read anew
            report.points_purged += self.drop_values(run)
        self.files[run] = result.files
        self.tag_meta[run] = result.tag_meta
        self.seen_tags.update(result.seen_tags)
        report.bytes_read += result.bytes_read
        if result.bytes_read:
            report.decoders.add(result.decoder)
        report.protobuf_records += result.protobuf_records
        for category, message in result.warnings:
            report.problems.append(message)
            warnings.warn(message, category, stacklevel=5)
        store = self.store
        assert store is not None
        if result.starts:  # everything stored for this run came before these restarts
            min_step = min(step for _, step in result.starts)
            report.points_purged += store.purge(run, min_step)
            for rows in self.records[run].values():
                report.points_purged += rows.drop(lambda _, step: step >= min_step)
        report.scalars_added += result.num_scalars
        store.append(
            run, result.scalar_tags, result.scalar_pieces, grouped=result.grouped, jobs=copies
        )
        for key, rows in result.records.items():
            self.records[run][key].extend(rows)
            report.values_added[key] = report.values_added.get(key, 0) + len(rows)
        for key, values in result.raw.items():
            self.raw[key].extend((run, tag, step, data) for tag, step, data in values)
            report.values_added[key] = report.values_added.get(key, 0) + len(values)
        if copies is not None:  # a large load: what the run's decoding used, given back
            release_free_memory()

    def drop_values(self, run: str) -> int:
        """Forget every value read of ``run`` (its files are read anew); how many."""
        dropped = 0
        if self.store is not None:
            dropped += self.store.purge(run, np.iinfo(np.int64).min)
            self.store.run_tags.pop(run, None)
        dropped += sum(len(rows) for rows in self.records.pop(run, {}).values())
        for key, values in self.raw.items():
            self.raw[key] = [v for v in values if v[0] != run]
        return dropped
