"""Generate the large benchmark logdir: runs x tags x steps scalar points.

Every run is one event file written byte for byte as ``torch.utils.tensorboard``
writes it (tensorboard's ``EventFileWriter``: a ``file_version`` event with
``source_metadata``, then one ``simple_value`` event per ``add_scalar`` call), or with
``--tf2`` as TF2-style tensor scalars (``scalar_pb``: a rank-0 DT_FLOAT tensor plus
the ``scalars`` plugin metadata on every event). Records are built in one compiled
loop with tbnb's CRC32C, so the full 20M-point logdir takes seconds, not hours.

``--check`` writes a small sample with the real writer and with this script and
compares the bytes (run it after any change here).

Usage::

    python benchmarks/make_logdir.py                  # 50 runs x 20 tags x 20,000 steps
    python benchmarks/make_logdir.py --tf2            # the TF2 tensor-scalar variant
    python benchmarks/make_logdir.py --scale 0.1      # 10% of the steps
    python benchmarks/make_logdir.py --check          # compare with the real writer
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tbnb.io.crc32c import MASK_DELTA, TABLES, masked_crc32c

_TABLE = TABLES[0].astype(np.uint32)


@njit(cache=True)
def masked_crc32c_range(data: np.ndarray, start: int, stop: int) -> int:
    """TFRecord's masked CRC32C of ``data[start:stop]`` (a table a byte: this generator's
    own, the library's is tbnb.native's)."""
    crc = np.uint32(0xFFFFFFFF)
    for i in range(start, stop):
        crc = _TABLE[(crc ^ data[i]) & 0xFF] ^ (crc >> np.uint32(8))
    crc = crc ^ np.uint32(0xFFFFFFFF)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "data"
WRITER = b"tensorboard.summary.writer.event_file_writer"
# scalar_pb's tensor (DT_FLOAT, empty shape, packed float_val of one element), without the value.
TF2_TENSOR_HEAD = bytes([0x42, 0x0A, 0x08, 0x01, 0x12, 0x00, 0x2A, 0x04])
TF2_METADATA = bytes([0x4A, 0x0B, 0x0A, 0x09, 0x0A, 0x07]) + b"scalars"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def frame(data: bytes) -> bytes:
    """One TFRecord."""
    head = struct.pack("<Q", len(data))
    return (
        head
        + struct.pack("<I", masked_crc32c(head))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def file_version_record(wall_time: float) -> bytes:
    """The first event of every file written by tensorboard's EventFileWriter."""
    payload = (
        b"\x09"
        + struct.pack("<d", wall_time)
        + b"\x1a\x0dbrain.Event:2"
        + b"\x52"
        + _varint(len(WRITER) + 2)
        + b"\x0a"
        + _varint(len(WRITER))
        + WRITER
    )
    return frame(payload)


@njit(cache=True, nogil=True)
def _fill(
    out: np.ndarray,
    offsets: np.ndarray,
    wall: np.ndarray,
    step: np.ndarray,
    tag_of: np.ndarray,
    tag_flat: np.ndarray,
    tag_off: np.ndarray,
    tag_len: np.ndarray,
    bits: np.ndarray,
    tail: np.ndarray,
    tensor_head: np.ndarray,
) -> None:
    """Write one framed scalar event per point at ``offsets`` in ``out``."""
    wall_bytes = wall.view(np.uint8)
    bits_bytes = bits.view(np.uint8)
    for i in range(offsets.size):
        o = offsets[i]
        p = o + 12
        out[p] = 0x09
        for k in range(8):
            out[p + 1 + k] = wall_bytes[8 * i + k]
        p += 9
        s = step[i]
        if s != 0:  # proto3 leaves zero scalars out
            out[p] = 0x10
            p += 1
            while True:  # varint of the two's-complement bits (10 bytes if negative)
                b = s & 0x7F
                s = (s >> 7) & 0x01FFFFFFFFFFFFFF
                if s == 0:
                    out[p] = b
                    p += 1
                    break
                out[p] = b | 0x80
                p += 1
        t = tag_of[i]
        tl = tag_len[t]
        value_len = 2 + tl + (tensor_head.size if tensor_head.size else 1) + 4 + tail.size
        out[p] = 0x2A
        out[p + 1] = value_len + 2
        out[p + 2] = 0x0A
        out[p + 3] = value_len
        out[p + 4] = 0x0A
        out[p + 5] = tl
        p += 6
        for k in range(tl):
            out[p + k] = tag_flat[tag_off[t] + k]
        p += tl
        if tensor_head.size:
            for k in range(tensor_head.size):
                out[p + k] = tensor_head[k]
            p += tensor_head.size
        else:
            out[p] = 0x15
            p += 1
        for k in range(4):
            out[p + k] = bits_bytes[4 * i + k]
        p += 4
        for k in range(tail.size):
            out[p + k] = tail[k]
        p += tail.size
        n = p - (o + 12)
        for k in range(8):
            out[o + k] = (n >> (8 * k)) & 0xFF
        c = masked_crc32c_range(out, o, o + 8)
        for k in range(4):
            out[o + 8 + k] = (c >> (8 * k)) & 0xFF
        c = masked_crc32c_range(out, o + 12, p)
        for k in range(4):
            out[p + k] = (c >> (8 * k)) & 0xFF


def _varint_len(x: np.ndarray) -> np.ndarray:
    n = np.ones(x.shape, dtype=np.int64)
    v = x.astype(np.uint64) >> np.uint64(7)
    while (v > 0).any():
        n += v > 0
        v >>= np.uint64(7)
    return n


def event_file_bytes(
    tags: list[str],
    wall: np.ndarray,
    step: np.ndarray,
    tag_of: np.ndarray,
    value: np.ndarray,
    *,
    tf2: bool,
    start_wall: float,
) -> np.ndarray:
    """The full bytes of one event file (file_version record, then one event per point)."""
    encoded = [t.encode() for t in tags]
    tag_len = np.array([len(t) for t in encoded], dtype=np.int64)
    tensor_head = np.frombuffer(TF2_TENSOR_HEAD if tf2 else b"", np.uint8)
    tail = np.frombuffer(TF2_METADATA if tf2 else b"", np.uint8)
    value_len = 2 + tag_len[tag_of] + (len(tensor_head) or 1) + 4 + len(tail)
    if value_len.max() + 2 >= 128:
        raise ValueError("tags too long for this generator (single-byte lengths)")
    payload = 9 + np.where(step != 0, 1 + _varint_len(step), 0) + 2 + 2 + value_len
    sizes = payload + 16
    head = np.frombuffer(file_version_record(start_wall), np.uint8)
    offsets = len(head) + np.concatenate([[0], np.cumsum(sizes[:-1])])
    out = np.empty(len(head) + int(sizes.sum()), dtype=np.uint8)
    out[: len(head)] = head
    _fill(
        out,
        offsets.astype(np.int64),
        np.ascontiguousarray(wall, np.float64),
        np.ascontiguousarray(step, np.int64),
        tag_of.astype(np.int64),
        np.frombuffer(b"".join(encoded), np.uint8),
        np.concatenate([[0], np.cumsum(tag_len[:-1])]).astype(np.int64),
        tag_len,
        np.ascontiguousarray(value, np.float32),
        tail,
        tensor_head,
    )
    return out


def run_points(run: int, n_tags: int, n_steps: int) -> tuple[np.ndarray, ...]:
    """(wall, step, tag_of, value) in add_scalar order: for each step, every tag."""
    rng = np.random.default_rng(run)
    step = np.repeat(np.arange(n_steps, dtype=np.int64), n_tags)
    tag_of = np.tile(np.arange(n_tags, dtype=np.int64), n_steps)
    wall = 1.7e9 + run * 1e5 + np.arange(step.size) * 0.0137
    value = (np.exp(-step / 5000.0) + 0.05 * rng.standard_normal(step.size)).astype(np.float32)
    return wall, step, tag_of, value


def tag_names(n_tags: int) -> list[str]:
    groups = ["train", "val", "opt", "sys"]
    return [f"{groups[j % 4]}/metric_{j:02d}" for j in range(n_tags)]


def make_logdir(out: Path, *, runs: int, tags: int, steps: int, tf2: bool) -> int:
    """Write the logdir; return its size in bytes."""
    if out.exists():
        shutil.rmtree(out)
    total = 0
    names = tag_names(tags)
    for r in range(runs):
        wall, step, tag_of, value = run_points(r, tags, steps)
        data = event_file_bytes(
            names, wall, step, tag_of, value, tf2=tf2, start_wall=float(wall[0]) - 1.0
        )
        run_dir = out / f"run_{r:03d}"
        run_dir.mkdir(parents=True)
        data.tofile(run_dir / f"events.out.tfevents.{1700000000 + r}.bench.{r}.0")
        total += data.size
    return total


def check(tf2: bool) -> None:
    """Compare this generator's bytes with tensorboard's own EventFileWriter."""
    from tensorboard.compat.proto.event_pb2 import Event as TbEvent
    from tensorboard.compat.proto.summary_pb2 import Summary as TbSummary
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    wall, step, tag_of, value = run_points(3, 5, 300)
    step = step * 7 - 3  # negative, zero and multi-byte varints
    names = ["a", "train/loss", "ünï cødé", "x" * 60, "val/acc"]
    with tempfile.TemporaryDirectory() as tmp:
        writer = EventFileWriter(tmp)
        for w, s, t, v in zip(wall, step, tag_of, value, strict=True):
            if tf2:
                summary = scalar_pb(names[t], v)
            else:
                summary = TbSummary(value=[TbSummary.Value(tag=names[t], simple_value=v)])
            writer.add_event(TbEvent(wall_time=w, step=int(s), summary=summary))
        writer.close()
        (name,) = os.listdir(tmp)
        real = (Path(tmp) / name).read_bytes()
    # The first record holds the writer's own clock: take its wall time from the file.
    start_wall = struct.unpack_from("<d", real, 13)[0]
    mine = event_file_bytes(
        names, wall, step, tag_of, value, tf2=tf2, start_wall=start_wall
    ).tobytes()
    if mine != real:
        raise SystemExit(f"generator bytes differ from tensorboard's writer (tf2={tf2})")
    print(f"check ok: {len(real)} bytes identical to tensorboard's EventFileWriter (tf2={tf2})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--tags", type=int, default=20)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply --steps by this")
    parser.add_argument("--tf2", action="store_true", help="TF2 tensor scalars (scalar_pb)")
    parser.add_argument(
        "--out", type=Path, default=None, help="default: benchmarks/data/scalars[_tf2][_scale]"
    )
    parser.add_argument("--check", action="store_true", help="compare with the real writer")
    args = parser.parse_args()
    if args.check:
        check(tf2=False)
        check(tf2=True)
        return
    steps = max(1, round(args.steps * args.scale))
    out = args.out or DEFAULT_OUT / default_name(args.tf2, args.scale)
    t0 = time.perf_counter()
    size = make_logdir(out, runs=args.runs, tags=args.tags, steps=steps, tf2=args.tf2)
    points = args.runs * args.tags * steps
    print(
        f"{out}: {args.runs} runs, {points:,} points, {size / 1e6:.0f} MB "
        f"in {time.perf_counter() - t0:.1f} s"
    )


def default_name(tf2: bool, scale: float) -> str:
    """Directory name under benchmarks/data/ for a variant."""
    name = "scalars_tf2" if tf2 else "scalars"
    return name if scale == 1.0 else f"{name}_x{scale:g}"


if __name__ == "__main__":
    main()
