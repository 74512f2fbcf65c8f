"""The data block of an exported page: widget state and buffers, filtered and deflated.

An exported page carries every widget's saved state (JSON) and binary buffers
(float and integer columns, PNG bytes). Stored as they are, in base64, a scalars
page of 2,000 series is tens of megabytes. This module packs them into one block
the browser unpacks with its built-in ``DecompressionStream`` (no library, no
network):

1. each buffer goes through the filter that makes it compress best, chosen on a
   sample: none, a byte shuffle (byte *k* of every 4- or 8-byte element side by
   side, as Blosc and HDF5 do: the constant high bytes of steps and times and the
   zero low bytes of float32 values cast to float64 become long runs), a 32-bit
   delta (steps: ``1, 1, 1, ...``) or a 64-bit XOR with the previous element
   (times: only the low bits change) before the shuffle;
2. the block is ``uint32 length of the JSON | JSON | filtered buffers``, deflated
   (zlib) and written as text in base85 (5 characters per 4 bytes; base64
   takes 4 per 3) with ``< > &`` swapped for ``. , :``: no character of it
   can end a ``<script>`` element or start markup.

The page's script (``js/src/export/data.js``) undoes exactly these steps.

Examples
--------
>>> import numpy as np
>>> steps = np.arange(0, 30_000, 3, dtype=np.int32).tobytes()
>>> text = pack({"views": ["m"]}, [steps])
>>> len(text) < len(steps) // 20              # a regular step column nearly vanishes
True
>>> payload, buffers = unpack(text)
>>> payload, buffers[0] == steps
({'views': ['m']}, True)
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["FILTERS", "pack", "unpack"]

_SAMPLE = 1 << 16  # bytes of each buffer tried with every filter
# Python's base85 alphabet uses "<", ">" and "&"; the page's uses ".", "," and ":" there
# (absent from the alphabet, inert in HTML). js/src/export/data.js has the same table.
_PAGE_ALPHABET = np.frombuffer(
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%:()*+-;.=,?@^_`{|}~",
    np.uint8,
)
_FROM_PAGE = bytes.maketrans(b".,:", b"<>&")


def _base85(data: bytes) -> str:
    """``base64.b85encode(data)`` in the page's alphabet, vectorised (the stdlib loops)."""
    pad = -len(data) % 4
    words = np.frombuffer(data + bytes(pad), ">u4").astype(np.int64)
    digits = np.empty((words.size, 5), np.uint8)
    for k in range(4, -1, -1):
        words, digits[:, k] = np.divmod(words, 85)
    return _PAGE_ALPHABET[digits].tobytes()[: digits.size - pad].decode("ascii")


def _shuffle(data: bytes, size: int) -> bytes:
    whole = len(data) - len(data) % size
    grid = np.frombuffer(data, np.uint8, whole).reshape(-1, size)
    return bytes(grid.T.tobytes()) + data[whole:]


def _unshuffle(data: bytes, size: int) -> bytes:
    whole = len(data) - len(data) % size
    grid = np.frombuffer(data, np.uint8, whole).reshape(size, -1)
    return bytes(grid.T.tobytes()) + data[whole:]


def _delta32(data: bytes) -> bytes:
    words = np.frombuffer(data, np.uint32)
    return _shuffle(np.diff(words, prepend=np.uint32(0)).tobytes(), 4)


def _undelta32(data: bytes) -> bytes:
    words = np.frombuffer(_unshuffle(data, 4), np.uint32)
    return bytes(np.cumsum(words, dtype=np.uint32).tobytes())


def _xor64(data: bytes) -> bytes:
    words = np.frombuffer(data, np.uint64)
    out = words.copy()
    out[1:] ^= words[:-1]
    return _shuffle(out.tobytes(), 8)


def _unxor64(data: bytes) -> bytes:
    words = np.frombuffer(_unshuffle(data, 8), np.uint64)
    return bytes(np.bitwise_xor.accumulate(words).tobytes())


#: name -> (filter, inverse, element size the buffer's length must be a multiple of)
FILTERS: dict[str, tuple[Callable[[bytes], bytes], Callable[[bytes], bytes], int]] = {
    "none": (bytes, bytes, 1),
    "shuffle4": (lambda b: _shuffle(b, 4), lambda b: _unshuffle(b, 4), 4),
    "shuffle8": (lambda b: _shuffle(b, 8), lambda b: _unshuffle(b, 8), 8),
    "delta32": (_delta32, _undelta32, 4),
    "xor64": (_xor64, _unxor64, 8),
}


def _best_filter(data: bytes) -> str:
    """The filter under which a sample of ``data`` deflates smallest."""
    if len(data) < 64 or data[:8] == b"\x89PNG\r\n\x1a\n":  # tiny, or compressed already
        return "none"
    sample = data[: _SAMPLE - _SAMPLE % 8]
    sizes = {
        name: len(zlib.compress(forward(sample), 1))
        for name, (forward, _, size) in FILTERS.items()
        if len(data) % size == 0
    }
    return min(sizes, key=sizes.__getitem__)


def pack(payload: dict[str, Any], buffers: Sequence[bytes], *, level: int = 6) -> str:
    """One text holding ``payload`` (JSON-able) and ``buffers``.

    ``payload["buffers"]`` is set to where each buffer lies in the block and how it
    was filtered: ``[{"offset", "length", "filter"}, ...]``.

    Examples
    --------
    >>> unpack(pack({"a": 1}, [b"xyz"]))
    ({'a': 1}, [b'xyz'])
    """
    specs, parts, offset = [], [], 0
    for data in buffers:
        name = _best_filter(data)
        filtered = FILTERS[name][0](data)
        specs.append({"offset": offset, "length": len(filtered), "filter": name})
        parts.append(filtered)
        offset += len(filtered)
    head = json.dumps(
        {**payload, "buffers": specs}, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    ).encode("utf-8")
    block = b"".join([struct.pack("<I", len(head)), head, *parts])
    return _base85(zlib.compress(block, level))


def unpack(text: str) -> tuple[dict[str, Any], list[bytes]]:
    """What :func:`pack` packed: the payload and the buffers, unfiltered.

    Examples
    --------
    >>> payload, buffers = unpack(pack({"runs": ["</script>"]}, [bytes(range(256))]))
    >>> payload["runs"], buffers[0] == bytes(range(256))
    (['</script>'], True)
    """
    block = zlib.decompress(base64.b85decode(text.encode("ascii").translate(_FROM_PAGE)))
    (size,) = struct.unpack_from("<I", block)
    payload: dict[str, Any] = json.loads(block[4 : 4 + size].decode("utf-8"))
    data = block[4 + size :]
    buffers = [
        FILTERS[spec["filter"]][1](data[spec["offset"] : spec["offset"] + spec["length"]])
        for spec in payload.pop("buffers")
    ]
    return payload, buffers
