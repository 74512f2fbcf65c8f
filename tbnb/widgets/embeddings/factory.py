"""``tbnb.projector(...)``: the embedding projector of an experiment, a logdir or any matrix.

Examples
--------
>>> import numpy as np, tbnb
>>> X = np.random.default_rng(0).normal(size=(100, 16))
>>> w = tbnb.projector(X, [f"p{i}" for i in range(100)])
>>> w.method, w.coordinates.shape, w.explained[0] > 0
('pca', (100, 3), True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.analysis.projection import as_vectors, layout_params
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.embeddings.prepare import default_color, default_label
from tbnb.widgets.embeddings.source import first_readable, listing_of
from tbnb.widgets.embeddings.widget import ProjectorWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ProjectorOptions", "projector"]


class ProjectorOptions(TypedDict, total=False):
    """Keyword arguments of :func:`projector` beyond the documented ones."""

    run: str
    point_size: float
    opacity: float
    top_n: int
    sprites: bool
    density: bool
    search: str
    neighbors_k: int
    neighbor_metric: str
    palette: str
    height: int
    params: dict[str, Any]


def _is_experiment(source: Any) -> bool:
    return all(hasattr(source, name) for name in ("embeddings", "embedding_row", "fs"))


def projector(
    source: Any,
    metadata: Any = None,
    *,
    columns: str | Sequence[str] | None = None,
    embedding: int | str | None = None,
    method: str | None = None,
    dims: int | None = None,
    color: str | None = None,
    label: str | None = None,
    refresh: float | None = None,
    **kw: Unpack[ProjectorOptions],
) -> ProjectorWidget:
    """Embedding projector: PCA at once, t-SNE and UMAP in the background, selection back.

    Parameters
    ----------
    source
        An ``Experiment`` or a logdir (its ``add_embedding`` embeddings, picked in the
        view), or vectors: a numpy array, a torch tensor, or a DataFrame.
    metadata
        One row per vector: a DataFrame, a Series or a list of labels.
    columns
        For a DataFrame source: the vector columns (default every numeric column, the
        others being metadata), or one column whose cells are vectors.
    embedding
        Which embedding of an experiment: a row of ``exp.embeddings``, a tensor name or
        a tag (its latest step); default the first one tbnb can read.
    method
        ``"pca"`` (default; ``"raw"`` for vectors of up to 3 dimensions), ``"tsne"`` or
        ``"umap"`` (started in the background at once).
    dims
        2 or 3 (default 2; 3 for raw 3-D vectors).
    color, label
        Metadata columns colouring and labelling the points (default: the first
        column with 2-20 distinct values; ``label`` or the first column, unless that is
        the colour column: then hovered and clicked points are labelled only).
    refresh
        Re-list an experiment's embeddings every so many seconds (through its reload).
    **kw
        ``run`` (with ``embedding``: the run holding it), ``point_size`` (default:
        larger for fewer points), ``opacity``, ``top_n`` (categories coloured before
        "other", default 20), ``sprites`` (default: drawn when no column colours the
        points), ``density`` (contours and region labels at low zoom, default True),
        ``search`` (regex), ``neighbors_k`` (10), ``neighbor_metric`` (``"cosine"``),
        ``palette``, ``height`` (pixels, 520), ``params`` (method -> parameters, e.g.
        ``{"umap": {"n_neighbors": 30}}``). Anything else raises ``TypeError``.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> df = pd.DataFrame({"x": [0.0, 1.0, 0.0], "y": [0.0, 0.0, 1.0], "w": ["a", "b", "c"]})
    >>> w = tbnb.projector(df, label="w")
    >>> w.method, w.dims, w.coordinates[["x", "y", "w"]].values.tolist()
    ('raw', 2, [[0.0, 0.0, 'a'], [1.0, 0.0, 'b'], [0.0, 1.0, 'c']])
    >>> w.select([2, 0])
    >>> w.selected.values.tolist()
    [[0, 'a'], [2, 'c']]
    """
    check_kwargs("projector", dict(kw), ProjectorOptions.__annotations__)
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    params = {m: dict(p) for m, p in dict(kw.get("params") or {}).items()}
    for name, given in params.items():
        layout_params(name, given)
    widget = ProjectorWidget(
        opacity=kw.get("opacity", 0.8),
        density=kw.get("density", True),
        top_n=kw.get("top_n", 20),
        neighbors_k=kw.get("neighbors_k", 10),
        neighbor_metric=kw.get("neighbor_metric", "cosine"),
        palette=kw.get("palette", "default"),
        height=kw.get("height", 520),
        params=params,
    )
    if _is_experiment(source):
        if metadata is not None or columns is not None:
            raise TypeError(
                "metadata= and columns= are for vectors given directly; an "
                "experiment's embeddings bring their own metadata"
            )
        widget.follow(source)
        widget.embeddings = listing_of(source, widget.palette, widget)
        index = (
            first_readable(widget.embeddings)
            if embedding is None and "run" not in kw
            else _row_index(source, embedding if embedding is not None else 0, kw.get("run"))
        )
        if index >= 0:
            widget._showing = True
            widget.method, widget.dims = _start(method, dims, None)
            widget._showing = False
            widget.embedding = index  # reads it and shows the layout
        if refresh is not None:
            widget.start_refresh(float(refresh))
    else:
        if refresh is not None:
            raise ValueError("refresh= needs an experiment or a logdir as source")
        vectors, meta = as_vectors(source, metadata, columns=columns)
        widget._showing = True
        widget.method, widget.dims = _start(method, dims, vectors.shape[1])
        widget._showing = False
        widget._set_data(vectors, meta)
    if "sprites" in kw:  # the user's choices: kept for every embedding shown
        widget.sprites = kw["sprites"]
    if "point_size" in kw:
        widget.point_size = kw["point_size"]
    frame = widget.metadata
    color = color if color is not None else default_color(frame)
    widget._choose_defaults(color, label if label is not None else default_label(frame, color))
    widget.search = kw.get("search", "")
    return widget


def _start(method: str | None, dims: int | None, width: int | None) -> tuple[str, int]:
    """The first method and dims: raw for vectors of 1-3 dimensions, else PCA in 2-D."""
    if method is None:
        method = "raw" if width is not None and width <= 3 else "pca"
    layout_params(method)
    if method == "raw" and width is not None and width > 3:
        raise ValueError(
            f"method='raw' shows vectors of up to 3 dimensions; these have "
            f"{width} (use 'pca', 'tsne' or 'umap')"
        )
    if dims is None:
        dims = 3 if method == "raw" and width == 3 else 2
    if dims not in (2, 3):
        raise ValueError(f"dims must be 2 or 3, got {dims!r}")
    return method, dims


def _row_index(source: Any, which: int | str, run: str | None) -> int:
    row = source.embedding_row(which, run=run)
    table = source.embeddings
    matches = table.index[
        (table["run"] == row["run"])
        & (table["name"] == row["name"])
        & (table["tensor_path"] == row["tensor_path"])
    ]
    index = int(table.index.get_loc(matches[0]))
    note = table.iloc[index]["note"]
    if note:
        raise ValueError(note)
    return index
