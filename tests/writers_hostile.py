"""Hostile logdirs: each case of issue 25 written into a logdir of real writers' files.

:func:`make_case` copies a base logdir (two runs written by torch's ``SummaryWriter``:
scalars, an ``hparams.yaml``; run ``bad`` also an embedding with metadata and a sprite,
through ``add_embedding``) and makes one thing in run ``bad`` hostile: a FIFO or a link
to a device where a file is read, a config linked from outside the logdir, a config
past its size cap, or a record crafted to claim more than it holds. The good data
around it must load, and the load must end, in bounded memory.

:func:`load_report` is what a child process runs on such a logdir (``python -m
tests.writers_hostile LOGDIR``): a load, ``exp.hparams``, ``exp.info``, the embeddings
with their vectors and sprites, reported as JSON with every tbnb warning. Tests and
``benchmarks/bench_hostile.py`` run it with a time limit and an address-space cap.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests import writers

EVENT_NAME = "events.out.tfevents.9999999999.hostile"
"""Name of the hostile event file added to run ``bad`` (sorted after the writer's)."""

STEPS = 5
"""Scalar points of tag ``loss`` in each run."""

OUTSIDE_SECRET = "viewer_secret"
"""A key of the config file outside the logdir that a link points to."""


def _write_base(logdir: Path) -> None:
    import torch
    from torch.utils.tensorboard import SummaryWriter

    for run in ("good", "bad"):
        writer = SummaryWriter(str(logdir / run))
        for step in range(STEPS):
            writer.add_scalar("loss", 1.0 / (step + 1), step, walltime=writers.WALL0 + step)
        if run == "bad":
            gen = torch.Generator().manual_seed(0)
            writer.add_embedding(
                torch.randn(9, 4, generator=gen),
                metadata=[f"p{i}" for i in range(9)],
                label_img=torch.rand(9, 3, 4, 4, generator=gen),
                global_step=1,
                tag="points",
            )
        writer.close()
        (logdir / run / "hparams.yaml").write_text(f"lr: 0.1\nrun_name: {run}\n")


_BASE: dict[str, Path] = {}


def base_logdir() -> Path:
    """The base logdir, written once per process (copy it before changing it)."""
    if "base" not in _BASE:
        root = Path(tempfile.mkdtemp(prefix="tbnb-hostile-base-"))
        _write_base(root)
        _BASE["base"] = root
    return _BASE["base"]


def _projector_file(logdir: Path, name: str) -> Path:
    (found,) = sorted((logdir / "bad").rglob(name))
    return found


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _link(path: Path, target: str | Path) -> None:
    path.unlink(missing_ok=True)
    path.symlink_to(target)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _event(step: int, value: bytes) -> bytes:
    """An ``Event`` (wall_time, step, summary holding one value), as bytes."""
    head = b"\x09" + struct.pack("<d", writers.WALL0 + step) + b"\x10" + _varint(step)
    return head + _field(5, _field(1, value))


def histogram_event(buckets: int, step: int = 100) -> bytes:
    """A legacy histogram summary (tag ``huge_histogram``) of ``buckets`` buckets."""
    import numpy as np

    limits = np.arange(1, buckets + 1, dtype="<f8").tobytes()
    counts = np.ones(buckets, dtype="<f8").tobytes()
    histo = b"".join(
        (
            b"\x09" + struct.pack("<d", 0.0),  # min
            b"\x11" + struct.pack("<d", float(buckets)),  # max
            b"\x19" + struct.pack("<d", float(buckets)),  # num
            _field(6, limits),
            _field(7, counts),
        )
    )
    return _event(step, _field(1, b"huge_histogram") + _field(5, histo))


def text_event(claimed: int, step: int = 100) -> bytes:
    """A text summary (plugin ``text``) whose string tensor claims ``claimed`` elements
    and holds one (which TensorFlow's rule would repeat to fill the shape)."""
    dim = _field(2, b"\x08" + _varint(claimed))  # TensorShapeProto.dim { size }
    tensor = b"\x08\x07" + _field(2, dim) + _field(8, b"one")  # DT_STRING
    metadata = _field(1, _field(1, b"text"))  # SummaryMetadata.plugin_data.plugin_name
    return _event(step, _field(1, b"huge_text") + _field(9, metadata) + _field(8, tensor))


def _append_event_file(logdir: Path, payload: bytes) -> None:
    (logdir / "bad" / EVENT_NAME).write_bytes(writers.frame_record(payload))


def _outside(logdir: Path, name: str, text: str) -> Path:
    """A file beside the logdir (outside it)."""
    outside = logdir.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / name).write_text(text)
    return outside / name


CASES: dict[str, tuple[str, Callable[[Path], Any]]] = {
    "event file: FIFO": ("loader", lambda d: _fifo(d / "bad" / EVENT_NAME)),
    "event file: link to /dev/zero": (
        "loader",
        lambda d: _link(d / "bad" / EVENT_NAME, "/dev/zero"),
    ),
    "event file: link to /dev/urandom": (
        "loader",
        lambda d: _link(d / "bad" / EVENT_NAME, "/dev/urandom"),
    ),
    "hparams.yaml: FIFO": ("config", lambda d: _fifo(d / "bad" / "hparams.yaml")),
    "config.yaml: link to /dev/zero": (
        "config",
        lambda d: _link(d / "bad" / "config.yaml", "/dev/zero"),
    ),
    "hparams.yaml: link outside the logdir": (
        "config",
        lambda d: _link(
            d / "bad" / "hparams.yaml", _outside(d, "secret.yaml", f"{OUTSIDE_SECRET}: 42\n")
        ),
    ),
    "config.yaml: 5 MiB": (
        "config",
        lambda d: (d / "bad" / "config.yaml").write_text("pad: " + "x" * (5 << 20) + "\n"),
    ),
    "projector tensors: FIFO": ("projector", lambda d: _fifo(_projector_file(d, "tensors.tsv"))),
    "projector sprite: FIFO": ("projector", lambda d: _fifo(_projector_file(d, "sprite.png"))),
    "projector_config.pbtxt: FIFO": (
        "projector",
        lambda d: _fifo(_projector_file(d, "projector_config.pbtxt")),
    ),
    "histogram of 10^7 buckets": (
        "record",
        lambda d: _append_event_file(d, histogram_event(10**7)),
    ),
    "text tensor claiming 10^9 strings": (
        "record",
        lambda d: _append_event_file(d, text_event(10**9)),
    ),
}
"""Each hostile case: ``name -> (where it bites, how to make it in a base copy)``."""


def make_case(name: str, directory: Path | None = None) -> Path:
    """A copy of the base logdir with case ``name`` made in run ``bad``; ``""``: none."""
    logdir = Path(directory or tempfile.mkdtemp(prefix="tbnb-hostile-")) / "logdir"
    shutil.copytree(base_logdir(), logdir, symlinks=True)
    if name:
        CASES[name][1](logdir)
    return logdir


PAYLOAD = "<html><body><script>window.__pwned=1;document.title='pwned'</script></body></html>"
"""Script that sets ``window.__pwned`` wherever it runs."""


def wav_html_polyglot() -> bytes:
    """A WAV file that plays (a tone) and is an HTML page with a script: its last chunk,
    which WAV readers skip, holds :data:`PAYLOAD`."""
    from tests.writers_media import chirp

    wav = writers.wav_bytes(chirp(800, 8000, 300.0), 8000)
    html = PAYLOAD.encode()
    chunk = b"html" + struct.pack("<I", len(html)) + html + b"\0" * (len(html) & 1)
    body = wav[8:] + chunk
    return b"RIFF" + struct.pack("<I", len(body)) + body


def write_media_types(logdir: Path) -> None:
    """tensorboardX run ``m``: a normal clip, the WAV/HTML polyglot logged with
    ``content_type="text/html"``, an HTML page logged as ``audio/wav``, a PNG and an SVG
    image holding a script (tags ``audio/ok``, ``audio/polyglot``, ``audio/html``,
    ``image/png``, ``image/svg``)."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    from tests.writers_media import chirp

    ok = writers.wav_bytes(chirp(800, 8000, 440.0), 8000)
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1">{PAYLOAD}</svg>'
    with SummaryWriter(str(logdir / "m")) as writer:
        file_writer = writer._get_file_writer()
        for tag, data, claimed in (
            ("audio/ok", ok, "audio/wav"),
            ("audio/polyglot", wav_html_polyglot(), "text/html"),
            ("audio/html", PAYLOAD.encode(), "audio/wav"),
        ):
            clip = Summary.Audio(
                sample_rate=8000,
                num_channels=1,
                length_frames=800,
                encoded_audio_string=data,
                content_type=claimed,
            )
            file_writer.add_summary(Summary(value=[Summary.Value(tag=tag, audio=clip)]), 0)
        for tag, data in (
            ("image/png", writers.png_bytes(writers.image_chw(1).transpose(1, 2, 0))),
            ("image/svg", svg.encode()),
        ):
            image = Summary.Image(height=6, width=8, colorspace=3, encoded_image_string=data)
            file_writer.add_summary(Summary(value=[Summary.Value(tag=tag, image=image)]), 0)


def load_report(logdir: str) -> dict[str, Any]:
    """Load ``logdir`` and read everything a dashboard reads; return what came back."""
    import numpy as np

    import tbnb
    from tbnb.widgets.embeddings.source import read_listed

    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = tbnb.load(logdir, progress=False)
        out["load_s"] = time.perf_counter() - t0
        scalars = exp.scalars
        out["scalars"] = {
            str(run): int(n) for run, n in scalars.groupby("run", observed=True).size().items()
        }
        out["histograms"] = len(exp.histograms)
        out["text"] = len(exp.text)
        hparams = exp.hparams
        out["hparam_columns"] = sorted(map(str, hparams.columns))
        out["notes"] = [str(n) for n in hparams.attrs.get("notes", [])]
        out["info_columns"] = len(exp.info.columns)
        table = exp.embeddings
        out["embeddings"] = [
            {"tag": str(r["tag"]), "note": str(r["note"])} for _, r in table.iterrows()
        ]
        read = []
        for index in range(len(table)):
            try:
                vectors, _, sprite, _ = read_listed(exp, index)
                read.append({"points": int(np.asarray(vectors).shape[0]), "sprite": bool(sprite)})
            except (ValueError, OSError) as error:
                read.append({"error": str(error)})
        out["read"] = read
    out["total_s"] = time.perf_counter() - t0
    out["warnings"] = [
        [w.category.__name__, str(w.message)] for w in caught if "tbnb" in str(w.message)
    ]
    return out


def main(args: list[str]) -> None:
    """``LOGDIR [--report FILE] [--cap-gib N]``: :func:`load_report` as JSON;
    ``--list``: the cases as JSON ``{name: where}``; ``--make NAME DIR``: make a case,
    print its logdir (a benchmark's parent stays small: the fixtures are made here)."""
    if args[0] == "--list":
        print(json.dumps({name: where for name, (where, _) in CASES.items()}))
        return
    if args[0] == "--make":
        print(make_case(args[1], Path(args[2])))
        return
    if "--cap-gib" in args:
        import resource

        cap = int(float(args[args.index("--cap-gib") + 1]) * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    report = load_report(args[0])
    report["vm_hwm"] = _high_water()
    text = json.dumps(report)
    if "--report" in args:
        Path(args[args.index("--report") + 1]).write_text(text)
    else:
        print(text)


def _high_water() -> int:
    """This process's peak RSS in bytes since it started (``VmHWM``; 0 where unknown)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
