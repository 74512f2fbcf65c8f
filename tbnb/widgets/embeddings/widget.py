"""The embedding projector: PCA, t-SNE and UMAP of up to millions of points, in WebGL.

Python side of ``js/src/widgets/embeddings/`` (widget key ``"embeddings"``). Python holds
the vectors (never sent) and a :class:`~tbnb.analysis.projection.Projection` of them;
the browser gets the current layout (``_positions``: float32 coordinates), the
metadata dictionary-encoded (``_meta``) and the sprite PNG (``_sprite``), and does the
rest itself: colour, labels, sprites, point size and opacity, search, hover, pan, zoom
and orbit, lasso and box selection. Selections come back as binary indices
(``_selection``): :attr:`ProjectorWidget.selected` and :meth:`~ProjectorWidget.on_select`.
Asking for a layout (``request("run")`` from the browser, :meth:`~ProjectorWidget.run`
here) starts a background job whose progress (``status``) and intermediate layouts
stream to the view; a clicked point's neighbours in the original space come from a
``"neighbors"`` request.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.analysis.projection import Job, Projection, layout_params, warm_up
from tbnb.analysis.projection.params import params_dict
from tbnb.widgets.colors import RunColored, run_colors
from tbnb.widgets.embeddings.defaults import ChosenDefaults
from tbnb.widgets.embeddings.prepare import (
    coordinates_frame,
    encode_metadata,
    positions_payload,
    search_mask,
    selection_frame,
)
from tbnb.widgets.embeddings.runner import LayoutRunner
from tbnb.widgets.embeddings.selection import Selectable
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.serializers import tree_serialization

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["ProjectorWidget"]

log = logging.getLogger(__name__)


class ProjectorWidget(LiveWidget, Selectable, ChosenDefaults, RunColored):
    """Embedding projector (build it with :func:`tbnb.projector`).

    Traits (synced with the browser)
    --------------------------------
    method : str
        Layout shown: ``"pca"``, ``"tsne"``, ``"umap"`` or ``"raw"`` (vectors of up to 3
        dimensions, as they are).
    dims : int
        2 or 3.
    params : dict
        Method -> its parameters (see :func:`tbnb.analysis.projection.layout_params`).
    status : dict
        The last layout job: method, state (``idle``, ``running``, ``done``,
        ``cancelled``, ``error``), phase, step of total, elapsed seconds, error.
    explained : list of float
        PCA's explained variance ratio of components 1-3.
    color_by, label_by : str
        Metadata column colouring / labelling the points (``""``: none).
    top_n : int
        Categories coloured before the rest is "other".
    point_size, opacity : float
        Point diameter in CSS pixels (by default larger for fewer points: see
        :func:`~tbnb.widgets.embeddings.prepare.default_point_size`), and opacity in
        [0.05, 1].
    sprites : bool
        Draw each point's sprite image (when the embedding has a sprite); by default only
        when no column colours the points (a sprite hides its point's colour).
    density : bool
        In 2-D at low zoom: density contours, and a label per dense region naming its
        most frequent value of the colour column (of the label column when the colour
        one does not group points).
    histogram_by : str
        The column whose distribution the side panel shows, the selection's beside all
        points' (``""``: the colour column); a click on a bar selects its points.
    search, search_column : str
        Case-insensitive regex matched against the metadata (one column, or all).
    focus : int
        The clicked point (``-1``: none); its neighbours are highlighted.
    neighbors_k : int, neighbor_metric : str
        How many neighbours, and ``"cosine"`` or ``"euclidean"`` in the original space.
    embeddings : list of dict
        The experiment's embeddings (run, tag, step, name, size, note).
    embedding : int
        Which of them is shown (``-1`` for vectors given directly).
    selected_runs, run_filter, run_colors, palette
        The run selector over the experiment's embeddings, with the run colours.
    """

    _widget_key = "embeddings"
    #: A dashboard keeps ``selected_runs`` (runs whose tensors are listed) its own.
    follows_run_selection = False

    method = t.Unicode("pca").tag(sync=True)
    dims = t.Int(2).tag(sync=True)
    params = t.Dict().tag(sync=True)
    status = t.Dict().tag(sync=True)
    explained = t.List(t.Float()).tag(sync=True)
    color_by = t.Unicode("").tag(sync=True)
    label_by = t.Unicode("").tag(sync=True)
    top_n = t.Int(20).tag(sync=True)
    point_size = t.Float(5.0).tag(sync=True)
    opacity = t.Float(0.8).tag(sync=True)
    sprites = t.Bool(False).tag(sync=True)
    density = t.Bool(True).tag(sync=True)
    histogram_by = t.Unicode("").tag(sync=True)
    search = t.Unicode("").tag(sync=True)
    search_column = t.Unicode("").tag(sync=True)
    focus = t.Int(-1).tag(sync=True)
    neighbors_k = t.Int(10).tag(sync=True)
    neighbor_metric = t.Unicode("cosine").tag(sync=True)
    embeddings = t.List(t.Dict()).tag(sync=True)
    embedding = t.Int(-1).tag(sync=True)
    title = t.Unicode("").tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = t.Unicode("").tag(sync=True)
    height = t.Int(520).tag(sync=True)
    _positions = t.Dict().tag(sync=True, **tree_serialization)
    _meta = t.Dict().tag(sync=True, **tree_serialization)
    _sprite = t.Dict().tag(sync=True, **tree_serialization)
    _neighbors = t.Dict().tag(sync=True, **tree_serialization)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._projection: Projection | None = None
        self._frame = pd.DataFrame()
        self._coords = np.zeros((0, 2), np.float32)
        self._version = 0
        self._runner = LayoutRunner(self._set_status, self._set_positions)
        self._showing = False
        self.observe(self._on_show, ["method", "dims"])

    # ----------------------------------------------------------------- validation
    @t.validate("method")
    def _valid_method(self, proposal: Any) -> str:
        value = str(proposal["value"])
        layout_params(value)
        if value == "raw" and self._projection is not None and self._projection.dims > 3:
            raise t.TraitError(
                f"raw shows vectors of up to 3 dimensions; these have "
                f"{self._projection.dims} (use pca, tsne or umap)"
            )
        return value

    @t.validate("dims")
    def _valid_dims(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if value not in (2, 3):
            raise t.TraitError(f"dims must be 2 or 3, got {value}")
        return value

    @t.validate("color_by", "label_by", "search_column", "histogram_by")
    def _valid_column(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value and len(self._frame.columns) and value not in self._frame.columns:
            raise t.TraitError(
                f"no metadata column {value!r}; columns are {list(self._frame.columns)}"
            )
        return value

    @t.validate("point_size")
    def _valid_size(self, proposal: Any) -> float:
        return float(min(max(float(proposal["value"]), 0.5), 64.0))

    @t.validate("opacity")
    def _valid_opacity(self, proposal: Any) -> float:
        return float(min(max(float(proposal["value"]), 0.05), 1.0))

    @t.validate("neighbor_metric")
    def _valid_metric(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in ("cosine", "euclidean"):
            raise t.TraitError(f"neighbor_metric must be 'cosine' or 'euclidean', got {value!r}")
        return value

    # ----------------------------------------------------------------- data
    def _set_data(
        self, vectors: np.ndarray, meta: pd.DataFrame, sprite: dict[str, Any] | None = None
    ) -> None:
        """Show new vectors (already checked): PCA at once, metadata and sprite."""
        self._runner.cancel()
        self._projection = Projection(vectors)
        self._frame = meta.reset_index(drop=True)
        self._last_selection = np.zeros(0, np.int64)
        with self.hold_sync():
            self._meta = encode_metadata(self._frame)
            self._sprite = sprite or {}
            self._selection = {"indices": np.zeros(0, np.int32)}
            self._neighbors = {}
            self.focus = -1
            self.status = {"state": "idle", "method": self.method}
            if self.method == "raw" and vectors.shape[1] > 3:
                self.method = "pca"
        if self._show() is None:
            warm_up()  # else once the exact PCA is in (kernels loading beside it slow it)

    def _on_show(self, _change: Any = None) -> None:
        if not self._showing:
            self._show()

    def _show(self) -> Job | None:
        """Show ``method``/``dims``: at once when computed (or PCA), else start a job."""
        projection = self._projection
        if projection is None:
            return None
        method = self.method
        given = {**dict(self.params.get(method, {})), "dims": self.dims}
        if method == "raw":
            given["dims"] = min(max(projection.dims, 2), 3) if projection.dims >= 2 else 2
        if method == "pca":
            first = projection.pca_first()
            self.explained = [float(v) for v in first.explained_variance_ratio]
            if not first.exact:  # a row sample's axes now, the exact ones streamed after
                self._set_positions(method, first.coords[:, : self.dims], False, keep=True)
        cached = projection.cached(method, given)
        if cached is not None:
            self._runner.cancel()
            self._set_positions(method, cached, True)
            self.status = {
                "state": "done",
                "method": method,
                "params": given,
                "phase": "done",
                "cached": True,
            }
            return None
        return self._runner.start(projection, method, given)

    def _set_status(self, status: dict[str, Any]) -> None:
        self.status = status

    def _set_positions(
        self, method: str, coords: np.ndarray, final: bool, *, keep: bool = False
    ) -> None:
        """Send a layout; a final one (or ``keep``) is also :attr:`coordinates`."""
        self._version += 1
        if final or keep:
            self._coords = np.ascontiguousarray(coords, dtype=np.float32)
        if final:
            warm_up()  # the kernels load while the user looks (once per process)
        if final and method == "pca" and self._projection is not None:
            self.explained = [
                float(v) for v in self._projection.pca_first().explained_variance_ratio
            ]
        self._positions = positions_payload(coords, method, self._version, final=final)

    def _recolor(self) -> None:
        self.run_colors = run_colors(list(self.run_colors), self.palette)

    # ----------------------------------------------------------------- requests
    def _request_run(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{method, dims, params}`` from the browser: show it (start a job if needed)."""
        method = str(content.get("method", self.method))
        dims = int(content.get("dims", self.dims))
        given = {k: v for k, v in dict(content.get("params") or {}).items() if k != "dims"}
        params_dict(layout_params(method, {**given, "dims": dims}))  # checks, or raises
        self._showing = True
        try:
            with self.hold_sync():
                self.params = {**self.params, method: given}
                self.method = method
                self.dims = dims
        finally:
            self._showing = False
        job = self._show()
        return {"started": job is not None}

    def _request_cancel(self, _content: dict[str, Any]) -> dict[str, Any]:
        return {"cancelled": self._runner.cancel()}

    def _request_embedding(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{index}`` from the picker: read that embedding of the experiment and show it."""
        if self._source is None:
            raise ValueError("these vectors were given directly: there is no other embedding")
        index = int(content["index"])
        listed = list(self.embeddings)
        if not 0 <= index < len(listed):
            raise IndexError(f"embedding {index} does not exist: there are {len(listed)}")
        if listed[index].get("note"):
            raise ValueError(str(listed[index]["note"]))
        self.embedding = index  # reads and shows it (the observer below)
        return {"embedding": index, "title": self.title}

    def _request_neighbors(self, content: dict[str, Any]) -> dict[str, Any]:
        index = int(content["index"])
        k = int(content.get("k", self.neighbors_k))
        metric = str(content.get("metric", self.neighbor_metric))
        self._compute_neighbors(index, k, metric)
        return dict(self._neighbors)

    def _compute_neighbors(self, index: int, k: int, metric: str) -> None:
        projection = self._projection
        if projection is None or index < 0:
            self._neighbors = {}
            return
        indices, distances = projection.nearest(index, k, metric)
        with self.hold_sync():
            self.focus = index
            self._neighbors = {
                "index": index,
                "metric": metric,
                "indices": indices,
                "distances": distances,
            }

    # ----------------------------------------------------------------- experiment
    @t.observe("embedding")
    def _on_embedding(self, change: Any) -> None:
        if self._source is not None and change["new"] >= 0 and change["new"] != change["old"]:
            self._load(int(change["new"]))

    def _load(self, index: int) -> None:
        from tbnb.widgets.embeddings.source import read_listed

        vectors, meta, sprite, title = read_listed(self._source, index)
        self.title = title
        self._set_data(vectors, meta, sprite)
        self._choose_defaults()

    def _on_reload(self, _report: Any = None) -> None:
        """List the experiment's embeddings again (a run may have written new ones)."""
        from tbnb.widgets.embeddings.source import listing_of

        with self._lock:
            self.embeddings = listing_of(self._source, self.palette, self)

    # ----------------------------------------------------------------- public
    @property
    def metadata(self) -> pd.DataFrame:
        """One row per point, as given."""
        return self._frame

    @property
    def vectors(self) -> np.ndarray:
        """The vectors shown (float32, one row per point)."""
        if self._projection is None:
            return np.zeros((0, 0), np.float32)
        vectors: np.ndarray = self._projection.vectors
        return vectors

    @property
    def coordinates(self) -> pd.DataFrame:
        """The current layout (the last finished one): ``x``, ``y`` (``z``), then metadata."""
        return coordinates_frame(self._coords, self._frame)

    @property
    def matches(self) -> pd.DataFrame:
        """Points matching :attr:`search` (as the browser highlights them)."""
        mask = search_mask(self._frame, self.search, self.search_column)
        return selection_frame(self._frame, np.flatnonzero(mask))

    @property
    def job(self) -> Job | None:
        """The last layout job started (``.state``, ``.wait()``, ``.cancel()``)."""
        return self._runner.job

    def run(self, method: str, *, dims: int | None = None, **params: Any) -> Job | None:
        """Show ``method`` (``"pca"``, ``"tsne"``, ``"umap"``, ``"raw"``) with ``params``.

        t-SNE and UMAP run in the background (their layouts stream to the view); the
        returned job's ``wait()`` blocks until the final layout. Returns None when the
        layout was ready at once (PCA, raw, or already computed with these parameters).
        The PCA of a large matrix shows a row sample's axes at once and returns the job
        that computes the exact ones from every row.
        """
        dims = self.dims if dims is None else dims
        layout_params(method, {**params, "dims": dims})
        self._showing = True
        try:
            with self.hold_sync():
                self.params = {**self.params, method: dict(params)}
                self.method = method
                self.dims = dims
        finally:
            self._showing = False
        return self._show()

    def cancel(self) -> bool:
        """Cancel the running layout job; True if one was running."""
        return self._runner.cancel()

    def neighbors(
        self, index: int, k: int | None = None, metric: str | None = None
    ) -> pd.DataFrame:
        """The ``k`` nearest points of ``index`` in the original space, and highlights them.

        Columns ``index``, ``distance`` (euclidean, or ``1 - cos``), then metadata.
        """
        self._compute_neighbors(index, k or self.neighbors_k, metric or self.neighbor_metric)
        found = self._neighbors
        frame = self._frame.iloc[found["indices"]].reset_index(drop=True)
        frame.insert(0, "distance", np.asarray(found["distances"], np.float64))
        frame.insert(0, "index", np.asarray(found["indices"], np.int64))
        return frame

    def to_plotly(self) -> go.Figure:
        """A plotly figure of the current layout (``Scattergl``, or ``Scatter3d`` in 3-D)."""
        from tbnb.widgets.embeddings.plotly import projector_figure

        return projector_figure(self)

    def close(self) -> None:
        """Cancel a running job and close the view."""
        runner = getattr(self, "_runner", None)
        if runner is not None:
            runner.cancel()
        super().close()
