"""tbnb.SummaryReader against tbparse 0.0.9 itself, on logs written by real writers."""

from __future__ import annotations

import io
import os
import re
import sys
import types
import warnings
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import tbnb
from tbnb.compat.tbparse import SummaryReader, decode_image, decode_wav
from tbnb.warnings import TbnbWarning

tbparse = pytest.importorskip("tbparse")

# tbparse itself uses pandas APIs that pandas 3.1 deprecates
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:tbparse")

EXTRA = {"dir_name", "file_name", "wall_time", "min", "max", "num", "sum", "sum_squares"}
MEDIA_EXTRA = {
    "dir_name",
    "file_name",
    "wall_time",
    "width",
    "height",
    "content_type",
    "length_frames",
    "sample_rate",
}
NON_MEDIA = ("scalars", "tensors", "histograms", "hparams", "text")
RGB = np.random.default_rng(0).integers(0, 256, (3, 6, 5), dtype=np.uint8)
GREY = np.arange(20, dtype=np.uint8).reshape(1, 4, 5) * 12
SOUND = np.sin(np.linspace(0, 30, 800)) * 0.8


def _write(writer_cls: Any, directory: Path, **kwargs: Any) -> None:
    writer = writer_cls(str(directory), **kwargs)
    for step in range(6):
        writer.add_scalar("loss", 1.0 / (step + 1), step)
        writer.add_scalar("acc", step / 10, step)
        writer.add_scalars("grp", {"a": step, "b": -step}, step)
    writer.add_scalar("loss", 7.0, 3)  # a second value at one (tag, step)
    writer.add_histogram("w", np.linspace(-1, 1, 100), 3)
    writer.add_histogram("w", np.arange(10.0), 4)
    writer.add_image("rgb", RGB, 1)
    writer.add_image("grey", GREY, 1)
    writer.add_audio("snd", SOUND, 2, sample_rate=8000)
    writer.add_text("note", "hello", 5)
    writer.add_text("note", "wörld", 6)
    writer.add_pr_curve("pr", np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.8, 0.3]), 1)
    writer.add_hparams({"lr": 0.1, "opt": "adam", "bn": True}, {"m/acc": 0.9})
    writer.close()


@pytest.fixture(scope="session")
def rd_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tensorboardX and torch runs (add_scalars and add_hparams sub-runs), a nested
    run, a run written twice (two files), a stray config file and an empty folder."""
    from tensorboardX import SummaryWriter as XWriter
    from torch.utils.tensorboard import SummaryWriter as TorchWriter

    root = tmp_path_factory.mktemp("rd_logdir")
    _write(XWriter, root / "tbx")
    _write(TorchWriter, root / "torch")
    for seed in range(2):  # two files in one run, same tags and steps
        writer = TorchWriter(str(root / "nested" / "a-b" / "twice"))
        for step in range(4):
            writer.add_scalar("loss", seed + step / 4, step)
        writer.close()
    writer = XWriter(str(root / "nested" / "a"))
    writer.add_scalar("x", 1.0, 0)
    writer.close()
    (root / "tbx" / "config.yaml").write_text("lr: 0.1\n")
    (root / "empty").mkdir()
    return root


@pytest.fixture(scope="session")
def rd_tf2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A TF2-format log (tensor summaries with plugin metadata) from tensorboard's
    TF-free writer and summary helpers."""
    from PIL import Image
    from tensorboard.compat.proto.event_pb2 import Event
    from tensorboard.compat.proto.summary_pb2 import Summary
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb
    from tensorboard.plugins.hparams.summary_v2 import hparams_pb
    from tensorboard.plugins.image import metadata as image_metadata
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb
    from tensorboard.plugins.text.summary_v2 import text_pb
    from tensorboard.summary.writer.event_file_writer import EventFileWriter
    from tensorboard.util import tensor_util

    root = tmp_path_factory.mktemp("rd_tf2")
    writer = EventFileWriter(str(root / "train"))

    def add(summary: Any, step: int) -> None:
        writer.add_event(Event(summary=summary, step=step, wall_time=1.7e9 + step))

    for step in range(5):
        add(scalar_pb("loss", 1.0 / (step + 1)), step)
        add(scalar_pb("acc", step / 3), step)
    add(histogram_pb("h", np.arange(20.0), buckets=5), 1)
    add(text_pb("t", "hi there"), 2)
    png = io.BytesIO()
    Image.fromarray(np.arange(24, dtype=np.uint8).reshape(2, 4, 3)).save(png, format="PNG")
    tensor = tensor_util.make_tensor_proto([b"4", b"2", png.getvalue()], dtype=np.object_)
    add(
        Summary(
            value=[
                Summary.Value(
                    tag="im",
                    metadata=image_metadata.create_summary_metadata("im", None),
                    tensor=tensor,
                )
            ]
        ),
        4,
    )
    add(hparams_pb({"lr": 0.5, "name": "x"}), 0)
    writer.close()
    return root


def _assert_same(expected: Any, actual: SummaryReader, event_types: tuple[str, ...]) -> None:
    for event_type in event_types:
        try:
            assert_frame_equal(actual.get_events(event_type), expected.get_events(event_type))
        except AssertionError as error:
            raise AssertionError(f"{event_type}: {error}") from None


@pytest.mark.parametrize(
    ("pivot", "extra"),
    [
        (False, None),
        (False, EXTRA),
        (False, {"dir_name"}),
        (False, {"file_name", "min", "sum"}),
        (True, None),
        (True, EXTRA),
        (True, {"dir_name", "file_name"}),
        (True, {"wall_time"}),
    ],
)
def test_frames_match_tbparse(rd_logdir: Path, pivot: bool, extra: set[str] | None) -> None:
    expected = tbparse.SummaryReader(str(rd_logdir), pivot=pivot, extra_columns=extra)
    actual = tbnb.SummaryReader(str(rd_logdir), pivot=pivot, extra_columns=extra)
    _assert_same(expected, actual, NON_MEDIA)
    # tbparse without TensorFlow parses no images or audio, so it lists none
    assert actual.tags == {**expected.tags, "images": ["rgb", "grey"], "audio": ["snd"]}
    if not pivot:
        assert len(actual.scalars) > 60
        assert (len(actual.tensors), len(actual.text)) == (2, 4)


def test_long_frame_contents(rd_logdir: Path) -> None:
    reader = tbnb.SummaryReader(str(rd_logdir), extra_columns={"dir_name", "file_name"})
    scalars = reader.scalars
    twice = scalars[scalars.dir_name == "nested/a-b/twice"]
    assert twice.value.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]  # by file
    assert twice.file_name.nunique() == 2
    loss = scalars[(scalars.dir_name == "tbx") & (scalars.tag == "loss")]
    assert loss.step.tolist() == [0, 1, 2, 3, 3, 4, 5]
    assert loss.value.tolist()[3:5] == [0.25, 7.0]
    assert set(scalars.dir_name) >= {"tbx/grp/a", "torch/grp_b", ""} - {""}
    hist = reader.histograms.iloc[0]
    assert hist["counts"].sum() == 100
    assert hist["limits"].shape == hist["counts"].shape
    hparams = reader.hparams
    assert hparams[hparams.dir_name.str.startswith("tbx/")].value.tolist() == [True, 0.1, "adam"]
    assert reader.text.value.tolist() == ["hello", "wörld"] * 2


class _Tensor:
    def __init__(self, value: Any) -> None:
        self.value = value

    def numpy(self) -> Any:
        return self.value


@pytest.fixture
def rd_fake_tf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in for TensorFlow's image and audio decoders so that tbparse builds its
    image and audio frames (the decoded arrays are checked separately against the
    writers' inputs)."""
    fake = types.SimpleNamespace(
        image=types.SimpleNamespace(decode_image=lambda data: _Tensor(decode_image(data))),
        audio=types.SimpleNamespace(
            decode_wav=lambda data: (_Tensor(decode_wav(data)), _Tensor(np.int32(8000)))
        ),
    )
    monkeypatch.setattr("tbparse.summary_reader.tensorflow", fake)


@pytest.mark.parametrize(
    ("pivot", "extra"),
    [(False, None), (False, MEDIA_EXTRA), (True, None), (True, {"width", "sample_rate"})],
)
@pytest.mark.usefixtures("rd_fake_tf")
def test_images_and_audio_match_tbparse(
    rd_logdir: Path, pivot: bool, extra: set[str] | None
) -> None:
    expected = tbparse.SummaryReader(str(rd_logdir), pivot=pivot, extra_columns=extra)
    actual = tbnb.SummaryReader(str(rd_logdir), pivot=pivot, extra_columns=extra)
    _assert_same(expected, actual, ("images", "audio"))
    assert actual.tags == expected.tags


def test_decoded_media_equal_written_data(rd_logdir: Path) -> None:
    reader = tbnb.SummaryReader(str(rd_logdir), event_types={"images", "audio"})
    images = reader.images
    assert len(images) == 4
    for value in images[images.tag == "rgb"].value:
        np.testing.assert_array_equal(value, RGB.transpose(1, 2, 0))
    for value in images[images.tag == "grey"].value:
        assert value.shape == (4, 5, 3)  # both writers store grey as RGB
        np.testing.assert_array_equal(value, np.repeat(GREY[0][..., None], 3, axis=2))
    for value in reader.audio.value:
        assert value.dtype == np.float32
        assert value.shape == (800, 1)
        samples = value[:, 0].astype(np.float64) * 32768
        np.testing.assert_array_equal(samples, np.round(samples))  # 16-bit PCM / 2**15
        np.testing.assert_allclose(value[:, 0], SOUND, atol=3 / 32768)


def test_decode_image_modes() -> None:
    from PIL import Image

    def encode(image: Any) -> bytes:
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        return buf.getvalue()

    grey = np.arange(6, dtype=np.uint8).reshape(2, 3)
    assert decode_image(encode(Image.fromarray(grey))).shape == (2, 3, 1)
    rgba = np.zeros((2, 3, 4), dtype=np.uint8)
    np.testing.assert_array_equal(decode_image(encode(Image.fromarray(rgba))), rgba)
    pal = Image.fromarray(np.array([[0, 1]], dtype=np.uint8), mode="L").convert("P")
    assert decode_image(encode(pal)).shape == (1, 2, 3)
    bits = Image.fromarray(np.array([[True, False]]))
    np.testing.assert_array_equal(decode_image(encode(bits))[..., 0], [[255, 0]])
    deep = Image.fromarray(np.array([[0, 65535, 256]], dtype=np.uint16))
    np.testing.assert_array_equal(decode_image(encode(deep))[..., 0], [[0, 255, 1]])
    buf = io.BytesIO()
    with wave.open(buf, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(1)
        clip.setframerate(8000)
        clip.writeframes(b"\x00\x01")
    with pytest.raises(ValueError, match="16-bit"):
        decode_wav(buf.getvalue())


def test_images_need_pillow(rd_logdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = tbnb.SummaryReader(str(rd_logdir / "tbx"), event_types={"images", "scalars"})
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert len(reader.scalars) > 0  # nothing is decoded until images are asked for
    with pytest.raises(ImportError, match="pip install pillow"):
        _ = reader.images


@pytest.mark.parametrize(
    "event_types", [{"scalars"}, {"histograms", "text"}, {"hparams"}, {"tensors", "scalars"}]
)
def test_event_types_filter(rd_logdir: Path, event_types: set[str]) -> None:
    expected = tbparse.SummaryReader(
        str(rd_logdir), event_types=event_types, extra_columns={"dir_name"}
    )
    actual = tbnb.SummaryReader(str(rd_logdir), event_types=event_types, extra_columns={"dir_name"})
    if "text" in event_types and "tensors" not in event_types:
        # documented: tbparse then keeps only the last text of each tag in each file
        text = actual.text.drop_duplicates(["dir_name", "tag"], keep="last")
        assert_frame_equal(text.reset_index(drop=True), expected.text)
        assert_frame_equal(
            actual.text, tbnb.SummaryReader(str(rd_logdir), extra_columns={"dir_name"}).text
        )
    compared = tuple(event_types - {"text"}) if "tensors" not in event_types else tuple(event_types)
    _assert_same(expected, actual, compared)
    assert actual.tags == expected.tags
    for other in set(NON_MEDIA) - event_types:
        with pytest.raises(ValueError, match=f"event_type is ignored by user: {other}"):
            actual.get_events(other)


@pytest.mark.parametrize("pivot", [False, True])
def test_single_file_log_path(rd_logdir: Path, pivot: bool) -> None:
    (path,) = (rd_logdir / "torch").glob("events.out.tfevents.*")
    expected = tbparse.SummaryReader(str(path), pivot=pivot, extra_columns=EXTRA)
    actual = tbnb.SummaryReader(str(path), pivot=pivot, extra_columns=EXTRA)
    _assert_same(expected, actual, NON_MEDIA)
    assert actual.scalars.dir_name.unique().tolist() == [""]
    assert actual.scalars.file_name.unique().tolist() == [path.name]
    assert actual.children == {}
    assert actual.log_path == str(path)


def test_children_are_views(rd_logdir: Path) -> None:
    expected = tbparse.SummaryReader(str(rd_logdir), extra_columns={"dir_name"})
    actual = tbnb.SummaryReader(str(rd_logdir), extra_columns={"dir_name"})
    children = actual.children
    assert list(children) == ["nested", "tbx", "torch"]  # only what holds event files
    assert repr(children["tbx"]) == f"SummaryReader(log_path='{rd_logdir / 'tbx'}')"
    _assert_same(expected["tbx"], actual["tbx"], NON_MEDIA)
    _assert_same(expected["nested"]["a-b"], actual["nested"]["a-b"], ("scalars",))


def test_restart_within_files_as_tbparse(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(tmp_path))
    for step in range(10):
        writer.add_scalar("loss", float(step), step)
    writer.close()
    writer = SummaryWriter(str(tmp_path), purge_step=5)  # a new file starting at 5
    for step in range(5, 8):
        writer.add_scalar("loss", step + 0.5, step)
    writer.close()
    expected = tbparse.SummaryReader(str(tmp_path), extra_columns={"file_name"})
    actual = tbnb.SummaryReader(str(tmp_path), extra_columns={"file_name"})
    _assert_same(expected, actual, ("scalars",))
    assert len(actual.scalars) == 13  # each file on its own, as tbparse reads them


def test_tf2_scalars_in_scalars(rd_tf2: Path) -> None:
    """The documented difference: TF2 scalars are in ``scalars``, not ``tensors``."""
    for pivot, extra in [(False, None), (False, EXTRA), (True, {"wall_time"})]:
        expected = tbparse.SummaryReader(str(rd_tf2), pivot=pivot, extra_columns=extra)
        actual = tbnb.SummaryReader(str(rd_tf2), pivot=pivot, extra_columns=extra)
        _assert_same(expected, actual, ("text", "hparams", "histograms"))
        tensors = expected.tensors
        with pytest.warns(TbnbWarning, match="are in .scalars, not in .tensors"):
            _ = actual.tensors
        if pivot:
            # tbparse's wide wall_time also merges the other tensors' times
            assert_frame_equal(
                actual.scalars.drop(columns="wall_time"),
                tensors[["step", "acc", "loss"]].astype(float).astype({"step": "int64"}),
            )
            continue
        is_scalar = tensors.tag.isin(["loss", "acc"])
        assert_frame_equal(
            actual.scalars, tensors[is_scalar].reset_index(drop=True).astype({"value": float})
        )
        # everything else tbparse puts in tensors is there, values and dtypes equal
        assert_frame_equal(actual.tensors, tensors[~is_scalar].reset_index(drop=True))
        assert actual.tags["scalars"] == ["loss", "acc"]
        assert actual.tags["tensors"] == ["h", "im"]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"extra_columns": ["wall_time"]}, ValueError),
        ({"extra_columns": {"wall_time", "colour"}}, KeyError),
        ({"event_types": ["scalars"]}, ValueError),
        ({"event_types": {"scalars", "graphs"}}, KeyError),
    ],
)
def test_validation_as_tbparse(
    rd_logdir: Path, kwargs: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error) as theirs:
        tbparse.SummaryReader(str(rd_logdir), **kwargs)
    with pytest.raises(error) as ours:
        tbnb.SummaryReader(str(rd_logdir), **kwargs)

    def squash(e: pytest.ExceptionInfo[Exception]) -> str:
        return re.sub(r"\s+", " ", str(e.value))

    assert squash(ours) == squash(theirs)


def test_bad_paths_and_types(rd_logdir: Path) -> None:
    missing = os.path.join(str(rd_logdir), "nope")
    with pytest.raises(ValueError, match="File or directory not found"):
        tbnb.SummaryReader(missing)
    reader = tbnb.SummaryReader(str(rd_logdir / "nested"))
    with pytest.raises(ValueError, match="Unknown event_type: graphs"):
        reader.get_events("graphs")
    with pytest.raises(ValueError, match="Unknown event_type: graphs"):
        reader.get_tags("graphs")
    assert reader.get_tags("scalars") == ["x", "loss"]


def test_frames_are_fresh_copies(rd_logdir: Path) -> None:
    reader = tbnb.SummaryReader(str(rd_logdir / "tbx"))
    first = reader.scalars
    first.loc[0, "value"] = -1.0
    assert reader.scalars.loc[0, "value"] != -1.0
    assert pd.api.types.is_integer_dtype(reader.scalars.step)


def test_fsspec_url(rd_logdir: Path) -> None:
    import fsspec

    fs = fsspec.filesystem("memory")
    for path in (rd_logdir / "torch").rglob("events.out.tfevents.*"):
        rel = path.relative_to(rd_logdir / "torch").as_posix()
        fs.pipe(f"/rd_url/{rel}", path.read_bytes())
    extra = {"dir_name", "file_name", "wall_time"}
    local = tbnb.SummaryReader(str(rd_logdir / "torch"), extra_columns=extra)
    remote = tbnb.SummaryReader("memory://rd_url", extra_columns=extra)
    for event_type in NON_MEDIA:
        assert_frame_equal(remote.get_events(event_type), local.get_events(event_type))
    assert list(remote.children) == list(local.children)


def test_tensors_says_once_where_tf2_scalars_are(rd_tf2: Path, rd_logdir: Path) -> None:
    """tbparse users read TF2/Keras scalars from ``.tensors``: tbnb has them in
    ``.scalars`` and says so, naming the tags and the file, the first time."""
    reader = tbnb.SummaryReader(str(rd_tf2))
    with pytest.warns(TbnbWarning, match=r"2 TF2 scalar tag\(s\) \('loss', 'acc', in 'train/") as w:
        _ = reader.tensors
    assert "read reader.scalars" in str(w[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _ = reader.tensors  # once per reader
        _ = tbnb.SummaryReader(str(rd_logdir)).tensors  # no TF2 scalars: nothing to say


def test_mesh_tensors_as_tbparse(tmp_path: Path) -> None:
    """Mesh parts are tensors for tbparse: the same rows, each part under its own tag."""
    from tests import writers_meshes

    writers_meshes.write_torch(str(tmp_path / "torch"))
    writers_meshes.write_tensorboard(str(tmp_path / "tb"))
    for extra in (None, {"dir_name", "wall_time"}):
        expected = tbparse.SummaryReader(str(tmp_path), extra_columns=extra)
        actual = tbnb.SummaryReader(str(tmp_path), extra_columns=extra)
        _assert_same(expected, actual, ("tensors",))
        assert len(actual.tensors) > 20
