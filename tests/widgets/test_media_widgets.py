"""The media views in Python: cards, positions, the global step, saved items, requests,
problems, live refresh, sources and builders (no browser)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.warnings import DataWarning
from tbnb.widgets.cards import CardIndex, card_key, item_key, nearest_index, position
from tests.writers import image_chw, png_bytes
from tests.writers_media import cached_media


def _image_frame(runs: dict[str, list[int]], tag: str = "img", size: int = 6) -> pd.DataFrame:
    rows = []
    for k, (run, steps) in enumerate(runs.items()):
        for i, step in enumerate(steps):
            data = png_bytes(image_chw(10 * k + i, height=size, width=size).transpose(1, 2, 0))
            rows.append(
                {
                    "run": run,
                    "tag": tag,
                    "step": step,
                    "wall_time": 1.7e9 + step,
                    "sample": 0,
                    "width": size,
                    "height": size,
                    "format": "png",
                    "nbytes": len(data),
                    "data": data,
                }
            )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------ cards
def test_index_keeps_every_step_and_groups_cards_by_tag() -> None:
    frame = pd.DataFrame(
        {
            "run": ["b", "a", "a", "a", "a", "b"],
            "tag": ["y", "x", "x", "x", "y", "x"],
            "step": [1, 30, 10, 10, 5, 7],
            "wall_time": 0.0,
            "sample": [0, 0, 0, 1, 0, 0],
        }
    )
    index = CardIndex.build(frame, ["a", "b"])
    assert index.cards == [("a", "x"), ("b", "x"), ("a", "y"), ("b", "y")]
    assert index.card_steps(0).tolist() == [10, 30]
    assert index.card_counts(0).tolist() == [2, 1]
    assert index.row(0, 10, 1) == 3
    assert index.row(0, 10, 2) is None
    assert index.row(0, 11, 0) is None
    payload = index.payload()
    assert payload["runs"] == ["a", "b"]
    assert payload["tags"] == ["x", "y"]
    assert payload["offsets"].tolist() == [0, 2, 3, 4, 5]


def test_a_step_logged_twice_shows_every_value_as_a_sample() -> None:
    frame = _image_frame({"a": [0, 5, 5]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is wrong: both values are shown
        widget = tbnb.images(frame)
    assert widget.full_data["step"].tolist() == [0, 5, 5]
    assert bytes(widget.item("a", "img", 5, 0)["data"]) == frame["data"].iloc[1]
    assert bytes(widget.item("a", "img", 5, 1)["data"]) == frame["data"].iloc[2]
    assert widget.problems == []


@pytest.mark.parametrize("module", ["torch", "tensorboardX"])
def test_every_item_logged_at_one_step_is_reachable(tmp_path: Path, module: str) -> None:
    """The official PyTorch TensorBoard tutorial logs 7 images at one step, one call each:
    every one of them (and of audio clips and texts logged so) is a sample of the step."""
    import importlib

    writer = importlib.import_module(
        "torch.utils.tensorboard" if module == "torch" else "tensorboardX"
    ).SummaryWriter(str(tmp_path))
    images = [image_chw(40 + i) for i in range(7)]
    for image in images:
        writer.add_image("tutorial", image, 0)
    writer.add_image("tutorial", image_chw(50), 1)
    for i in range(3):
        writer.add_audio("clip", np.full(100, i / 10, np.float32), 2, sample_rate=8000)
        writer.add_text("note", f"text {i}", 3)
    writer.close()
    exp = tbnb.load(str(tmp_path), progress=False)
    from tests.writers import decode_png

    widget = tbnb.images(exp)
    assert len(widget.full_data) == 8
    card = widget._cards.lookup[(".", "tutorial")]
    assert widget._cards.card_counts(card).tolist() == [7, 1]
    for i, image in enumerate(images):
        shown = decode_png(bytes(widget.item(".", "tutorial", 0, i)["data"]))
        np.testing.assert_array_equal(shown, image.transpose(1, 2, 0))
    clips = tbnb.audio(exp)
    assert [clips.item(".", "clip", 2, i)["key"] for i in range(3)] == [
        item_key(".", "clip", 2, i) for i in range(3)
    ]
    texts = tbnb.text(exp)
    assert [texts.item(".", "note/text_summary", 3, i)["html"] for i in range(3)] == [
        f"<p>text {i}</p>" for i in range(3)
    ]


def test_position_rule_matches_the_browsers_nearest() -> None:
    steps = np.array([0, 10, 20])
    assert [nearest_index(steps, x) for x in (-5, 4, 5, 6, 15, 99)] == [0, 0, 0, 1, 1, 2]
    frame = pd.DataFrame(
        {"run": "a", "tag": "t", "step": [0, 10, 20], "wall_time": 0.0, "sample": 0}
    )
    index = CardIndex.build(frame, ["a"])
    key = card_key("a", "t")
    assert position(index, 0, None, {}) == (20, 0)
    assert position(index, 0, 12, {}) == (10, 0)
    assert position(index, 0, 12, {key: {"step": 0, "sample": 3}}) == (0, 0)
    assert position(index, 0, 12, {key: {"step": None, "sample": 0}}) == (10, 0)
    assert item_key("a", "t", 10, 0) == json.dumps(["a", "t", 10, 0], separators=(",", ":"))


# ----------------------------------------------------------------- global step, pins
def test_global_step_moves_every_card_and_pins_move_one() -> None:
    widget = tbnb.images(_image_frame({"a": [0, 10, 20], "b": [5, 15, 25]}))
    assert widget.data["step"].tolist() == [20, 25]  # each card's last
    widget.step = 14
    assert widget.data["step"].tolist() == [10, 15]  # the nearest step each card has
    widget.pin("b", "img", 5)
    assert widget.data["step"].tolist() == [10, 5]
    widget.pin("b", "img", None)
    assert widget.data["step"].tolist() == [10, 15]
    with pytest.raises(KeyError, match="run 'c'"):
        widget.pin("c", "img", 1)


def test_several_samples_per_step_have_a_sample_index() -> None:
    w = cached_media("tf2")
    widget = tbnb.images(w.logdir, step=10)
    assert widget.full_data.groupby(["run", "step"]).size().eq(3).all()
    assert widget.data["sample"].tolist() == [0, 0]
    widget.positions = {card_key("a", "gen/samples"): {"step": None, "sample": 2}}
    assert widget.data["sample"].tolist() == [2, 0]
    assert widget.data["step"].tolist() == [10, 10]


def test_selection_and_tag_filter_decide_what_is_shown() -> None:
    w = cached_media("torch")
    widget = tbnb.images(w.logdir)
    assert len(widget.data) == 6  # 2 runs x 3 tags
    widget.selected_runs = ["b"]
    widget.tag_filter = "^PHOTOS"
    assert widget.data[["run", "tag"]].astype(str).to_numpy().tolist() == [["b", "photos/jpeg"]]
    widget.tag_filter = "("  # invalid: ignored, as the browser ignores it
    assert len(widget.data) == 3
    filtered = tbnb.images(w.logdir, runs="^a$", tags=["samples/img"])
    assert filtered._index["runs"] == ["a"]
    assert filtered._index["tags"] == ["samples/img"]
    assert tbnb.images(w.logdir, run_filter="^b").selected_runs == ["b"]


# ------------------------------------------------------------------------ saving
def test_saved_state_keeps_the_images_shown_within_the_budget() -> None:
    frame = _image_frame({"a": list(range(0, 100, 10)), "b": list(range(0, 100, 10))}, size=32)
    widget = tbnb.images(frame)
    held = widget._held
    assert sorted(held) == [item_key("a", "img", 90, 0), item_key("b", "img", 90, 0)]
    assert widget.embedded == {
        "mode": "shown",
        "items": 2,
        "bytes": sum(int(h["nbytes"]) for h in held.values()),
        "left_out": 0,
        "budget": 600_000,
    }
    widget.step = 30
    assert sorted(widget._held) == [item_key("a", "img", 30, 0), item_key("b", "img", 30, 0)]
    one = int(next(iter(widget._held.values()))["nbytes"])
    widget.max_embed_bytes = one + 10  # room for one image only
    assert widget.embedded["items"] == 1
    assert widget.embedded["left_out"] == 1
    state = widget.get_state()
    assert isinstance(state["_held"][item_key("a", "img", 30, 0)]["data"]["view"], memoryview)


def test_embed_all_keeps_every_step_or_says_why_not() -> None:
    frame = _image_frame({"a": list(range(8))}, size=16)
    total = int(frame["nbytes"].sum())
    widget = tbnb.images(frame, embed="all")
    assert widget.embedded["mode"] == "all"
    assert widget.embedded["items"] == 8
    with pytest.warns(DataWarning, match=r"embed='all' needs .* over max_embed_bytes=100"):
        small = tbnb.images(frame, embed="all", max_embed_bytes=100)
    assert small.embedded["mode"] == "shown"
    assert total > 100


def test_saved_state_of_a_widget_is_small_and_binary(tmp_path: Path) -> None:
    """State beyond the held items: a few bytes per step, names once, no JSON lists."""
    frame = _image_frame({f"run{r}": list(range(0, 2000, 4)) for r in range(4)}, size=4)
    widget = tbnb.images(frame, max_embed_bytes=0)
    state = widget.get_state()
    index_bytes = sum(
        len(v["view"]) for v in state["_index"].values() if isinstance(v, dict) and "view" in v
    )
    assert index_bytes <= 4 * 500 * 6 + 100
    text = json.dumps(
        {k: v for k, v in state.items() if k not in ("_index", "_held", "_esm")}, default=str
    )
    assert len(text) < 5_000


# ---------------------------------------------------------------------- requests
def test_items_request_answers_each_key_or_names_what_is_wrong(tmp_path: Path) -> None:
    widget = tbnb.images(_image_frame({"a": [0, 1]}))
    reply = widget.answer(
        {
            "type": "items",
            "id": "7",
            "keys": [["a", "img", 1, 0], ["a", "img", 2, 0], ["z", "img", 0, 0], "not a key"],
        }
    )
    assert reply is not None
    assert reply["id"] == "7"
    good, missing, no_card, bad = reply["items"]
    assert good["key"] == item_key("a", "img", 1, 0)
    assert good["format"] == "png"
    assert isinstance(good["data"], np.ndarray)
    assert good["data"].dtype == np.uint8
    assert missing["error"] == "run 'a', tag 'img' has no step 2 sample 0"
    assert "run 'z'" in no_card["error"]
    assert "[run, tag, step, sample]" in bad["error"]
    meta = widget.answer(
        {"type": "items", "id": "8", "keys": [["a", "img", 0, 0]], "meta_only": True}
    )
    assert meta is not None
    assert "data" not in meta["items"][0]
    too_many = widget.answer({"type": "items", "id": "9", "keys": [["a", "img", 0, 0]] * 300})
    assert too_many is not None
    assert "at most 256" in too_many["error"]


def test_an_image_whose_file_vanished_is_an_error_naming_it(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "run")) as writer:
        for step in range(3):
            writer.add_image("img", image_chw(step), step)
    exp = tbnb.load(tmp_path, progress=False)
    widget = tbnb.images(exp)
    for path in tmp_path.glob("run/events.out.tfevents.*"):
        path.write_bytes(b"")
    reply = widget.answer({"type": "items", "id": "1", "keys": [["run", "img", 1, 0]]})
    assert reply is not None
    error = reply["items"][0]["error"]
    assert error.startswith("run 'run', tag 'img', step 1, sample 0: ")


def test_bad_images_are_problems_and_good_ones_still_show() -> None:
    frame = _image_frame({"a": [0, 1, 2]})
    frame.loc[1, ["data", "format"]] = [b"not an image at all", "unknown"]
    frame.loc[1, "nbytes"] = 19
    with pytest.warns(DataWarning, match=r"run 'a', tag 'img': step 1 is not an image"):
        widget = tbnb.images(frame)
    assert len(widget.full_data) == 3
    assert widget.item("a", "img", 1)["mime"] == ""  # the browser shows the error
    assert widget.item("a", "img", 2)["mime"] == "image/png"


def test_clips_without_a_wav_header_are_problems() -> None:
    from tests.writers import wav_bytes

    good = wav_bytes(np.zeros(80, np.float32), 8000)
    frame = pd.DataFrame(
        {
            "run": "a",
            "tag": "voice",
            "step": [0, 1],
            "wall_time": 0.0,
            "sample": 0,
            "content_type": "audio/wav",
            "sample_rate": [8000.0, 0.0],
            "num_channels": [1, 0],
            "length_frames": [80, 0],
            "label": "",
            "nbytes": [len(good), 4],
            "data": [good, b"junk"],
        }
    )
    with pytest.warns(DataWarning, match=r"run 'a', tag 'voice': step 1 has no readable WAV"):
        widget = tbnb.audio(frame)
    assert widget.item("a", "voice", 0)["duration"] == pytest.approx(0.01)


# ------------------------------------------------------------------------ refresh
def test_live_refresh_adds_steps_and_runs(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "a"), filename_suffix=".1") as writer:
        for step in range(2):
            writer.add_image("img", image_chw(step), step)
            writer.add_text("note", f"step {step}", step)
    exp = tbnb.load(tmp_path, progress=False)
    images, texts = tbnb.images(exp), tbnb.text(exp)
    version = images._index["version"]
    with SummaryWriter(str(tmp_path / "a"), filename_suffix=".2") as writer:
        for step in range(2, 4):
            writer.add_image("img", image_chw(step), step)
    with SummaryWriter(str(tmp_path / "b")) as other:
        other.add_image("img", image_chw(9), 0)
    exp.reload()  # every widget following the experiment hears of it
    assert images._index["version"] == version + 1
    assert images.data["step"].tolist() == [3, 0]  # the latest step, and the new run
    assert images.selected_runs == ["a", "b"]
    assert texts._index["version"] == 1  # no new text: nothing resent
    images.close()
    texts.close()


def test_widgets_follow_the_experiments_poller(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "a")) as writer:
        writer.add_text("note", "hi", 0)
    exp = tbnb.load(tmp_path, progress=False)
    widget = tbnb.text(exp, refresh=3600)
    try:
        assert exp.coordinator.polling
    finally:
        widget.close()
    assert exp.coordinator.subscribers == 0


# ------------------------------------------------------------------------ builders
@pytest.mark.parametrize("builder", ["images", "audio", "text"])
def test_builders_check_their_arguments(builder: str) -> None:
    w = cached_media("tf2")
    build: Any = getattr(tbnb, builder)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'tag_filtr'.*tag_filter"):
        build(w.logdir, tag_filtr="x")
    with pytest.raises(ValueError, match="run_filter= is not a valid regex"):
        build(w.logdir, run_filter="(")
    with pytest.raises(ValueError, match=r"refresh= needs a source with \.reload\(\)"):
        build(getattr(tbnb.load(w.logdir, progress=False), builder), refresh=1)
    with pytest.raises(TypeError, match="source must be an Experiment"):
        build(42)
    with pytest.raises(ValueError, match=r"needs the columns run, tag, step, wall_time"):
        build(pd.DataFrame({"run": ["a"]}))
    widget = build(w.logdir, palette="colorblind", embed="all")
    assert widget.run_colors == {"a": "#cc6677", "b": "#332288"}
    with pytest.raises(Exception, match="embed must be 'shown' or 'all'"):
        widget.embed = "everything"


def test_images_options_are_validated() -> None:
    widget = tbnb.images(_image_frame({"a": [0]}), brightness=1.5, fit="actual", pixelated="on")
    assert (widget.brightness, widget.fit, widget.pixelated) == (1.5, "actual", "on")
    for name, value in (("brightness", 9.0), ("fit", "cover"), ("pixelated", "x"), ("size", 8)):
        with pytest.raises(Exception, match=name):
            setattr(widget, name, value)


def test_compare_two_runs() -> None:
    w = cached_media("torch")
    widget = tbnb.images(w.logdir, compare=("a", "b"), step=12)
    assert widget.compare["tag"] == "batch"
    assert widget.compare["mode"] == "side"
    widget.compare_runs("a", "b", "samples/img", mode="wipe")
    assert widget.compare["mode"] == "wipe"
    extra = widget._extra_shown()
    assert [(widget._cards.cards[c], s) for c, s, _ in extra] == [
        (("a", "samples/img"), 10),
        (("b", "samples/img"), 10),
    ]
    widget.selected_runs = []  # the comparison still keeps its two images for the page
    assert len(widget._held) == 2
    with pytest.raises(ValueError, match="not an image tag of both runs"):
        widget.compare_runs("a", "b", "nope")
    with pytest.raises(Exception, match="compare mode must be one of"):
        widget.compare = {"tag": "batch", "a": "a", "b": "b", "mode": "blend"}


# ------------------------------------------------------------------------ plotly
def test_to_plotly_shows_what_is_shown() -> None:
    from tbnb.widgets.images.view import adjust

    images = tbnb.images(cached_media("torch").logdir, tags="samples")
    fig = images.to_plotly()
    assert [t.type for t in fig.data] == ["image", "image"]
    assert [a.text for a in fig.layout.annotations] == [
        "a · samples/img · step 30",
        "b · samples/img · step 30",
    ]
    images.brightness = 2.0
    assert images.to_plotly().data[0].source != fig.data[0].source
    assert adjust(np.array([[[10, 250, 128, 7]]], np.uint8), 1.0, 2.0).tolist() == [
        [[0, 255, 128, 7]]
    ]
    audio = tbnb.audio(cached_media("tf2").logdir, display="waveform")
    assert [t.type for t in audio.to_plotly().data] == ["scatter", "scatter"]
    text = tbnb.text(cached_media("tf2").logdir, tags="^log$")
    cells = text.to_plotly().data[0].cells["values"]
    assert list(cells[0]) == ["a", "b"]
    assert str(cells[3][0]).startswith("**step 30**")


def test_dashboard_gets_the_media_tabs() -> None:
    w = cached_media("tensorboardX")
    dash = tbnb.Dashboard(w.logdir)
    try:
        assert list(dash.views) == ["images", "audio", "text", "metadata"]
        assert dash.titles == ["Images", "Audio", "Text", "Runs"]
        assert all(view._source is dash.experiment for view in dash.views.values())
    finally:
        dash.close()


def test_blob_free_frames_work_and_a_data_column_is_enough() -> None:
    frame = _image_frame({"a": [0]})
    assert "blob" not in frame.columns
    assert tbnb.images(frame).item("a", "img", 0)["format"] == "png"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tbnb.text(
            pd.DataFrame({"run": "a", "tag": "t", "step": [0], "wall_time": 0.0, "text": ["hi"]})
        )
