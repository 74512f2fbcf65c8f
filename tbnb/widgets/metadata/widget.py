"""The run information panel: a table of runs, and runs side by side with differences marked.

Python side of ``js/src/widgets/metadata/`` (widget key ``"metadata"``). ``exp.info``
(:func:`tbnb.analysis.runinfo.run_info`) goes to the browser once as binary columns
(``_table``); the browser sorts, filters, pages and downloads the table, and puts the
selected runs side by side (every key, or only those that differ, highlighted) with no
kernel round trip. :attr:`RunsWidget.diff` is the same comparison in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from tbnb.analysis.runinfo import SECTIONS, diff_runs
from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.metadata.prepare import DEFAULT_SECTIONS, diff_spec, runs_payload, table_spec
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.source import Source
from tbnb.widgets.traits import IntRange, Regex

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

__all__ = ["RunsWidget"]


class RunsWidget(LiveWidget, RunColored):
    """Run information (build it with :func:`tbnb.runs`).

    Traits (synced with the browser)
    --------------------------------
    selected_runs : list of str
        Runs put side by side (two or more: a diff; one: its details).
    run_filter : str
        Case-insensitive regex over run names (the run selector's filter).
    table_filter : str
        Case-insensitive regex over the table's run names and cells.
    sections : list of str
        Sections whose keys are the table's columns (see
        :data:`tbnb.analysis.runinfo.SECTIONS`).
    only_differences : bool
        The side-by-side view lists only keys whose values differ.
    run_colors, palette
        The experiment's run colours.
    """

    _widget_key = "metadata"
    #: A dashboard keeps ``selected_runs`` (the runs compared side by side) its own.
    follows_run_selection = False

    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    table_filter = Regex().tag(sync=True)
    sections = t.List(t.Unicode(), default_value=list(DEFAULT_SECTIONS)).tag(sync=True)
    only_differences = t.Bool(True).tag(sync=True)
    page_size = IntRange(25, lo=1).tag(sync=True)
    _table = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(
        self,
        *,
        source: Source | None = None,
        selected: Sequence[str] | None = None,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        """Show ``source`` (``exp.info``), ``selected`` runs side by side."""
        super().__init__(**traits)
        self._info = pd.DataFrame()
        self._open(source, refresh, lambda given: self._set_info(given.data, selected))

    @t.validate("sections")
    def _valid_sections(self, proposal: Any) -> list[str]:
        value = [str(s) for s in proposal["value"]]
        unknown = [s for s in value if s not in SECTIONS]
        if unknown:
            raise t.TraitError(f"unknown sections {unknown}; sections: {list(SECTIONS)}")
        return value

    def _set_info(self, info: pd.DataFrame, selected: Sequence[str] | None = None) -> None:
        self._info = info
        self.color_runs([str(r) for r in info.index])
        self._table = runs_payload(info)
        runs = [str(r) for r in info.index]
        if selected is not None:
            missing = [r for r in selected if r not in runs]
            if missing:
                raise KeyError(f"no run {missing[0]!r}; runs: {runs[:8]}")
            self.selected_runs = list(selected)
        else:
            self.selected_runs = [r for r in self.selected_runs if r in runs]

    def _on_reload(self, _report: Any = None) -> None:
        with self._lock:
            info = self._source.info
            if info.equals(self._info) and list(info.columns) == list(self._info.columns):
                return
            self._set_info(info)
            self._sent += 1

    @property
    def info(self) -> pd.DataFrame:
        """Every key of every run (``exp.info``)."""
        return self._info

    @property
    def table(self) -> pd.DataFrame:
        """What the table shows: the keys of the chosen sections (columns ``(section, key)``)."""
        if not len(self._info.columns):
            return self._info
        keep = [c for c in self._info.columns if c[0] in self.sections]
        return self._info[keep]

    @property
    def diff(self) -> pd.DataFrame:
        """The selected runs side by side (``differs`` marks differences), as shown."""
        if len(self.selected_runs) < 1:
            return pd.DataFrame()
        return diff_runs(
            self._info,
            self.selected_runs,
            only_different=self.only_differences and len(self.selected_runs) > 1,
        )

    def view_spec(self) -> ViewSpec:
        """A table of what is shown: the selected runs side by side (or the runs table)."""
        if self.selected_runs:
            return diff_spec(self.diff)
        return table_spec(self.table)
