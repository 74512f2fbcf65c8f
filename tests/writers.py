"""Write TensorBoard logdirs with real writers, and remember what was written.

Each ``write_*`` function writes one logdir with a real writer (torch's
``SummaryWriter``, tensorboardX's ``SummaryWriter``, or tensorboard's TF-free
``EventFileWriter`` with the ``summary_v2`` helpers, which produce exactly the
tensor forms TF2's ``tf.summary`` writes) and returns a :class:`Written` holding the
values it was given, as the writer stores them, so tests compare the loader's
frames with the inputs rather than with the loader's own output.

:func:`reference_values` reads an event file with TensorBoard's own reader and its
``data_compat`` migration: an independent oracle for what a file holds.

:func:`cached` writes each logdir once per test process; tests that modify a
logdir copy it first (:func:`copy_logdir`).
"""

from __future__ import annotations

import atexit
import glob
import io
import math
import os
import shutil
import struct
import tempfile
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

WALL0 = 1.7e9
"""Wall time of the first value each writer writes (writers that take one)."""


@dataclass
class Written:
    """What a ``write_*`` function wrote, by kind, as ``(run, tag, step, ...)`` tuples."""

    logdir: str
    writer: str
    scalars: list[tuple[str, str, int, float]] = field(default_factory=list)
    histograms: list[tuple[str, str, int, np.ndarray]] = field(default_factory=list)
    images: list[tuple[str, str, int, int, np.ndarray]] = field(default_factory=list)
    audio: list[tuple[str, str, int, int, np.ndarray, int]] = field(default_factory=list)
    text: list[tuple[str, str, int, str]] = field(default_factory=list)
    pr_curves: list[tuple[str, str, int, np.ndarray, np.ndarray, int]] = field(default_factory=list)
    hparams: dict[str, tuple[dict[str, Any], dict[str, float]]] = field(default_factory=dict)
    tensors: list[tuple[str, str, int, np.ndarray]] = field(default_factory=list)

    def runs(self) -> set[str]:
        """Every run that holds at least one value of any kind."""
        rows: list[tuple[Any, ...]] = [
            *self.scalars,
            *self.histograms,
            *self.images,
            *self.audio,
            *self.text,
            *self.pr_curves,
            *self.tensors,
        ]
        return {r[0] for r in rows}


def f32(x: float) -> float:
    """``x`` as a float32 holds it (``simple_value`` is a float32 on the wire)."""
    return float(np.float32(x))


# ---------------------------------------------------------------- input data


def image_chw(seed: int, height: int = 6, width: int = 8, channels: int = 3) -> np.ndarray:
    """A small random ``uint8`` image in CHW layout."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (channels, height, width), dtype=np.uint8)


def sine(n: int = 400, rate: int = 8000, freq: float = 440.0) -> np.ndarray:
    """A sine clip in [-0.5, 0.5] as float32."""
    t = np.arange(n) / rate
    return (0.5 * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def pr_inputs(seed: int, n: int = 40, num_thresholds: int = 11) -> tuple[np.ndarray, np.ndarray]:
    """Labels and predictions placed mid-bucket, so every writer buckets them alike."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n).astype(bool)
    buckets = rng.integers(0, num_thresholds - 1, n)
    predictions = ((buckets + 0.5) / (num_thresholds - 1)).astype(np.float32)
    return labels, predictions


def expected_pr(labels: np.ndarray, predictions: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """The PR curve a writer stores: counts of predictions at or above each threshold."""
    bucket = np.floor(predictions.astype(np.float64) * (n - 1)).astype(int)
    tp = np.array([np.sum(labels & (bucket >= i)) for i in range(n)], dtype=np.float64)
    fp = np.array([np.sum(~labels & (bucket >= i)) for i in range(n)], dtype=np.float64)
    return {
        "true_positives": tp,
        "false_positives": fp,
        "true_negatives": fp[0] - fp,
        "false_negatives": tp[0] - tp,
    }


def png_bytes(hwc: np.ndarray) -> bytes:
    """Encode an HWC ``uint8`` image as PNG (what TF2's ``tf.summary.image`` stores)."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(hwc.squeeze(-1) if hwc.shape[-1] == 1 else hwc).save(out, format="PNG")
    return out.getvalue()


def wav_bytes(clip: np.ndarray, rate: int) -> bytes:
    """Encode a float clip as 16-bit mono WAV (what the writers store)."""
    pcm = (clip * np.iinfo(np.int16).max).astype("<i2")
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return out.getvalue()


def decode_wav(data: bytes) -> tuple[np.ndarray, int]:
    """Samples (float, -1..1; ``[frames, channels]`` when stereo) and rate of a 16-bit WAV."""
    with wave.open(io.BytesIO(data)) as w:
        rate, channels = w.getframerate(), w.getnchannels()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    samples = pcm / np.iinfo(np.int16).max
    return (samples.reshape(-1, channels) if channels > 1 else samples), rate


def decode_png(data: bytes) -> np.ndarray:
    """An encoded image as an HWC ``uint8`` array."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        array = np.asarray(image)
    return array[..., None] if array.ndim == 2 else array


# ---------------------------------------------------------------- torch / tensorboardX


def _write_pytorch_style(logdir: str, module: str) -> Written:
    """Every kind through a torch-style ``SummaryWriter`` (torch or tensorboardX)."""
    import importlib

    summary_writer: Any = importlib.import_module(
        "torch.utils.tensorboard" if module == "torch" else "tensorboardX"
    ).SummaryWriter
    out = Written(logdir=logdir, writer=module)
    w = summary_writer(logdir)
    for step in range(12):
        loss = 1.0 / (step + 1)
        w.add_scalar("train/loss", loss, step, walltime=WALL0 + step)
        out.scalars.append((".", "train/loss", step, f32(loss)))
        w.add_scalars("acc", {"train": step / 10, "val": step / 20}, step, walltime=WALL0 + step)
        # torch names the sub-runs acc_train, acc_val; tensorboardX acc/train, acc/val
        sep = "_" if module == "torch" else "/"
        out.scalars.append((f"acc{sep}train", "acc", step, f32(step / 10)))
        out.scalars.append((f"acc{sep}val", "acc", step, f32(step / 20)))
    if module == "torch":  # TF2-style tensor scalars, float32 and float64
        for step in range(3):
            w.add_scalar("new_style", step * 0.1, step, walltime=WALL0, new_style=True)
            out.scalars.append((".", "new_style", step, f32(step * 0.1)))
            w.add_scalar(
                "double", step / 3, step, walltime=WALL0, new_style=True, double_precision=True
            )
            out.scalars.append((".", "double", step, step / 3))
    rng = np.random.default_rng(1)
    for step in (0, 5):
        values = rng.normal(size=500) + step
        w.add_histogram("weights", values, step, walltime=WALL0 + step)
        out.histograms.append((".", "weights", step, values))
    image = image_chw(2)
    w.add_image("sample", image, 3, walltime=WALL0)
    out.images.append((".", "sample", 3, 0, image.transpose(1, 2, 0)))
    batch = np.stack([image_chw(3), image_chw(4)])
    w.add_images("batch", batch, 4, walltime=WALL0)
    # torch-style writers tile a batch into one grid image: one sample
    out.images.append((".", "batch", 4, 0, np.zeros(0, dtype=np.uint8)))
    clip = sine()
    if module != "torch":  # tensorboardX writes [frames, channels]: a stereo clip
        clip = np.stack([clip, -clip / 2], axis=1)
    w.add_audio("tone", clip, 2, sample_rate=8000, walltime=WALL0)
    out.audio.append((".", "tone", 2, 0, clip, 8000))
    note = "héllo wörld ✓\nsecond line"
    w.add_text("note", note, 1, walltime=WALL0)
    out.text.append((".", "note/text_summary", 1, note))  # both writers add the suffix
    labels, predictions = pr_inputs(5)
    w.add_pr_curve("pr", labels, predictions, 6, num_thresholds=11, walltime=WALL0)
    out.pr_curves.append((".", "pr", 6, labels, predictions, 11))
    w.add_custom_scalars({"group": {"losses": ["Multiline", ["train/loss"]]}})
    w.add_embedding(rng.normal(size=(5, 4)), metadata=list("abcde"), global_step=0)
    hp = {"lr": 0.01, "optimizer": "adam", "layers": 3}
    metrics = {"hp/accuracy": 0.875}
    before = set(os.listdir(logdir))
    w.add_hparams(hp, metrics)
    # both writers put the hparams in a new sub-run named by the time; the loader
    # merges it back into its parent run
    (sub_run,) = set(os.listdir(logdir)) - before
    out.hparams["."] = (hp, metrics)
    out.scalars.append((sub_run, "hp/accuracy", 0, f32(0.875)))
    w.close()
    return out


def write_torch(logdir: str) -> Written:
    """Every kind written by ``torch.utils.tensorboard.SummaryWriter``."""
    return _write_pytorch_style(logdir, "torch")


def write_tbx(logdir: str) -> Written:
    """Every kind written by ``tensorboardX.SummaryWriter``."""
    return _write_pytorch_style(logdir, "tensorboardX")


# ---------------------------------------------------------------- TF2 tensor forms


def _event_writer(logdir: str, suffix: str = "") -> Any:
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    return EventFileWriter(logdir, filename_suffix=suffix)


def _summary_event(summary: Any, step: int, wall_time: float) -> Any:
    from tensorboard.compat.proto import event_pb2

    return event_pb2.Event(wall_time=wall_time, step=step, summary=summary)


class _TF2Writer:
    """Writes summaries as TF2 does: a tag's metadata on its first event only."""

    def __init__(self, logdir: str, suffix: str = "") -> None:
        self.writer = _event_writer(logdir, suffix)
        self.described: set[str] = set()

    def write(self, summary: Any, step: int, wall_time: float = WALL0) -> None:
        for value in summary.value:
            if value.tag in self.described:
                value.ClearField("metadata")
            self.described.add(value.tag)
        self.writer.add_event(_summary_event(summary, step, wall_time))

    def close(self) -> None:
        self.writer.close()


def tf2_double_scalar(tag: str, value: float) -> Any:
    """A ``tf.summary.scalar`` of a float64 tensor: rank-0 ``DT_DOUBLE``."""
    from tensorboard.compat.proto import summary_pb2, tensor_pb2
    from tensorboard.plugins.scalar import metadata

    tensor = tensor_pb2.TensorProto(dtype=2, double_val=[value])
    tensor.tensor_shape.SetInParent()
    return summary_pb2.Summary(
        value=[
            summary_pb2.Summary.Value(
                tag=tag, tensor=tensor, metadata=metadata.create_summary_metadata("", "")
            )
        ]
    )


def tf2_images(tag: str, images_hwc: list[np.ndarray]) -> Any:
    """A ``tf.summary.image``: string tensor ``[w, h, png, png, ...]``."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.image import metadata
    from tensorboard.util import tensor_util

    height, width = images_hwc[0].shape[:2]
    items = [str(width).encode(), str(height).encode(), *(png_bytes(i) for i in images_hwc)]
    tensor = tensor_util.make_tensor_proto(np.array(items, dtype=object))
    meta = metadata.create_summary_metadata("", "", converted_to_tensor=True)
    return summary_pb2.Summary(
        value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor, metadata=meta)]
    )


def tf2_audio(tag: str, clips: list[np.ndarray], labels: list[str], rate: int) -> Any:
    """A ``tf.summary.audio``: string tensor ``[n, 2]`` of (WAV, label)."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.audio import metadata
    from tensorboard.util import tensor_util

    items = np.array(
        [[wav_bytes(c, rate), label.encode()] for c, label in zip(clips, labels, strict=True)],
        dtype=object,
    )
    tensor = tensor_util.make_tensor_proto(items)
    meta = metadata.create_summary_metadata(
        "", "", metadata.Encoding.Value("WAV"), converted_to_tensor=True
    )
    return summary_pb2.Summary(
        value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor, metadata=meta)]
    )


def tf2_pr_curve(tag: str, data: np.ndarray, num_thresholds: int) -> Any:
    """A ``pr_curve`` summary: float32 tensor ``[6, num_thresholds]`` (TP, FP, TN, FN, P, R)."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.pr_curve import metadata
    from tensorboard.util import tensor_util

    tensor = tensor_util.make_tensor_proto(data.astype(np.float32))
    meta = metadata.create_summary_metadata("", "", num_thresholds)
    return summary_pb2.Summary(
        value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor, metadata=meta)]
    )


def write_tf2(logdir: str) -> Written:
    """Every kind in the tensor forms TF2's ``tf.summary`` writes (TF-free helpers)."""
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb
    from tensorboard.plugins.hparams import summary_v2 as hp_summary
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb
    from tensorboard.plugins.text.summary_v2 import text_pb

    out = Written(logdir=logdir, writer="tf2")
    w = _TF2Writer(logdir, ".v2")
    for step in range(10):
        w.write(scalar_pb("loss", 2.0 - step / 8), step, WALL0 + step)
        out.scalars.append((".", "loss", step, f32(2.0 - step / 8)))
    specials = [math.nan, math.inf, -math.inf, 1e300, -1e-300, 0.1]
    for step, value in enumerate(specials):
        w.write(tf2_double_scalar("special", value), step, WALL0)
        out.scalars.append((".", "special", step, value))
    rng = np.random.default_rng(7)
    for step in (0, 1):
        values = rng.uniform(-2, 3, size=300)
        w.write(histogram_pb("dist", values, buckets=20), step, WALL0 + step)
        out.histograms.append((".", "dist", step, values))
    images = [image_chw(11).transpose(1, 2, 0), image_chw(12).transpose(1, 2, 0)]
    w.write(tf2_images("pics", images), 2, WALL0)
    out.images += [(".", "pics", 2, i, img) for i, img in enumerate(images)]
    gray = [image_chw(13, channels=1).transpose(1, 2, 0)]
    w.write(tf2_images("pics", gray), 3, WALL0)
    out.images.append((".", "pics", 3, 0, gray[0]))
    clips = [sine(300, 16000, 220.0), sine(200, 16000, 880.0)]
    w.write(tf2_audio("voice", clips, ["low", "hígh"], 16000), 1, WALL0)
    out.audio += [(".", "voice", 1, i, c, 16000) for i, c in enumerate(clips)]
    for step, text in enumerate(["plain", "ünïcode ✓", "**markdown**\n\nline"]):
        w.write(text_pb("log", text), step, WALL0)
        out.text.append((".", "log", step, text))
    labels, predictions = pr_inputs(9, num_thresholds=7)
    curve = expected_pr(labels, predictions, 7)
    tp, fp, tn, fn = (
        curve[k] for k in ("true_positives", "false_positives", "true_negatives", "false_negatives")
    )
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    w.write(tf2_pr_curve("roc", np.stack([tp, fp, tn, fn, precision, recall]), 7), 4, WALL0)
    out.pr_curves.append((".", "roc", 4, labels, predictions, 7))
    w.close()

    # hparams as TF2's `hp.hparams` writes them: config at the root, one trial per run
    root = _TF2Writer(logdir, ".v2")
    hparams_list = [
        hp_summary.HParam("lr", hp_summary.RealInterval(1e-4, 1.0)),
        hp_summary.HParam("units", hp_summary.Discrete([16, 32])),
    ]
    root.write(hp_summary.hparams_config_pb(hparams_list, [hp_summary.Metric("accuracy")]), 0)
    root.close()
    for trial, (lr, units) in enumerate([(0.1, 16), (0.01, 32)]):
        run = f"trial{trial}"
        tw = _TF2Writer(os.path.join(logdir, run), ".v2")
        tw.write(hp_summary.hparams_pb({"lr": lr, "units": units}, trial_id=run), 0)
        for step in range(3):
            acc = 0.5 + trial / 10 + step / 100
            tw.write(scalar_pb("accuracy", acc), step)
            out.scalars.append((run, "accuracy", step, f32(acc)))
        tw.close()
        out.hparams[run] = ({"lr": lr, "units": units}, {"accuracy": f32(0.5 + trial / 10 + 0.02)})
    return out


def write_keras_like(logdir: str) -> Written:
    """The Keras ``TensorBoard`` callback's layout: ``train/`` and ``validation/`` runs."""
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb

    out = Written(logdir=logdir, writer="keras")
    rng = np.random.default_rng(3)
    for run in ("train", "validation"):
        w = _TF2Writer(os.path.join(logdir, run), ".v2")
        for epoch in range(4):
            loss = 1.0 / (epoch + 2) + (0.1 if run == "validation" else 0.0)
            w.write(scalar_pb("epoch_loss", loss), epoch, WALL0 + epoch)
            out.scalars.append((run, "epoch_loss", epoch, f32(loss)))
            w.write(scalar_pb("epoch_accuracy", 1 - loss), epoch, WALL0 + epoch)
            out.scalars.append((run, "epoch_accuracy", epoch, f32(1 - loss)))
            if run == "train":
                kernel = rng.normal(size=64)
                w.write(histogram_pb("dense/kernel_0", kernel, buckets=8), epoch, WALL0 + epoch)
                out.histograms.append((run, "dense/kernel_0", epoch, kernel))
        w.close()
    return out


WRITERS: dict[str, Callable[[str], Written]] = {
    "torch": write_torch,
    "tensorboardX": write_tbx,
    "tf2": write_tf2,
    "keras": write_keras_like,
}

# ---------------------------------------------------------------- caching and files

_CACHE: dict[str, Written] = {}
_BASE: list[str] = []


def cached(name: str) -> Written:
    """The logdir ``WRITERS[name]`` writes, written once per process (do not modify it)."""
    if name not in _CACHE:
        if not _BASE:
            _BASE.append(tempfile.mkdtemp(prefix="tbnb-writers-"))
            atexit.register(shutil.rmtree, _BASE[0], True)
        logdir = os.path.join(_BASE[0], name)
        os.makedirs(logdir)
        _CACHE[name] = WRITERS[name](logdir)
    return _CACHE[name]


def copy_logdir(src: str, dst: str) -> str:
    """Copy a logdir to ``dst`` (which must not exist) and return ``dst``."""
    shutil.copytree(src, dst)
    return dst


def event_files(logdir: str) -> list[str]:
    """Every event file under ``logdir``, sorted."""
    return sorted(glob.glob(os.path.join(logdir, "**", "*tfevents*"), recursive=True))


def frame_record(data: bytes) -> bytes:
    """Frame ``data`` as one TFRecord (length, masked CRCs), as writers do."""
    from tbnb.io.crc32c import masked_crc32c

    head = struct.pack("<Q", len(data))
    return (
        head
        + struct.pack("<I", masked_crc32c(head))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def record_spans(data: bytes) -> list[tuple[int, int]]:
    """``(record start, record end)`` of every record of an intact event file."""
    spans, pos = [], 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack("<Q", data[pos : pos + 8])
        end = pos + 12 + length + 4
        if end > len(data):
            break
        spans.append((pos, end))
        pos = end
    return spans


def write_events(path: str, events: list[Any]) -> None:
    """Write ``events`` (``tbnb._proto.Event`` or tensorboard's) framed into ``path``."""
    with open(path, "wb") as f:
        for event in events:
            f.write(frame_record(event.SerializeToString()))


def reference_values(path: str) -> list[tuple[str, int, float, str, Any]]:
    """``(tag, step, wall_time, plugin, array)`` of every summary value, read by TensorBoard.

    Uses TensorBoard's own event file loader and its ``data_compat`` migration of
    legacy values to tensors: an oracle independent of tbnb.
    """
    from tensorboard import data_compat
    from tensorboard.backend.event_processing import event_file_loader
    from tensorboard.util import tensor_util

    rows = []
    for event in event_file_loader.LegacyEventFileLoader(path).Load():
        if not event.HasField("summary"):
            continue
        for value in event.summary.value:
            migrated = data_compat.migrate_value(value)
            array = (
                tensor_util.make_ndarray(migrated.tensor) if migrated.HasField("tensor") else None
            )
            rows.append(
                (
                    value.tag,
                    int(event.step),
                    float(event.wall_time),
                    migrated.metadata.plugin_data.plugin_name,
                    array,
                )
            )
    return rows


def _cells_equal(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return (
            a.shape == b.shape
            and a.dtype == b.dtype
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
        )
    if hasattr(a, "read") and hasattr(a, "offset"):  # tbnb.loader.blobs.Blob
        return repr(a) == repr(b) and a.path == b.path and a.value_index == b.value_index
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return bool(type(a) is type(b) and a == b)


def assert_frames_identical(left: Any, right: Any) -> None:
    """``pandas.testing.assert_frame_equal``, plus a cell-by-cell check of object columns
    (numpy arrays compared by dtype, shape and values; blobs by where they point)."""
    import pandas as pd

    plain = [c for c in left.columns if left[c].dtype != object]
    pd.testing.assert_frame_equal(left[plain], right[plain])
    assert list(left.columns) == list(right.columns)
    for column in left.columns:
        if left[column].dtype != object:
            continue
        for i, (a, b) in enumerate(zip(left[column], right[column], strict=True)):
            assert _cells_equal(a, b), f"column {column!r} row {i}: {a!r} != {b!r}"


def ensure_compiled(group: str) -> None:
    """Compile a group of numba kernels now (once per cache), and load them in this process
    (tests of the compiled path must know it really ran)."""
    from tbnb import jit
    from tbnb.jit import loading

    assert jit.compile_now(group), f"the {group} kernels failed to compile"
    assert jit.load(group), loading.problems
