"""Build hook: compile tbnb's native loader kernels (``tbnb/native/src``) into the wheel.

A wheel gets ``tbnb/native/libtbnb_native.*`` and a platform tag; an editable install
(``pip install -e .``) gets the library built in place, in ``tbnb/native/``, where the
editable package imports it. Without a C compiler (or when compiling fails) the build
still succeeds, with a warning: the package is then pure Python and the loader uses
its numba/numpy kernels. ``TBNB_NATIVE_BUILD=0`` skips compiling on purpose.
"""

from __future__ import annotations

import importlib.util
import os
import sysconfig
import tempfile
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


class NativeBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the shared library for wheels and editable installs."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
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
                "the package works without them (numba/numpy kernels)"
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
