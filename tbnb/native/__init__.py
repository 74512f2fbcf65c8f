"""The loader's hot kernels in plain C, compiled when the package is built, loaded with ctypes.

TFRecord framing with CRC32C (SSE4.2 / ARMv8 CRC instructions, tables elsewhere), the
``Event`` decoder (scalars decoded, tags interned, every other value indexed), the
decoders of histograms, tensors and media summaries, and the counting sort grouping a run's
points by tag: equal to the numpy/protobuf reference, without compiling anything on the
user's path. Loading the library takes a few milliseconds; every call releases the GIL.

- ``src/``: the C sources (plain functions over pointers and lengths).
- :mod:`~tbnb.native.build`: compiles them (the package build hook, ``python -m
  tbnb.native`` in a checkout); a build without a C compiler succeeds without the
  library, and the loader decodes with numpy (one warning saying so).
- :mod:`~tbnb.native.loading`: :func:`lib` / :func:`available`; a library built from
  other sources than those beside it is refused (one warning). ``TBNB_NATIVE=0``
  disables it (to compare with the other kernels).
- :mod:`~tbnb.native.kernels`: numpy-facing wrappers.

Examples
--------
>>> isinstance(available(), bool)
True
"""

from __future__ import annotations

from tbnb.native.loading import available, lib, problem

__all__ = ["available", "lib", "problem"]
