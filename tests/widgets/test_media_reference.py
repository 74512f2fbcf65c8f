"""The media views show what TensorBoard's own reader holds, on logs of real writers.

For torch, tensorboardX, TF2's wire format and a Lightning ``TensorBoardLogger`` run, every
(run, tag, step, sample) of TensorBoard's data provider (what its images, audio and text
plugins read, every step kept) is a card position of the widget, and the bytes the browser
gets for it (``widget.item(...)``, the ``"items"`` request) are the bytes TensorBoard
serves, byte for byte. Texts equal TensorBoard's strings, and their HTML equals
TensorBoard's own rendering (``text_array_to_html``) for everything but the images and the
attributes both sanitisers drop differently.
"""

from __future__ import annotations

import numpy as np
import pytest

import tbnb
from tests.writers_media import MEDIA_WRITERS, cached_media, provider_blobs, provider_texts

WRITERS = list(MEDIA_WRITERS)


@pytest.fixture(scope="module", params=WRITERS)
def written(request: pytest.FixtureRequest) -> tuple[str, tbnb.Experiment]:
    w = cached_media(request.param)
    return w.logdir, tbnb.load(w.logdir, progress=False)


def _positions(widget: tbnb.widgets.media.MediaWidget) -> set[tuple[str, str, int, int]]:
    frame = widget.full_data
    sample = frame["sample"] if "sample" in frame.columns else np.zeros(len(frame), dtype=int)
    return {
        (str(r), str(t), int(s), int(i))
        for r, t, s, i in zip(frame["run"], frame["tag"], frame["step"], sample, strict=True)
    }


@pytest.mark.parametrize("kind", ["images", "audio"])
def test_every_item_is_tensorboards_bytes(written: tuple[str, tbnb.Experiment], kind: str) -> None:
    logdir, exp = written
    reference = provider_blobs(logdir, kind)
    widget = getattr(tbnb, kind)(exp)
    assert reference, "the writer logged some"
    assert _positions(widget) == set(reference)  # every step: no reservoir of 10
    for (run, tag, step, sample), (wall, data) in reference.items():
        item = widget.item(run, tag, step, sample)
        assert bytes(item["data"]) == data, (run, tag, step, sample)
        assert item["wall_time"] == pytest.approx(wall)
    # what the browser asks for, through the request channel, is the same
    keys = [list(k) for k in sorted(reference)[:5]]
    reply = widget.answer({"type": "items", "id": "1", "keys": keys})
    assert reply is not None
    for key, item in zip(keys, reply["items"], strict=True):
        assert bytes(item["data"]) == reference[tuple(key)][1]  # type: ignore[index]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # tensorboard's vendored bleach
def test_every_text_is_tensorboards(written: tuple[str, tbnb.Experiment]) -> None:
    from tensorboard.plugins.text.text_plugin import text_array_to_html

    from tbnb.widgets.text.prepare import text_of

    logdir, exp = written
    reference = provider_texts(logdir)
    widget = tbnb.text(exp)
    assert _positions(widget) == {(r, t, s, 0) for r, t, s in reference}
    for (run, tag, step), (wall, array) in reference.items():
        item = widget.item(run, tag, step)
        decoded = np.vectorize(lambda b: b.decode("utf-8"), otypes=[object])(array)
        raw = bytes(item["data"]).decode("utf-8")
        if decoded.size == 1:  # torch/tensorboardX write one string as a [1] tensor
            assert raw == decoded.reshape(-1)[0]
            expected = text_array_to_html(decoded.reshape(()), enable_markdown=True)
            assert item["html"] == expected, (run, tag, step)
        else:
            assert raw == text_of(decoded)
            assert item["kind"] == "table"
            grid = (
                decoded.reshape(-1, 1) if decoded.ndim == 1 else decoded[(0,) * (decoded.ndim - 2)]
            )
            assert item["cells"] == [str(c) for c in grid.reshape(-1)]
            assert bool(item["warning"]) == (decoded.ndim > 2)
        assert item["wall_time"] == pytest.approx(wall)


def test_written_images_decode_to_what_was_logged() -> None:
    """The PNG bytes served are the images the writers were given (not only TB's copy)."""
    from tests.writers import decode_png

    w = cached_media("tf2")
    widget = tbnb.images(w.logdir)
    for run, tag, step, sample, array in w.images:
        item = widget.item(run, tag, step, sample)
        assert item["format"] == "png"
        np.testing.assert_array_equal(decode_png(bytes(item["data"])), array)
        assert (item["width"], item["height"]) == (array.shape[1], array.shape[0])


def test_written_clips_decode_to_what_was_logged() -> None:
    from tbnb.widgets.audio.prepare import decode_wav

    for name in ("torch", "tf2", "lightning"):
        w = cached_media(name)
        widget = tbnb.audio(w.logdir)
        for run, tag, step, sample, clip, rate in w.audio:
            item = widget.item(run, tag, step, sample)
            samples, got_rate = decode_wav(bytes(item["data"]))
            assert got_rate == rate == item["sample_rate"]
            assert item["duration"] == pytest.approx(len(clip) / rate)
            np.testing.assert_allclose(samples[:, 0], clip, atol=2 / 32767)
    labels = tbnb.audio(cached_media("tf2").logdir).full_data["label"]
    assert set(labels) == {"sine", "chírp"}


def test_lightning_training_run_media_are_shown() -> None:
    """A real Lightning training run (tests/writers_lightning.py) logs an image and a text
    per epoch through its logger: each epoch is a step of the card."""
    from tests.writers_lightning import RUN, cached_lightning

    w = cached_lightning()
    exp = tbnb.load(w.logdir, progress=False)
    images = tbnb.images(exp)
    assert set(images.full_data["step"]) == {s for r, t, s, *_ in w.images if r == RUN}
    assert len(images.data) == 1
    assert images.data["step"].iloc[0] == max(s for _, _, s, *_ in w.images)
    reference = provider_blobs(w.logdir, "images")
    for (run, tag, step, sample), (_, data) in reference.items():
        assert bytes(images.item(run, tag, step, sample)["data"]) == data
    texts = tbnb.text(exp)
    assert {(r, t, s) for r, t, s, _ in w.text} == {
        (run, tag, int(step))
        for run, tag, step in zip(
            texts.full_data["run"].astype(str),
            texts.full_data["tag"].astype(str),
            texts.full_data["step"],
            strict=True,
        )
    }
