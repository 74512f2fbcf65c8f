"""Records that claim more than they hold: no hang, bounded memory, the rest of the run kept.

Each case loads in a fresh process under an address-space cap (``resource.setrlimit``) and
a time limit, with every backend: a histogram of 10,000,000 buckets is refused with a
warning naming its file, tag and step; a text summary whose tensor claims 10**9 strings
(and tensors claiming more elements than fit in 64 bits) are refused before anything is
allocated; the scalars around them load, and the peak RSS stays far below what the
claims would take.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tbnb._proto import Event, Summary, TensorProto
from tests import writers
from tests.fuzz_values import field, varint

ROOT = Path(__file__).resolve().parents[2]

_CHILD = r"""
import json, resource, sys, time, warnings
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[3]), int(sys.argv[3])))
from tbnb.loader.experiment import Experiment
start = time.monotonic()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    exp = Experiment(sys.argv[1], progress=False, decoder=sys.argv[2])
    frames = {k: len(exp.frame(k)) for k in ("scalars", "histograms", "text", "tensors")}
with open("/proc/self/status") as status:  # the peak of this process (ru_maxrss may hold
    peak = [l for l in status if l.startswith("VmHWM")][0]  # its parent's, after a fork)
print(json.dumps({
    "seconds": time.monotonic() - start, "frames": frames,
    "rss_mb": int(peak.split()[1]) / 1024,
    "warnings": [str(w.message) for w in caught],
}))
"""

AS_LIMIT = 3 << 30
"""The address space each load may map (the claims below would need 7-80 GiB)."""


def _load_capped(logdir: Path, decoder: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(logdir), decoder, str(AS_LIMIT)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _scalar(step: int) -> bytes:
    event = Event(step=step, wall_time=float(step))
    event.summary.value.add(tag="loss", simple_value=0.5 * step)
    return event.SerializeToString()


def _write(path: Path, hostile: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    head = Event(wall_time=0.0, file_version="brain.Event:2").SerializeToString()
    records = [head, _scalar(1), hostile, _scalar(2)]
    path.write_bytes(b"".join(writers.frame_record(r) for r in records))


def _huge_histogram(buckets: int) -> bytes:
    limits = np.linspace(-1.0, 1.0, buckets)
    histo = (
        b"".join(field(n, 1, np.float64(x).tobytes()) for n, x in ((1, -1.0), (2, 1.0), (3, 9.0)))
        + field(6, 2, limits.tobytes())
        + field(7, 2, np.ones(buckets).tobytes())
    )
    value = field(1, 2, b"weights") + field(5, 2, histo)
    return field(2, 0, varint(7)) + field(5, 2, field(1, 2, value))


@pytest.mark.slow
@pytest.mark.parametrize("decoder", ["native", "numpy"])
def test_a_histogram_of_ten_million_buckets(tmp_path: Path, decoder: str) -> None:
    path = tmp_path / "run" / "events.out.tfevents.1.host"
    _write(path, _huge_histogram(10_000_000))
    got = _load_capped(tmp_path, decoder)
    assert got["frames"] == {"scalars": 2, "histograms": 0, "text": 0, "tensors": 0}
    (warning,) = [w for w in got["warnings"] if "buckets" in w]  # type: ignore[attr-defined]
    assert str(path) in warning
    assert "tag 'weights' step 7" in warning
    assert "10000000 buckets" in warning
    assert got["seconds"] < 30
    assert got["rss_mb"] < 1200  # the 160 MB record, read and parsed once, and Python


def _claiming_tensor(dims: list[int], **values: object) -> bytes:
    tensor = TensorProto(dtype=7, **values)  # type: ignore[arg-type]
    for d in dims:
        tensor.tensor_shape.dim.add(size=d)
    meta = Summary.Value(tag="claims", tensor=tensor)
    meta.metadata.plugin_data.plugin_name = "text"
    event = Event(step=3, wall_time=3.0)
    event.summary.value.append(meta)
    return event.SerializeToString()


@pytest.mark.parametrize("decoder", ["native", "numpy", "protobuf"])
@pytest.mark.parametrize(
    ("dims", "needle"),
    [
        ([10**9], "claims 1000000000 elements"),
        ([2**40, 2**40], "claims 1208925819614629174706176 elements"),
        ([3, 2**62], "claims 13835058055282163712 elements"),
    ],
)
def test_a_tensor_claiming_more_than_its_record_holds(
    tmp_path: Path, decoder: str, dims: list[int], needle: str
) -> None:
    path = tmp_path / "run" / "events.out.tfevents.1.host"
    _write(path, _claiming_tensor(dims, string_val=[b"x"]))
    got = _load_capped(tmp_path, decoder)
    assert got["frames"] == {"scalars": 2, "histograms": 0, "text": 0, "tensors": 0}
    (warning,) = [w for w in got["warnings"] if "claims" in w]  # type: ignore[attr-defined]
    assert str(path) in warning
    assert "tag 'claims' step 3" in warning
    assert needle in warning
    assert got["seconds"] < 30
    assert got["rss_mb"] < 600


def test_a_small_fill_is_still_filled_as_tensorflow_fills_it(tmp_path: Path) -> None:
    """TensorFlow's rule (one value stands for every element) below the bound."""
    from tbnb.loader.experiment import Experiment

    _write(
        tmp_path / "run" / "events.out.tfevents.1.host", _claiming_tensor([3], string_val=[b"x"])
    )
    for decoder in ("native", "numpy"):
        exp = Experiment(str(tmp_path), progress=False, decoder=decoder)
        assert exp.text["text"].iloc[0].tolist() == ["x", "x", "x"]
