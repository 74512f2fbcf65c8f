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

import warnings
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds import KINDS, Kind
from tbnb.loader import overview
from tbnb.loader import runs as runs_of
from tbnb.loader.coordinator import Subscription, Watch
from tbnb.loader.experiment_state import ExperimentState
from tbnb.loader.filters import RunFilter, kinds_option, run_matcher, tag_option
from tbnb.loader.logdirs import Logdirs, LogdirSpec
from tbnb.loader.report import ReloadReport
from tbnb.loader.run import LoadOptions
from tbnb.warnings import LogdirWarning

__all__ = ["Experiment", "ReloadReport", "load"]


class Experiment:
    """Everything in a logdir, as DataFrames; :meth:`reload` reads only what is new.

    Use :func:`tbnb.load` to create one. Every kind of the registry has an accessor
    named by its key (``exp.scalars``, ``exp.histograms``, ``exp.distributions``,
    ``exp.images``, ``exp.audio``, ``exp.text``, ``exp.pr_curves``, ``exp.tensors``,
    ``exp.graphs``, ``exp.custom_scalars``, ``exp.hparams``, ``exp.embeddings``,
    ``exp.metadata``); frames handed out are never changed by a later reload.
    ``decoder=`` (one of :data:`tbnb.loader.backend.DECODERS`, default ``auto``) picks how
    records are decoded; every decoder gives the same frames. The experiment is a facade
    over one :class:`~tbnb.loader.experiment_state.ExperimentState` (``exp.state``).
    """

    def __init__(
        self,
        logdir: LogdirSpec,
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
        logdirs = Logdirs(logdir, storage_options)  # names checked before anything is read
        options = LoadOptions(
            tags=tag_option(tags),
            kinds=kinds_option(event_types),
            verify_crc=verify_crc,
            decoder=decoder,
        )
        self.state = ExperimentState(
            logdirs,
            filters={"runs": runs, "tags": tags, "event_types": event_types},
            options=options,
            keep_run=run_matcher(runs),
            executor=executor,
            progress=progress,
        )
        self.coordinator = self.state.coordinator
        self.reload()
        state = self.state
        for problem in overview.member_problems(state, opened_only=True):  # others warned
            warnings.warn(problem, LogdirWarning, stacklevel=3)
        state.empty_reason = overview.explain_empty(state)
        if state.empty_reason:
            warnings.warn(state.empty_reason, overview.EmptyResultWarning, stacklevel=3)

    @property
    def logdir(self) -> str:
        """The logdir as given; several logdirs as ``name=logdir ...`` (see :attr:`logdirs`)."""
        return self.state.logdir

    @property
    def logdirs(self) -> dict[str, str]:
        """``{name: logdir as given}`` of the logdirs read (``{"": logdir}`` for one); each
        run's is in ``exp.metadata["logdir"]``."""
        return self.state.logdirs.named

    @property
    def logdir_problems(self) -> list[str]:
        """Of several logdirs, why each that gave no run gave none (could not be opened,
        empty, no event files); empty when every one gave runs."""
        return overview.member_problems(self.state)

    @property
    def fs(self) -> Any:
        """The logdir's filesystem (fsspec, or tbnb's local files); for several logdirs,
        one that reads each path from its logdir's (:class:`~tbnb.io.union.LogdirUnion`)."""
        return self.state.fs

    @property
    def root(self) -> str:
        """The logdir's path on :attr:`fs` (``""`` for several logdirs)."""
        return self.state.root

    @property
    def filters(self) -> dict[str, Any]:
        """The load's ``runs``, ``tags`` and ``event_types`` filters, as given."""
        return self.state.filters

    @property
    def last_report(self) -> ReloadReport:
        """What the last reload found."""
        report = self.state.last_report
        assert report is not None
        return report

    @property
    def empty_reason(self) -> str | None:
        """Why the load holds nothing to show (None when it holds something)."""
        return self.state.empty_reason

    def __repr__(self) -> str:
        store = self.state.store
        return (
            f"<tbnb.Experiment {self.logdir!r}: {overview.plural(len(self.runs), 'run')}, "
            f"{store.n if store else 0} scalar points>"
        )

    def _repr_html_(self) -> str:
        return overview.html_summary(self.state)

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

    # ------------------------------------------------------------------ runs
    @property
    def runs(self) -> list[str]:
        """Run names (relative to the logdir, ``.`` for the logdir itself), sorted.

        add_hparams sub-runs belong to their parent run and are left out (see
        :attr:`subruns`).
        """
        return self.state.runs

    @property
    def all_runs(self) -> list[str]:
        """Every run directory loaded, add_hparams sub-runs included, sorted."""
        return self.state.all_runs

    @property
    def subruns(self) -> dict[str, str]:
        """The runs ``add_hparams`` wrote below a training run, each with its parent.

        They hold only the hparams and final metrics of their parent, so they are
        not in :attr:`runs`; :attr:`all_runs` lists them too.
        """
        return self.state.subruns

    @property
    def excluded_runs(self) -> list[str]:
        """Runs found in the logdir that the ``runs=`` filter left out, sorted.

        A left-out run's child directories (its add_hparams sub-runs, never read) are
        not listed; the sub-runs of kept runs are kept with them.
        """
        return runs_of.excluded_runs(self.state)

    # ------------------------------------------------------------------ frames
    def frame(self, key: str) -> Any:
        """The frame (or object) of one kind, by its registry key.

        ``exp.frame("histograms")`` is ``exp.histograms``.
        """
        return self.state.frame(key)

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
        return self.state.analysis("graph", run, tag, stats=stats)

    @property
    def info(self) -> pd.DataFrame:
        """Everything the logs tell about each run: one row per run, columns
        ``(section, key)`` (see :func:`tbnb.analysis.runinfo.run_info`)."""
        state = self.state
        with state.lock:
            cached = state.cache.get("info")
            if cached is None:
                cached = state.cache["info"] = state.analysis("info")
        return cached.copy(deep=False)

    def count(self, key: str) -> int:
        """How many values of kind ``key`` were read, without building its frame.

        ``-1`` for kinds counted only by their frame (derived and analysis kinds).
        """
        return self.state.count(key)

    @property
    def hparams_values(self) -> list[tuple[str, str, int, bytes]]:
        """(run, tag, step, content) of every hparams-plugin summary value."""
        return self.state.hparams_values

    def run_path(self, run: str) -> str:
        """The directory of ``run``, as a path (or URL path) on :attr:`fs`."""
        return self.state.run_path(run)

    @property
    def tags(self) -> pd.DataFrame:
        """One row per (run, tag, kind): plugin, count, first and last step."""
        return overview.tag_table(self.state)


def _accessor(kind: Kind) -> property:
    def get(self: Experiment) -> Any:
        return self.frame(kind.key)

    get.__name__ = kind.key
    get.__doc__ = kind.doc
    return property(get)


for _kind in KINDS.values():
    setattr(Experiment, _kind.key, _accessor(_kind))


def load(
    logdir: LogdirSpec,
    *,
    runs: RunFilter = None,
    tags: str | Sequence[str] | None = None,
    event_types: Iterable[str] | None = None,
    executor: Executor | None = None,
    verify_crc: bool = True,
    progress: bool | None = None,
    storage_options: dict[str, Any] | None = None,
) -> Experiment:
    """Load every run of a TensorBoard logdir, or of several as one experiment.

    Parameters
    ----------
    logdir
        A local directory or any fsspec URL (``s3://bucket/runs``, ``gs://...``,
        ``memory://...``). Several logdirs, as TensorBoard's ``--logdir_spec``:
        ``{"baseline": "runs/a", "new": "s3://b/runs"}`` names each; a list names each
        by the shortest ending of its path that tells it from the others. Their runs
        are named ``name/run`` (the logdir's own run: ``name``), every kind, filter and
        reload as for one logdir. A logdir that cannot be read warns, naming it, and the
        others load (it is tried again on reload); names that clash are an error
        before anything is read.
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
        Passed to fsspec for URLs (credentials, endpoints), e.g. ``{"anon": True}``;
        for several logdirs, ``{name: options}`` gives each its own.

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
    >>> sample = str(tbnb.samples.sample_logdir())
    >>> both = tbnb.load({"a": sample, "b": sample}, runs="seed=0$", progress=False)
    >>> both.runs[:2], both.metadata.loc["b/lr=0.01,seed=0", "logdir"] == sample
    (['a/lr=0.001,seed=0', 'a/lr=0.003,seed=0'], True)
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
