"""Which kernels a load decodes with: chosen once per load, passed down as one object.

Two backends decode event files: ``native`` (the C kernels of :mod:`tbnb.native`,
compiled when the package is built: framing with the CPU's CRC32C instructions, every
event's scalars decoded and its histograms, tensors, text, PR curves, images and audio
decoded into columns) and ``numpy`` (the reference that needs no compiler: the writers'
one-scalar layouts matched with array operations, every other record parsed by
protobuf). ``protobuf`` parses every record with protobuf (the reference of both).
Every backend gives identical frames (tested bit for bit).

``auto`` (the default) is ``native`` when the library loads and is current, else
``numpy``, with one warning saying why and how to build the library.

Examples
--------
>>> choose_backend("numpy")
Backend(name='numpy', note='')
>>> choose_backend("protobuf").kernels
'numpy'
"""

from __future__ import annotations

import threading
import warnings
from dataclasses import dataclass

from tbnb.native import available as native_available
from tbnb.native import problem as native_problem
from tbnb.warnings import TbnbWarning

__all__ = ["BACKENDS", "DECODERS", "Backend", "choose_backend"]

BACKENDS = ("native", "numpy", "protobuf")
"""What decodes a load's records (:class:`Backend` ``.name``)."""

DECODERS = ("auto", *BACKENDS)
"""What ``tbnb.load(decoder=...)`` accepts: a backend, or ``auto``."""


@dataclass(frozen=True)
class Backend:
    """The kernels of one load.

    Attributes
    ----------
    name
        ``native``, ``numpy`` or ``protobuf`` (see the module notes).
    note
        Why a load asking for ``auto`` or ``native`` got another backend (empty otherwise).
    """

    name: str
    note: str = ""

    @property
    def kernels(self) -> str:
        """The implementation of the framing and scalar decoder (``kernels=`` of
        :func:`tbnb.io.records.scan_records` and :mod:`tbnb.decode.scalars`)."""
        return "native" if self.name == "native" else "numpy"

    @property
    def fast(self) -> bool:
        """Whether records are decoded without protobuf where the decoder can."""
        return self.name != "protobuf"


_warned = threading.Event()


def choose_backend(requested: str) -> Backend:
    """The backend for ``decoder=requested`` (one of :data:`DECODERS`).

    ``auto`` and ``native`` fall back to ``numpy`` when the native library is missing,
    stale or disabled (``TBNB_NATIVE=0``); the first such load of a process warns, saying
    why and how to rebuild the library (unless it was disabled on purpose).
    """
    if requested not in DECODERS:
        raise ValueError(f"decoder must be one of {DECODERS}, got {requested!r}")
    if requested in ("numpy", "protobuf"):
        return Backend(requested)
    if native_available():
        return Backend("native")
    why = native_problem() or "the native library is not available"
    note = f"decoding with numpy: {why}"
    if "TBNB_NATIVE=0" not in why and not _warned.is_set():
        _warned.set()
        warnings.warn(
            f"tbnb: {note}. Loads run several times slower; build the library with "
            "`python -m tbnb.native` (needs a C compiler)",
            TbnbWarning,
            stacklevel=4,
        )
    return Backend("numpy", note)
