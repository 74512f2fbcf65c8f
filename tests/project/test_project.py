"""Project-level checks: generated code in sync, oldest supported protobuf, lint and types."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OLDEST_PROTOBUF = "4.21.12"


def test_descriptor_set_matches_protos() -> None:
    """tbnb/_proto/descriptors.binpb is exactly what protos/ compiles to."""
    pytest.importorskip("grpc_tools")
    result = subprocess.run(
        [sys.executable, "scripts/gen_protos.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _oldest_protobuf_dir() -> Path:
    target = ROOT / ".venv" / f"protobuf-{OLDEST_PROTOBUF}"
    if not (target / "google" / "protobuf").is_dir():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--target",
                str(target),
                f"protobuf=={OLDEST_PROTOBUF}",
            ],
            check=True,
        )
    return target


_LOAD_SCRIPT = """
import pickle, sys, warnings
import google.protobuf
import tbnb
warnings.simplefilter("ignore")
exp = tbnb.load(sys.argv[1], progress=False)
frames = {k: getattr(exp, k) for k in ("scalars", "histograms", "text", "pr_curves", "tensors")}
frames["images"] = exp.images.drop(columns=["blob"])
frames["hparams_values"] = exp.hparams_values
sys.stdout.buffer.write(pickle.dumps((google.protobuf.__version__, frames)))
"""


def test_loader_under_oldest_protobuf(tmp_path: Path) -> None:
    """The same logdir loads to identical frames under protobuf 4.21 and the current one."""
    import numpy as np
    import pandas as pd

    tbx = pytest.importorskip("tensorboardX")
    writer = tbx.SummaryWriter(str(tmp_path / "run"))
    for step in range(20):
        writer.add_scalar("loss", 1.0 / (step + 1), step)
    writer.add_histogram("w", np.linspace(-1, 1, 50), 0)
    writer.add_image("img", np.zeros((3, 4, 4)), 0)
    writer.add_text("note", "hi", 0)
    writer.add_pr_curve("pr", np.array([0, 1, 1]), np.array([0.2, 0.7, 0.9]), 0)
    writer.add_hparams({"lr": 0.1}, {"hparam/acc": 0.5})
    writer.close()

    def run(extra_path: str | None) -> tuple[str, dict]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (extra_path, str(ROOT)) if p)
        out = subprocess.run(
            [sys.executable, "-c", _LOAD_SCRIPT, str(tmp_path)],
            env=env,
            capture_output=True,
            check=True,
        ).stdout
        return pickle.loads(out)

    old_version, old = run(str(_oldest_protobuf_dir()))
    new_version, new = run(None)
    assert old_version == OLDEST_PROTOBUF
    assert new_version != OLDEST_PROTOBUF
    assert (old["scalars"]["tag"] == "loss").sum() == 20
    assert old["hparams_values"] == new["hparams_values"]
    for name in ("scalars", "histograms", "text", "pr_curves", "tensors", "images"):
        pd.testing.assert_frame_equal(old[name], new[name])


def test_ruff_clean() -> None:
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff not installed (pip install -e .[dev])")
    result = subprocess.run(
        [str(ruff), "check", "tbnb", "tests", "scripts", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-5000:]


def test_ruff_formatted() -> None:
    """Formatting is ruff's, so diffs carry changes, not layout."""
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.exists():
        pytest.skip("ruff not installed (pip install -e .[dev])")
    result = subprocess.run(
        [
            str(ruff),
            "format",
            "--check",
            "tbnb",
            "tests",
            "scripts",
            "benchmarks",
            "hatch_build.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, "run `ruff format`:\n" + result.stdout[-5000:]


def test_mypy_clean() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "tbnb"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-5000:]
