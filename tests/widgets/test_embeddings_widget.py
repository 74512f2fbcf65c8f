"""The projector widget in Python: what it sends, selection and neighbours back, jobs."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.widgets.embeddings.prepare import encode_column, search_mask


def _data(n: int = 500, d: int = 16) -> tuple[np.ndarray, pd.DataFrame]:
    rng = np.random.default_rng(0)
    cls = np.arange(n) % 5
    X = (rng.normal(size=(5, d))[cls] * 5 + rng.normal(size=(n, d))).astype(np.float32)
    meta = pd.DataFrame(
        {
            "word": [f"w{i}" for i in range(n)],
            "cls": [f"c{c}" for c in cls],
            "score": rng.normal(size=n),
        }
    )
    return X, meta


def test_positions_travel_as_float32_and_metadata_dictionary_encoded() -> None:
    X, meta = _data()
    w = tbnb.projector(X, meta)
    assert w.method == "pca"
    assert w.color_by == "cls"
    coords = w._positions["coords"]
    assert isinstance(coords, np.ndarray)
    assert coords.dtype == np.float32
    assert coords.shape == (500, 2)
    np.testing.assert_allclose(w.coordinates[["x", "y"]].to_numpy(), coords)
    cls = next(c for c in w._meta["columns"] if c["name"] == "cls")
    assert cls["codes"].dtype == np.uint8
    assert len(cls["labels"]) == 5
    assert [cls["labels"][c] for c in cls["codes"]] == meta["cls"].tolist()
    score = next(c for c in w._meta["columns"] if c["name"] == "score")
    assert score["kind"] == "number"
    assert score["values"].dtype == np.float32
    assert sum(w.explained) <= 1
    assert w.explained[0] >= w.explained[1] >= w.explained[2]


def test_encode_column_most_frequent_first_and_distinct_values_alone() -> None:
    enc = encode_column("k", pd.Series(["b", "a", "b", None, "b"]))
    assert enc["labels"] == ["b", "a", ""]
    assert enc["codes"].tolist() == [0, 1, 0, 2, 0]
    many = encode_column("k", pd.Series([f"x{i}" for i in range(70000)]))
    assert "codes" not in many
    assert len(many["labels"]) == 70000


def test_selection_comes_back_with_callbacks_and_bad_indices_are_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    X, meta = _data()
    w = tbnb.projector(X, meta)
    seen: list[pd.DataFrame] = []
    w.on_select(seen.append)
    w._selection = {"indices": np.array([7, 3, 3, 9999], np.int32)}  # as the browser sends
    assert w.selected["index"].tolist() == [3, 7]
    assert w.selected["word"].tolist() == ["w3", "w7"]
    assert len(seen) == 1
    assert seen[0].equals(w.selected)
    assert "selection outside" in caplog.text
    w.select([])
    assert w.selected.empty
    assert len(seen) == 2


def test_neighbors_search_and_plotly() -> None:
    X, meta = _data()
    w = tbnb.projector(X, meta, label="word")
    found = w.neighbors(4, 6, "euclidean")
    full = np.linalg.norm(X.astype(np.float64) - X[4], axis=1)
    full[4] = np.inf
    assert found["index"].tolist() == np.argsort(full, kind="stable")[:6].tolist()
    assert w.focus == 4
    assert w._neighbors["indices"].tolist() == found["index"].tolist()
    w.search = r"^w1\d$"
    assert w.matches["word"].tolist() == [f"w1{i}" for i in range(10)]
    assert search_mask(meta, "C3", "cls").sum() == 100
    fig = w.to_plotly()
    assert sum(len(trace.x) for trace in fig.data) == 500


def test_umap_runs_in_the_background_and_is_cached() -> None:
    X, meta = _data(400)
    w = tbnb.projector(X, meta)
    job = w.run("umap", n_neighbors=10, n_epochs=80, seed=1)
    assert job is not None
    layout = job.wait(300)
    assert w.status["state"] == "done"
    assert w.method == "umap"
    assert w._positions["final"]
    assert w._positions["method"] == "umap"
    np.testing.assert_array_equal(w.coordinates[["x", "y"]].to_numpy(dtype=np.float32), layout)
    assert w.run("pca") is None
    assert w.method == "pca"
    assert w.run("umap", n_neighbors=10, n_epochs=80, seed=1) is None  # cached: at once
    np.testing.assert_array_equal(w._positions["coords"], layout)


def test_raw_vectors_of_three_dimensions_and_clear_errors() -> None:
    X = np.random.default_rng(1).normal(size=(50, 3)).astype(np.float32)
    w = tbnb.projector(X, method="raw", dims=3)
    np.testing.assert_array_equal(w._positions["coords"], X)
    with pytest.raises(ValueError, match="2-D"):
        tbnb.projector(np.zeros(10))
    with pytest.raises(ValueError, match="NaN"):
        tbnb.projector(np.full((4, 2), np.nan))
    with pytest.raises(ValueError, match=r"50|49"):
        tbnb.projector(X, pd.DataFrame({"a": range(49)}))
    with pytest.raises(Exception, match="raw"):
        tbnb.projector(np.zeros((5, 8)), method="raw")


def test_dataframe_and_torch_inputs() -> None:
    torch = pytest.importorskip("torch")
    X, meta = _data(60, 4)
    frame = pd.concat([pd.DataFrame(X, columns=list("abcd")), meta[["word"]]], axis=1)
    w = tbnb.projector(frame)
    np.testing.assert_array_equal(w.vectors, X)
    assert w.metadata.columns.tolist() == ["word"]
    w2 = tbnb.projector(torch.from_numpy(X), meta["word"].tolist())
    np.testing.assert_array_equal(w2.vectors, X)


def test_nan_rows_in_a_logged_embedding_warn_and_keep_the_rest(tmp_path: Path) -> None:
    tbx = pytest.importorskip("tensorboardX")
    mat = np.arange(30, dtype=np.float32).reshape(10, 3)
    mat[4, 1] = np.nan
    writer = tbx.SummaryWriter(str(tmp_path / "r"))
    writer.add_embedding(mat, metadata=[f"m{i}" for i in range(10)], global_step=1, tag="bad")
    writer.close()
    with pytest.warns(Warning, match=r"1 of 10 vectors.*run 'r'.*tag 'bad'.*rows \[4\]"):
        w = tbnb.projector(tbnb.load(tmp_path, progress=False))
    assert len(w.vectors) == 9
    assert 4 not in w.metadata["row"].tolist()


def test_100k_points_weigh_at_most_3_mb_in_a_saved_notebook() -> None:
    from ipywidgets.embed import dependency_state

    rng = np.random.default_rng(0)
    n = 100_000
    X = rng.normal(size=(n, 8)).astype(np.float32)
    meta = pd.DataFrame(
        {
            "label": [f"item {i}" for i in range(n)],
            "cls": rng.choice([f"class {i}" for i in range(30)], n),
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = tbnb.projector(X, meta)
    state = dependency_state([w], drop_defaults=False)[w.model_id]
    state["state"].pop("_esm", None)  # the front end's code, the same for any data
    saved = len(json.dumps(state).encode())  # buffers as base64, as the notebook saves them
    assert saved <= 3_000_000, saved


def test_checkpoint_embeddings_are_listed_with_a_clear_message(tmp_path: Path) -> None:
    tbx = pytest.importorskip("tensorboardX")
    writer = tbx.SummaryWriter(str(tmp_path / "files"))
    writer.add_embedding(
        np.eye(4, dtype=np.float32), metadata=list("abcd"), global_step=1, tag="kept"
    )
    writer.close()
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "projector_config.pbtxt").write_text(
        'model_checkpoint_path: "model.ckpt-100"\nembeddings { tensor_name: "word_emb:0" }\n'
    )
    exp = tbnb.load(tmp_path, progress=False)
    with pytest.warns(tbnb.warnings.LogdirWarning, match="ckpt.*only TensorFlow reads"):
        table = exp.embeddings.set_index("run")
    note = table.loc["ckpt", "note"]
    assert "TensorFlow checkpoint 'model.ckpt-100'" in note
    assert "word_emb" in note and "add_embedding" in note  # noqa: PT018
    w = tbnb.projector(exp)  # the readable one is shown, the other listed with its note
    assert w.title.startswith("files")
    np.testing.assert_array_equal(w.vectors, np.eye(4, dtype=np.float32))
    assert any(e["note"] == note for e in w.embeddings)
    with pytest.raises(ValueError, match="only TensorFlow reads"):
        tbnb.projector(exp, embedding="word_emb")


def test_run_colours_and_palette_come_from_the_run_colored_mixin() -> None:
    import traitlets

    from tbnb.widgets.colors import RunColored, run_colors
    from tbnb.widgets.embeddings import ProjectorWidget

    w = ProjectorWidget()
    assert isinstance(w, RunColored)
    w.run_colors = run_colors(["b-run", "a-run"])
    w.palette = "colorblind"  # recolours in the same run order
    assert w.run_colors == run_colors(["b-run", "a-run"], "colorblind")
    with pytest.raises(traitlets.TraitError, match="palette must be one of"):
        w.palette = "rainbow"


def test_the_picker_request_reads_another_embedding(tmp_path: Path) -> None:
    from tests.writers_embeddings import write_torch_embeddings

    write_torch_embeddings(tmp_path)
    w = tbnb.projector(tmp_path)
    listed = {(e["tag"], e["step"]): e["index"] for e in w.embeddings}
    images = listed[("images", 2)]
    assert w.embedding != images
    reply = w.answer({"type": "embedding", "id": "e1", "index": images})
    assert reply is not None
    assert "error" not in reply, reply
    assert reply["embedding"] == images == w.embedding
    assert len(w.vectors) == 12
    assert w.vectors.shape[1] == 5
    assert w._positions["coords"].shape == (12, 2)
    assert w._sprite["png"].size > 0
    # the new data's columns: colour by "cls" (3 values), label by "name"
    assert (w.color_by, w.label_by) == ("cls", "name")
    bad = w.answer({"type": "embedding", "id": "e2", "index": 99})
    assert bad is not None
    assert "does not exist" in bad["error"]


def test_defaults_show_the_colour_and_points_of_a_readable_size(tmp_path: Path) -> None:
    from tests.writers_embeddings import write_torch_embeddings

    write_torch_embeddings(tmp_path)
    coloured = tbnb.projector(tmp_path, embedding="images")
    assert coloured.color_by == "cls"
    assert coloured.sprites is False  # a sprite would hide its point's colour
    assert coloured.point_size == 10.0  # 12 points: large ones
    plain = tbnb.projector(tmp_path, embedding="images", color="")
    assert plain.sprites is True  # nothing to hide: the images
    chosen = tbnb.projector(tmp_path, embedding="images", sprites=True, point_size=3)
    assert (chosen.sprites, chosen.point_size) == (True, 3.0)
    X, meta = _data(50_000)
    many = tbnb.projector(X, meta)
    assert many.point_size == 2.5
    # a user's choice survives choosing another embedding; the automatic ones follow the data
    chosen.answer({"type": "embedding", "id": "1", "index": chosen.embeddings[0]["index"]})
    assert (chosen.sprites, chosen.point_size) == (True, 3.0)


def test_category_colours_are_not_the_run_colours() -> None:
    import re

    from tbnb.widgets.colors import DEFAULT_PALETTE
    from tests.widgets.test_colors import _lab, _rgb, ciede2000

    source = (Path(__file__).parents[2] / "js/src/widgets/embeddings/coloring.js").read_text()
    block = re.search(r"CATEGORY_PALETTE = \[(.*?)\];", source, re.S)
    assert block is not None
    colors = re.findall(r'"(#[0-9a-f]{6})"', block.group(1))
    assert len(colors) == 20
    labs = [_lab(_rgb(c)) for c in colors]
    runs = [_lab(_rgb(c)) for c in DEFAULT_PALETTE]
    # category i never looks like run i (a legend beside a run list in the same colours)
    assert min(ciede2000(a, b) for a, b in zip(labs, runs, strict=True)) >= 17
    assert min(ciede2000(a, b) for i, a in enumerate(labs) for b in labs[i + 1 :]) >= 12
