"""Building the native library: wheels, editable installs, no compiler, stale builds, sanitizers."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import pytest

from tbnb.native import build, loading
from tests import builds

ROOT = builds.ROOT

_project_copy = builds.project_copy


def _build(project: Path, kind: str, out: Path, env: dict[str, str]) -> tuple[Path, str]:
    done = builds.build(project, kind, out, env)
    assert done.returncode == 0, done.stderr
    return out / done.stdout.strip().splitlines()[-1], done.stderr


@pytest.mark.slow
def test_wheel_holds_the_library_and_is_platform_specific(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    wheel, _ = _build(project, "wheel", tmp_path / "dist", dict(os.environ))
    assert "-py3-none-" in wheel.name
    assert not wheel.name.endswith("-any.whl")
    name = build.library_path().name
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        assert f"tbnb/native/{name}" in names
        assert {"tbnb/native/src/decode.c", "tbnb/native/src/tbnb_native.h"} <= names
    assert not (project / "tbnb" / "native" / name).exists()  # built aside, not in the tree


@pytest.mark.slow
def test_editable_install_builds_the_library_in_place(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    _build(project, "editable", tmp_path / "dist", dict(os.environ))
    library = project / "tbnb" / "native" / build.library_path().name
    assert library.exists()
    check = subprocess.run(
        [sys.executable, "-c", "import tbnb.native as n; print(n.available())"],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, PYTHONPATH=str(project)),
    )
    assert check.stdout.strip() == "True"


@pytest.mark.slow
def test_without_a_compiler_the_build_succeeds_pure_python(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    empty = tmp_path / "no-tools"
    empty.mkdir()
    env = dict(os.environ, CC=str(empty / "cc"), PATH=str(empty))
    wheel, stderr = _build(project, "wheel", tmp_path / "dist", env)
    assert wheel.name.endswith("-py3-none-any.whl")
    assert "native loader kernels were not built" in stderr
    with zipfile.ZipFile(wheel) as zf:
        assert not [n for n in zf.namelist() if "libtbnb_native" in n]


def test_no_compiler_is_a_message_not_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "missing-cc"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(build.sysconfig, "get_config_var", lambda name: None)
    assert build.build(tmp_path) is None
    assert "no C compiler found" in capsys.readouterr().err


def test_a_library_built_from_other_sources_is_refused_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert build.build(tmp_path, quiet=True) is not None
    monkeypatch.setenv("TBNB_NATIVE_LIBRARY", str(build.library_path(tmp_path)))
    monkeypatch.setattr(loading, "source_hash", lambda: "0123456789abcdef")
    monkeypatch.setattr(loading, "_state", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert loading.lib() is None
        assert loading.lib() is None
    assert len(caught) == 1
    assert "built from other C sources" in str(caught[0].message)
    assert "python -m tbnb.native" in str(loading.problem())


def test_switched_off_and_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(loading, "_state", {})
    monkeypatch.setenv("TBNB_NATIVE", "0")
    assert not loading.available()
    assert loading.problem() == "disabled by TBNB_NATIVE=0"
    monkeypatch.setattr(loading, "_state", {})
    monkeypatch.delenv("TBNB_NATIVE")
    monkeypatch.setenv("TBNB_NATIVE_LIBRARY", str(tmp_path / "libtbnb_native.so"))
    assert not loading.available()
    assert "is not built" in str(loading.problem())


def test_the_built_hash_is_read_from_the_library() -> None:
    if not loading.available():
        pytest.skip(f"native kernels not available: {loading.problem()}")
    assert loading.built_hash() == build.source_hash()


def test_python_m_tbnb_native_builds_when_stale(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    built: list[bool] = []
    monkeypatch.setattr(loading, "built_hash", lambda: "stale")
    monkeypatch.setattr(build, "build", lambda *a, **k: built.append(True) or build.library_path())
    assert build.main([]) == 0
    assert built == [True]
    monkeypatch.setattr(loading, "built_hash", build.source_hash)
    assert build.main([]) == 0
    assert built == [True]  # current: nothing to do
    assert "is current" in capsys.readouterr().out


_SANITIZED = """
import sys
import numpy as np
from tbnb import native
from tbnb.native import kernels
from tests.native import test_native as t
assert native.available(), native.problem()
scan = kernels.scan_kernel
# every buffer copied to a block of exactly its size (PYTHONMALLOC=malloc: ASan sees it)
def exact(kernel):
    return lambda buf, *args: kernel(np.array(buf, copy=True), *args)
for name in ("scan_kernel", "decode_kernel", "tensors_kernel", "histograms_kernel",
             "media_kernel", "gather", "image_formats"):
    setattr(kernels, name, exact(getattr(kernels, name)))
import inspect
ran = []
for name in dir(t):
    test = getattr(t, name)
    if name.startswith("test_") and not inspect.signature(test).parameters:
        test()  # every fuzz and hand-built test (the real-writer ones need their fixtures)
        ran.append(name)
assert len(ran) >= 10, ran
for path in sys.argv[1:]:  # the real writers' event files
    buf = np.fromfile(path, np.uint8)
    t.same_scans(buf.tobytes())
    starts, lengths = scan(buf, True)[:2]
    t.same_decodes(buf, starts, lengths)
from tbnb.loader.experiment import Experiment
for logdir in sorted({p.rsplit("/", 1)[0] for p in sys.argv[1:]}):  # every kind's decoder
    exp = Experiment(logdir, progress=False, decoder="native")
    for kind in ("histograms", "images", "audio", "text", "pr_curves", "tensors"):
        exp.frame(kind)
print("sanitized ok")
"""


@pytest.mark.slow
def test_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    """The equality fuzz tests and the real writers' files again, on a build with ASan and
    UBSan that aborts on the first out-of-bounds read or undefined operation (Python's own
    allocator off, each input in a block of exactly its size, so a read one byte past it
    is caught)."""
    cc = build.compiler()
    assert cc is not None, "no C compiler"
    runtime = subprocess.run(
        [*cc, "-print-file-name=libasan.so"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if not os.path.isabs(runtime):
        pytest.skip(f"{cc[0]} has no AddressSanitizer runtime")
    flags = ("-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-g", "-O1")
    library = build.build(tmp_path, extra_flags=flags)
    assert library is not None
    env = dict(
        os.environ,
        TBNB_NATIVE_LIBRARY=str(library),
        LD_PRELOAD=runtime,
        ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",
        PYTHONPATH=str(ROOT),
        PYTHONMALLOC="malloc",
    )
    from tests import writers

    files = [
        f
        for name in ("torch", "tensorboardX", "tf2", "keras")
        for f in writers.event_files(writers.cached(name).logdir)
    ]
    done = subprocess.run(
        [sys.executable, "-c", _SANITIZED, *files],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "sanitized ok" in done.stdout
