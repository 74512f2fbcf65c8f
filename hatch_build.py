"""Build hook: the front-end bundles, and tbnb's native loader kernels (``tbnb/native/src``).

Front ends: the bundles in ``tbnb/static/`` are committed (tests/js checks they equal a
fresh build), so installing needs no node, editable or not. Only a tree that lacks one
of the files ``js/build.mjs`` writes (its manifest ``bundles.json`` and every bundle it
names) builds them, with npm; without npm the build stops with one line saying what to
install or how to restore them.

Native kernels: a wheel gets ``tbnb/native/libtbnb_native.*`` and a platform tag; an
editable install (``pip install -e .``) gets the library built in place, in
``tbnb/native/``, where the editable package imports it. Without a C compiler (or when
compiling fails) the build still succeeds, with a warning: the package is then pure
Python and the loader uses its numpy kernels. ``TBNB_NATIVE_BUILD=0`` skips compiling
on purpose.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


def _native_build() -> Any:
    """``tbnb/native/build.py`` loaded on its own (it imports only the standard library)."""
    spec = importlib.util.spec_from_file_location(
        "_tbnb_native_build", ROOT / "tbnb" / "native" / "build.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bundles(root: Path = ROOT) -> list[Path]:
    """The front-end files ``js/build.mjs`` writes: its manifest ``tbnb/static/bundles.json``
    and every bundle the manifest names (the manifest alone when it is missing or
    unreadable; none in a tree without the front-end sources)."""
    if not (root / "js" / "build.mjs").is_file():
        return []  # a tree without the front-end sources: tbnb/static is what there is
    static = root / "tbnb" / "static"
    manifest = static / "bundles.json"
    try:
        names = list(json.loads(manifest.read_text(encoding="utf-8"))["bundles"])
    except (OSError, ValueError, KeyError, TypeError):
        return [manifest]
    return [manifest, *(static / name for name in names)]


def ensure_bundles(root: Path = ROOT, say: Callable[[str], object] = print) -> bool:
    """Build the front-end bundles with npm if one is missing; True if it built.

    Raises
    ------
    RuntimeError
        When a bundle is missing and npm is not on ``PATH`` (one line: what to do).
    """
    missing = [path.name for path in bundles(root) if not path.is_file()]
    if not missing:
        return False
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError(
            f"tbnb: front-end bundles missing from tbnb/static ({', '.join(missing)}) and npm "
            "is not on PATH: install Node.js (it brings npm), or restore the committed "
            "bundles with `git checkout -- tbnb/static`"
        )
    say(f"tbnb: building the missing front-end bundles ({', '.join(missing)}) with npm")
    js = root / "js"
    if not (js / "node_modules").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=js, check=True)
    subprocess.run([npm, "run", "build"], cwd=js, check=True)
    return True


class NativeBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Checks the front-end bundles, compiles the shared library (wheels, editable installs)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        ensure_bundles(Path(self.root), self.app.display_info)
        if os.environ.get("TBNB_NATIVE_BUILD", "").strip().lower() in {"0", "false", "no"}:
            self.app.display_warning("tbnb: TBNB_NATIVE_BUILD=0: native kernels not built")
            return
        native = _native_build()
        if version == "editable":
            built = native.build()  # in place: the editable package imports it from there
        else:
            self._tmp = tempfile.TemporaryDirectory(prefix="tbnb-native-")
            built = native.build(Path(self._tmp.name))
        if built is None:
            self.app.display_warning(
                "tbnb: the native loader kernels were not built (no working C compiler); "
                "the package works without them (numpy kernels)"
            )
            return
        if version != "editable":
            build_data["force_include"][str(built)] = f"tbnb/native/{built.name}"
        # Loaded with ctypes, not a Python extension: one wheel per platform, any Python 3.
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
