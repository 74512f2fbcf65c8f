"""tbnb.SummaryReader's static helpers against tbparse 0.0.9's, on the same inputs.

tbparse decodes images and audio with TensorFlow: here it gets a stand-in built on
independent decoders (Pillow for images, soundfile for WAV), and tbnb's own decoders
must give the same arrays.
"""

from __future__ import annotations

import io
import types
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.compat.tbparse import SummaryReader

tbparse = pytest.importorskip("tbparse")
Reference = tbparse.SummaryReader

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:tbparse")


def _histograms() -> list[tuple[np.ndarray, np.ndarray]]:
    """(counts, limits) pairs: real ones from tensorboardX and torch, and odd ones."""
    from tensorboardX import SummaryWriter

    rng = np.random.default_rng(0)
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as logdir:
        with SummaryWriter(logdir) as writer:
            writer.add_histogram("normal", rng.normal(size=1000), 0)
            writer.add_histogram("ints", np.arange(10), 1)
            writer.add_histogram("one", np.full(5, 3.0), 2)
        frame = tbnb.SummaryReader(logdir, event_types={"histograms"}).histograms
        out += [
            (np.asarray(c), np.asarray(lim))
            for c, lim in zip(frame["counts"], frame["limits"], strict=True)
        ]
    out.append((np.array([0, 3, 0, 5, 2]), np.array([-1.0, 0.0, 0.0, 2.5, np.inf])))
    out.append((np.array([0.0, 1.5, 2.5]), np.array([-np.inf, 0.0, 1.0])))
    out.append((np.array([0, 7]), np.array([2, 4])))
    return out


HISTOGRAMS = _histograms()
XS = [np.linspace(-3, 3, 13), np.array([-10.0, 0.0, 0.5, 1.0, 2.5, 100.0]), np.array([2, 3, 4, 5])]


@pytest.mark.parametrize("index", range(len(HISTOGRAMS)))
def test_cdf_and_pdf_equal_tbparse(index: int) -> None:
    counts, limits = HISTOGRAMS[index]
    for x in XS:
        with np.errstate(all="ignore"):
            expected = Reference.histogram_to_cdf(counts, limits, x)
            got = SummaryReader.histogram_to_cdf(counts, limits, x)
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == expected.dtype
            for a, b in zip(
                SummaryReader.histogram_to_pdf(counts, limits, x),
                Reference.histogram_to_pdf(counts, limits, x),
                strict=True,
            ):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("index", range(len(HISTOGRAMS)))
@pytest.mark.parametrize("bounds", [(None, None), (-2.0, 2.0), (0.0, 0.0), (1.0, 7.5)])
@pytest.mark.parametrize("n_bins", [1, 30, 7])
def test_bins_equal_tbparse(index: int, bounds: tuple[Any, Any], n_bins: int) -> None:
    counts, limits = HISTOGRAMS[index]
    lower, upper = bounds
    with np.errstate(all="ignore"):
        expected = Reference.histogram_to_bins(counts, limits, lower, upper, n_bins)
        got = SummaryReader.histogram_to_bins(counts, limits, lower, upper, n_bins)
    np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(expected[0]))
    np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(expected[1]))
    assert [type(v) for v in got[1]] == [type(v) for v in expected[1]]


def test_histogram_dicts_equal_tbparse() -> None:
    tensor = np.array([[0.0, 1.0, 2.0], [1.0, 2.5, 3.0], [2.5, 4.0, 0.0]])
    for name in ("tensor_to_histogram", "buckets_to_histogram_dict"):
        got = getattr(SummaryReader, name)(tensor)
        expected = getattr(Reference, name)(tensor)
        assert got.keys() == expected.keys()
        for key in got:
            np.testing.assert_array_equal(got[key], expected[key])


def test_invalid_cdf_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="increasing"):
        SummaryReader.histogram_to_cdf([0, 1], [0.0, 1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="length"):
        SummaryReader.histogram_to_cdf([0, 1, 2], [0.0, 1.0], [0.5])


class _Tensor:
    def __init__(self, value: Any) -> None:
        self.value = value

    def numpy(self) -> Any:
        return self.value


@pytest.fixture
def independent_tf(monkeypatch: pytest.MonkeyPatch) -> None:
    """TensorFlow's decoders for tbparse, from Pillow and soundfile (not tbnb's)."""
    import soundfile
    from PIL import Image

    def decode_image(data: bytes) -> _Tensor:
        return _Tensor(np.asarray(Image.open(io.BytesIO(data))))

    def decode_wav(data: bytes) -> tuple[_Tensor, _Tensor]:
        samples, rate = soundfile.read(io.BytesIO(data), dtype="float32", always_2d=True)
        return _Tensor(samples), _Tensor(np.int32(rate))

    fake = types.SimpleNamespace(
        image=types.SimpleNamespace(decode_image=decode_image),
        audio=types.SimpleNamespace(decode_wav=decode_wav),
    )
    monkeypatch.setattr("tbparse.summary_reader.tensorflow", fake)


def _png(array: np.ndarray) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


def _wav(samples: np.ndarray, rate: int) -> bytes:
    import wave

    buf = io.BytesIO()
    with wave.open(buf, "wb") as clip:
        clip.setnchannels(samples.shape[1])
        clip.setsampwidth(2)
        clip.setframerate(rate)
        clip.writeframes((samples * 32767).astype("<i2").tobytes())
    return buf.getvalue()


@pytest.mark.usefixtures("independent_tf")
def test_image_and_audio_tensors_equal_tbparse() -> None:
    rng = np.random.default_rng(1)
    images = [rng.integers(0, 256, (4, 6, 3), dtype=np.uint8) for _ in range(2)]
    for count in (1, 2):
        tensor = np.array([b"6", b"4", *(_png(a) for a in images[:count])], dtype=object)
        got, expected = SummaryReader.tensor_to_image(tensor), Reference.tensor_to_image(tensor)
        assert got.keys() == expected.keys()
        np.testing.assert_array_equal(got["image"], expected["image"])
        assert (got["width"], got["height"]) == (expected["width"], expected["height"]) == (6, 4)
    clips = [rng.uniform(-1, 1, (50, channels)) for channels in (1, 1)]
    for count in (1, 2):
        tensor = np.array([[_wav(c, 8000), b""] for c in clips[:count]], dtype=object)
        got, expected = SummaryReader.tensor_to_audio(tensor), Reference.tensor_to_audio(tensor)
        assert got.keys() == expected.keys()
        np.testing.assert_array_equal(got["audio"], expected["audio"])
        np.testing.assert_array_equal(got["sample_rate"], expected["sample_rate"])
        assert got["sample_rate"].dtype == expected["sample_rate"].dtype
        assert (got["content_type"], got["length_frames"]) == (
            expected["content_type"],
            expected["length_frames"],
        )
