"""Loading the native library with ctypes: once per process, refused when stale.

The library is used only when its embedded source hash equals the hash of the C
sources shipped beside it; a library built from other sources (an editable install
whose sources changed since) is refused with one warning, and the loader keeps to
its numpy reference. ``TBNB_NATIVE=0`` disables the library (to compare with the
other kernels); ``TBNB_NATIVE_LIBRARY`` names another build of the same sources (e.g.
one with sanitizers). ``ctypes.CDLL`` releases the GIL around every call, so the
loader's threads run the kernels in parallel.

Examples
--------
>>> isinstance(available(), bool)
True
>>> available() == (lib() is not None)
True
"""

from __future__ import annotations

import ctypes
import os
import threading
import warnings
from ctypes import POINTER, c_char_p, c_int, c_int64, c_uint32, c_void_p
from pathlib import Path

from tbnb.native.build import library_path, source_hash
from tbnb.warnings import TbnbWarning

__all__ = ["Columns", "available", "built_hash", "lib", "problem"]


class Columns(ctypes.Structure):
    """``tbnb_columns``: the decoder's output arrays (pointers) and the value capacity."""

    _fields_ = [
        (name, c_void_p)
        for name in (
            "fallback",
            "wall",
            "steps",
            "rec",
            "value",
            "dtype",
            "meta_start",
            "meta_len",
            "tag_start",
            "tag_len",
            "vstep",
            "vwall",
            "data_start",
            "data_len",
            "vindex",
        )
    ] + [("cap", c_int64)]


_SIGNATURES = {
    "tbnb_source_hash": (c_char_p, []),
    "tbnb_crc32c_impl": (c_char_p, []),
    "tbnb_crc32c": (c_uint32, [c_uint32, c_void_p, c_int64]),
    "tbnb_crc32c_table": (c_uint32, [c_uint32, c_void_p, c_int64]),
    "tbnb_scan_records": (
        c_int64,
        [
            c_void_p,
            c_int64,
            c_int,
            c_void_p,
            c_void_p,
            POINTER(c_int64),
            POINTER(c_int64),
            c_void_p,
            c_void_p,
            c_void_p,
            c_int64,
        ],
    ),
    "tbnb_decode_events": (
        c_int64,
        [
            c_void_p,
            c_int64,
            c_void_p,
            c_void_p,
            c_int64,
            c_int64,
            POINTER(Columns),
            POINTER(c_int64),
            c_int,
        ],
    ),
    "tbnb_tensors": (
        c_int,
        [c_void_p, c_int64, c_void_p, c_void_p, c_int64, c_void_p, c_void_p, c_int64]
        + [c_void_p] * 1
        + [c_int64],
    ),
    "tbnb_histograms": (
        c_int,
        [c_void_p, c_int64, c_void_p, c_void_p, c_void_p, c_int64, c_int64]
        + [c_void_p] * 6
        + [c_int64]
        + [c_void_p] * 3,
    ),
    "tbnb_media": (None, [c_void_p, c_int64, c_void_p, c_void_p, c_void_p, c_int64, c_void_p]),
    "tbnb_image_format": (c_int, [c_void_p, c_int64, c_int64]),
    "tbnb_sync_record": (c_int64, [c_void_p, c_int64]),
    "tbnb_gather": (None, [c_void_p, c_void_p, c_void_p, c_int64, c_void_p]),
    "tbnb_intern_tags": (c_int64, [c_void_p, c_void_p, c_void_p, c_int64, c_void_p]),
    "tbnb_count_tags": (None, [c_void_p, c_int64, c_void_p]),
    "tbnb_scatter_points": (
        c_int,
        [
            c_void_p,
            c_int64,
            c_void_p,
            c_void_p,
            c_void_p,
            c_void_p,
            c_void_p,
            c_void_p,
            c_int,
            c_void_p,
            c_void_p,
            c_void_p,
        ],
    ),
}

_lock = threading.Lock()
_state: dict[str, object] = {}


def _open(path: str) -> ctypes.CDLL:
    library = ctypes.CDLL(path)
    for name, (restype, argtypes) in _SIGNATURES.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library


def built_hash() -> str | None:
    """The source hash the library beside these sources was built from (``None``
    when there is none or it cannot be loaded)."""
    path = library_path()
    if not path.exists():
        return None
    try:
        function = ctypes.CDLL(str(path)).tbnb_source_hash
    except (OSError, AttributeError):
        return None
    function.restype = c_char_p
    function.argtypes = []
    return str(function().decode())


def _load() -> tuple[ctypes.CDLL | None, str | None]:
    if os.environ.get("TBNB_NATIVE", "").strip().lower() in {"0", "false", "no", "off"}:
        return None, "disabled by TBNB_NATIVE=0"
    path = Path(os.environ.get("TBNB_NATIVE_LIBRARY") or library_path())
    if not path.exists():
        return None, (
            f"{path.name} is not built (no C compiler at install time?); "
            "build it with `python -m tbnb.native`"
        )
    try:
        library = _open(str(path))
    except (OSError, AttributeError) as error:
        return None, f"{path.name} cannot be loaded: {error}"
    built, expected = library.tbnb_source_hash().decode(), source_hash()
    if built != expected:
        message = (
            f"tbnb: {path.name} was built from other C sources ({built}, these are "
            f"{expected}): not used; rebuild it with `python -m tbnb.native`"
        )
        warnings.warn(message, TbnbWarning, stacklevel=4)
        return None, message
    return library, None


def lib() -> ctypes.CDLL | None:
    """The loaded native library, or ``None`` when it is absent, stale or disabled
    (:func:`problem` says why). Loaded on the first call; later calls cost a dict look-up.
    """
    if "lib" not in _state:
        with _lock:
            if "lib" not in _state:
                _state["problem"] = None
                library, _state["problem"] = _load()
                _state["lib"] = library
    return _state["lib"]  # type: ignore[return-value]


def available() -> bool:
    """Whether the native kernels can be used in this process."""
    return lib() is not None


def problem() -> str | None:
    """Why the native kernels are not available (``None`` when they are)."""
    lib()
    return _state.get("problem")  # type: ignore[return-value]
