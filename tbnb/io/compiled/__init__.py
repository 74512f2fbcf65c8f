"""Compiled (numba) CRC32C and TFRecord framing, used for large loads via :mod:`tbnb.jit`."""
