"""Media logdirs written by real writers: images, audio and text over many steps.

Each ``write_media_*`` writes two runs (``a`` and ``b``) with a real writer and returns a
:class:`~tests.writers.Written` of what it was given:

- torch's ``SummaryWriter``: an image per step (``add_image``), a batch tiled into one
  grid (``add_images``), a JPEG (a ``Summary.Image`` of JPEG bytes through the writer's
  file writer, as a custom writer would log photos), a clip per step (``add_audio``) and
  markdown per step (``add_text``);
- tensorboardX: the same, and an animated GIF (the ``Summary.Image`` its ``add_video``
  writes, encoded here with Pillow since moviepy is not needed for it);
- TF2's ``tf.summary`` wire format (tensorboard's TF-free helpers): three images per step
  (``max_outputs=3``), two labelled clips per step, markdown, a 2-D table and a rank-3
  text tensor;
- PyTorch Lightning's ``TensorBoardLogger`` (its ``experiment``, as a LightningModule logs
  media), with scalars through ``log_metrics``.

:func:`provider_blobs` and :func:`provider_texts` read a logdir with TensorBoard's own data
provider (what its images, audio and text plugins read), keeping every step.
"""

from __future__ import annotations

import io
import os
from typing import Any

import numpy as np

from tests.writers import (
    WALL0,
    Written,
    _TF2Writer,
    image_chw,
    png_bytes,
    sine,
    tf2_audio,
    tf2_images,
)

STEPS = (0, 10, 20, 30)
RUNS = ("a", "b")


def jpeg_bytes(hwc: np.ndarray, quality: int = 90) -> bytes:
    """Encode an HWC ``uint8`` image as JPEG."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(hwc).save(out, format="JPEG", quality=quality)
    return out.getvalue()


def gif_bytes(frames: list[np.ndarray], ms: int = 80) -> bytes:
    """Encode HWC ``uint8`` frames as an animated GIF."""
    from PIL import Image

    images = [Image.fromarray(f) for f in frames]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=ms, loop=0)
    return out.getvalue()


def chirp(n: int, rate: int, f0: float) -> np.ndarray:
    """A rising tone in [-0.5, 0.5], float32."""
    t = np.arange(n) / rate
    return (0.5 * np.sin(2 * np.pi * (f0 + 300 * t) * t)).astype(np.float32)


def _raw_image(tag: str, data: bytes, width: int, height: int, module: str) -> Any:
    """A ``Summary`` holding one encoded image, in the writer's own protobuf classes."""
    if module == "tensorboardX":
        from tensorboardX.proto.summary_pb2 import Summary
    else:
        from tensorboard.compat.proto.summary_pb2 import Summary

    image = Summary.Image(height=height, width=width, colorspace=3, encoded_image_string=data)
    return Summary(value=[Summary.Value(tag=tag, image=image)])


def _pytorch_style(logdir: str, module: str) -> Written:
    import importlib

    summary_writer: Any = importlib.import_module(
        "torch.utils.tensorboard" if module == "torch" else "tensorboardX"
    ).SummaryWriter
    out = Written(logdir=logdir, writer=module)
    for k, run in enumerate(RUNS):
        w = summary_writer(os.path.join(logdir, run))
        for i, step in enumerate(STEPS):
            wall = WALL0 + step
            img = image_chw(100 * k + i, height=12, width=16)
            w.add_image("samples/img", img, step, walltime=wall)
            out.images.append((run, "samples/img", step, 0, img.transpose(1, 2, 0)))
            clip = chirp(800, 8000, 200.0 * (i + 1))
            w.add_audio("speech/tone", clip, step, sample_rate=8000, walltime=wall)
            out.audio.append((run, "speech/tone", step, 0, clip, 8000))
            note = f"# step {step}\n\nloss is **{1 / (step + 1):.3f}** in `{run}`"
            w.add_text("notes", note, step, walltime=wall)
            out.text.append((run, "notes/text_summary", step, note))
            photo = image_chw(500 + 10 * k + i, height=20, width=24).transpose(1, 2, 0)
            summary = _raw_image("photos/jpeg", jpeg_bytes(photo), 24, 20, module)
            w._get_file_writer().add_summary(summary, step, walltime=wall)
            out.images.append((run, "photos/jpeg", step, 0, np.zeros(0, np.uint8)))
        batch = np.stack([image_chw(7 + k), image_chw(8 + k)])
        w.add_images("batch", batch, 5, walltime=WALL0)
        out.images.append((run, "batch", 5, 0, np.zeros(0, np.uint8)))
        if module == "tensorboardX":
            frames = [image_chw(40 + f, height=10, width=10).transpose(1, 2, 0) for f in range(4)]
            gif = _raw_image("clips/gif", gif_bytes(frames), 10, 10, module)
            w._get_file_writer().add_summary(gif, 3, walltime=WALL0)
            out.images.append((run, "clips/gif", 3, 0, np.zeros(0, np.uint8)))
        w.close()
    return out


def write_media_torch(logdir: str) -> Written:
    """Images (PNG, a grid, JPEG), audio and text per step with torch's ``SummaryWriter``."""
    return _pytorch_style(logdir, "torch")


def write_media_tbx(logdir: str) -> Written:
    """The same with tensorboardX, plus an animated GIF."""
    return _pytorch_style(logdir, "tensorboardX")


def write_media_tf2(logdir: str) -> Written:
    """TF2's tensor forms: 3 images per step, 2 labelled clips per step, text tensors."""
    from tensorboard.plugins.text.summary_v2 import text_pb

    out = Written(logdir=logdir, writer="tf2")
    for k, run in enumerate(RUNS):
        w = _TF2Writer(os.path.join(logdir, run), ".v2")
        for i, step in enumerate(STEPS):
            images = [
                image_chw(1000 + 10 * k + 3 * i + s, height=8, width=8).transpose(1, 2, 0)
                for s in range(3)
            ]
            w.write(tf2_images("gen/samples", images), step, WALL0 + step)
            out.images += [(run, "gen/samples", step, s, img) for s, img in enumerate(images)]
            clips = [sine(400, 16000, 300.0 * (i + 1)), chirp(600, 16000, 100.0)]
            w.write(tf2_audio("speech/pair", clips, ["sine", "chírp"], 16000), step, WALL0 + step)
            out.audio += [(run, "speech/pair", step, s, c, 16000) for s, c in enumerate(clips)]
            note = f"**step {step}**\n\n```\ncode {k}\n```"
            w.write(text_pb("log", note), step, WALL0 + step)
            out.text.append((run, "log", step, note))
            table = np.array(
                [["metric", "value"], ["acc", f"{0.5 + step / 100:.2f}"]], dtype=object
            )
            w.write(text_pb("table", table), step, WALL0 + step)
        cube = np.array([[["x", "y"], ["z", "w"]], [["p", "q"], ["r", "s"]]], dtype=object)
        w.write(text_pb("cube", cube), 0, WALL0)
        w.close()
    return out


def write_media_lightning(logdir: str) -> Written:
    """Media through Lightning's ``TensorBoardLogger`` (its ``experiment``), with metrics."""
    from lightning.pytorch.loggers import TensorBoardLogger

    out = Written(logdir=logdir, writer="lightning")
    for k, run in enumerate(RUNS):
        logger = TensorBoardLogger(logdir, name=run, version=0)
        writer = logger.experiment
        name = f"{run}/version_0"
        for i, step in enumerate(STEPS):
            logger.log_metrics({"loss": 1.0 / (step + 1)}, step=step)
            img = image_chw(2000 + 10 * k + i, height=6, width=6)
            writer.add_image("val/inputs", img, step)
            out.images.append((name, "val/inputs", step, 0, img.transpose(1, 2, 0)))
            clip = sine(320, 8000, 440.0 + 110 * i)
            writer.add_audio("val/audio", clip, step, sample_rate=8000)
            out.audio.append((name, "val/audio", step, 0, clip, 8000))
            writer.add_text("val/notes", f"epoch {i}: *ok*", step)
            out.text.append((name, "val/notes/text_summary", step, f"epoch {i}: *ok*"))
        logger.finalize("success")
    return out


MEDIA_WRITERS = {
    "torch": write_media_torch,
    "tensorboardX": write_media_tbx,
    "tf2": write_media_tf2,
    "lightning": write_media_lightning,
}

_CACHE: dict[str, Written] = {}


def cached_media(name: str) -> Written:
    """The media logdir ``MEDIA_WRITERS[name]`` writes, once per process (do not modify it)."""
    if name not in _CACHE:
        import atexit
        import shutil
        import tempfile

        base = tempfile.mkdtemp(prefix=f"tbnb-media-{name}-")
        atexit.register(shutil.rmtree, base, True)
        _CACHE[name] = MEDIA_WRITERS[name](os.path.join(base, "logs"))
    return _CACHE[name]


def _provider(logdir: str) -> tuple[Any, Any]:
    from tensorboard import context
    from tensorboard.backend.event_processing import data_provider
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem

    mux = pem.EventMultiplexer(tensor_size_guidance={"images": 0, "audio": 0, "text": 0})
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    return data_provider.MultiplexerDataProvider(mux, logdir), context.RequestContext()


def provider_blobs(
    logdir: str, plugin: str
) -> dict[tuple[str, str, int, int], tuple[float, bytes]]:
    """``(run, tag, step, sample) -> (wall_time, bytes)`` of every image or clip, as
    TensorBoard's data provider serves them to its images and audio plugins (every step:
    no reservoir). Images skip the width and height TF2 tensors start with, as the images
    plugin does."""
    provider, ctx = _provider(logdir)
    seqs = provider.read_blob_sequences(ctx, experiment_id="", plugin_name=plugin, downsample=10**9)
    out = {}
    for run, tags in seqs.items():
        for tag, data in tags.items():
            for datum in data:
                values = datum.values[2:] if plugin == "images" else datum.values
                for sample, ref in enumerate(values):
                    out[(run, tag, int(datum.step), sample)] = (
                        float(datum.wall_time),
                        provider.read_blob(ctx, blob_key=ref.blob_key),
                    )
    return out


def provider_texts(logdir: str) -> dict[tuple[str, str, int], tuple[float, np.ndarray]]:
    """``(run, tag, step) -> (wall_time, string array)`` of every text, as TensorBoard's text
    plugin reads them."""
    provider, ctx = _provider(logdir)
    tensors = provider.read_tensors(ctx, experiment_id="", plugin_name="text", downsample=10**9)
    return {
        (run, tag, int(d.step)): (float(d.wall_time), d.numpy)
        for run, tags in tensors.items()
        for tag, data in tags.items()
        for d in data
    }


def png_of(hwc: np.ndarray) -> bytes:
    """PNG bytes of an HWC image (re-exported for the tests)."""
    return png_bytes(hwc)


HOSTILE_TEXTS = [
    '<img src=x onerror="window.__pwned=1">',
    '"><script>window.__pwned=1</script>',
    "<a href='javascript:window.__pwned=1'>click</a>",
    "<svg onload=window.__pwned=1>",
    "<iframe src='data:text/html,<script>parent.__pwned=1</script>'></iframe>",
    "[x](javascript:window.__pwned=1) ![y](https://example.org/y.png) [ok](https://example.org)",
]
"""Text summaries that must show as text and never run (the browser tests)."""

UI_STEPS = tuple(range(0, 120, 10))


def write_ui_media(logdir: str) -> Written:
    """What the browser tests show: tensorboardX runs ``a`` and ``b`` with 12 steps of
    32x32 PNG, JPEG photos and a GIF, four clips, markdown notes and hostile texts; a TF2
    run ``c`` with three images per step and a 2-D text table."""
    from tensorboard.plugins.text.summary_v2 import text_pb
    from tensorboardX import SummaryWriter

    out = Written(logdir=logdir, writer="ui")
    for k, run in enumerate(("a", "b")):
        with SummaryWriter(os.path.join(logdir, run)) as w:
            for i, step in enumerate(UI_STEPS):
                img = image_chw(300 * k + i, height=32, width=32)
                w.add_image("samples/img", img, step, walltime=WALL0 + step)
                out.images.append((run, "samples/img", step, 0, img.transpose(1, 2, 0)))
                note = (
                    f"## step {step}\n\nloss **{1 / (step + 1):.4f}**, see `train.py`\n\n"
                    f"```python\nlr = {0.1 / (k + 1)}\n```\n\n| metric | value |\n|---|---|\n"
                    f"| acc | {0.5 + i / 40:.3f} |"
                )
                w.add_text("notes", note, step, walltime=WALL0 + step)
                out.text.append((run, "notes/text_summary", step, note))
            for i, step in enumerate(UI_STEPS[:4]):
                clip = chirp(4000, 8000, 200.0 * (i + 1) * (k + 1))
                w.add_audio("speech/tone", clip, step, sample_rate=8000, walltime=WALL0)
                out.audio.append((run, "speech/tone", step, 0, clip, 8000))
            frames = [image_chw(40 + f, height=12, width=12).transpose(1, 2, 0) for f in range(4)]
            w._get_file_writer().add_summary(
                _raw_image("clips/gif", gif_bytes(frames), 12, 12, "tensorboardX"),
                0,
                walltime=WALL0,
            )
            if run == "a":
                for step, text in enumerate(HOSTILE_TEXTS):
                    w.add_text("hostile", text, step, walltime=WALL0)
    tw = _TF2Writer(os.path.join(logdir, "c"), ".v2")
    for i, step in enumerate(UI_STEPS[:4]):
        images = [
            image_chw(900 + 3 * i + s, height=16, width=16).transpose(1, 2, 0) for s in range(3)
        ]
        tw.write(tf2_images("samples/img", images), step, WALL0 + step)
        table = np.array([["metric", "value"], ["acc", f"{i / 4:.2f}"]], dtype=object)
        tw.write(text_pb("table", table), step, WALL0 + step)
    tw.close()
    return out


HOSTILE_RUNS = ('<img src=x onerror="window.__pwned=1">', "javascript:window.__pwned=1")
"""Run names that must show as text in every media card (no "/": a run is a directory)."""

HOSTILE_TAGS = ('"><script>window.__pwned=1</script>', "<svg onload=window.__pwned=1>")
"""Tags that must show as text in every media group and card (written raw: the writers'
tag cleaning would otherwise rename them)."""


def write_hostile_media(logdir: str) -> None:
    """tensorboardX runs named :data:`HOSTILE_RUNS`, each with an image, a clip and a text
    under each of :data:`HOSTILE_TAGS` at steps 0 and 1 (texts: ``run <k> at <step>``)."""
    from tensorboardX import SummaryWriter
    from tensorboardX.summary import audio, text

    for k, run in enumerate(HOSTILE_RUNS):
        with SummaryWriter(os.path.join(logdir, run)) as w:
            writer = w._get_file_writer()
            for j, tag in enumerate(HOSTILE_TAGS):
                for step in (0, 1):
                    img = image_chw(50 * k + 10 * j + step, height=16, width=16)
                    png = png_bytes(img.transpose(1, 2, 0))
                    writer.add_summary(
                        _raw_image(tag, png, 16, 16, "tensorboardX"), step, walltime=WALL0 + step
                    )
                    clip = chirp(800, 8000, 300.0 * (step + 1))
                    writer.add_summary(audio(tag, clip, 8000), step, walltime=WALL0 + step)
                    writer.add_summary(text(tag, f"run {k} at {step}"), step, walltime=WALL0 + step)
