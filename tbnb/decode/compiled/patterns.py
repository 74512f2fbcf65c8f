"""The exact byte layouts writers use for one scalar per event, matched without parsing.

torch and tensorboardX write ``simple_value`` events, TF2 rank-0 tensor events, with
one-byte lengths in a fixed order; matching those bytes directly is several times
faster than walking protobuf fields. Anything else goes to the general parser in
:mod:`tbnb.decode.scalars`.

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import Event
>>> event = Event(wall_time=1.0, step=3)
>>> event.summary.value.add(tag="acc", simple_value=0.5).tag
'acc'
>>> raw = np.frombuffer(event.SerializeToString(), np.uint8)
>>> match_simple(raw, 0, raw.size)[:3]
(True, 1.0, 3)
"""

from __future__ import annotations

import numpy as np

from tbnb.decode.compiled.validate import valid_metadata
from tbnb.decode.compiled.wire import f32, f64, varint
from tbnb.decode.layouts import DTYPE_DOUBLE, DTYPE_FLOAT, DTYPE_SIMPLE
from tbnb.jit import njit

__all__ = ["match_simple"]


@njit(inline="always")
def match_simple(
    buf: np.ndarray, p: int, end: int
) -> tuple[bool, float, int, int, int, float, int, int, int]:
    """The exact layouts writers use for one scalar per event, matched byte by byte.

    ``09 <f64 wall> [10 <varint step>] 2a L1 0a L2 0a T <tag> <value> [4a M <metadata>]``
    with one-byte lengths that tile the record exactly, where ``<value>`` is torch's
    and tensorboardX's ``15 <f32>`` (``simple_value``) or TF2's rank-0 tensor
    ``42 0a 08 01 12 00 2a 04 <f32>`` (``float_val``), ``... 22 04 <f32>``
    (``tensor_content``) or ``42 0e 08 02 12 00 32 08 <f64>`` (``double_val``).
    Returns (matched, wall, step, tag start, tag length, value, dtype code, metadata
    start, metadata length). Anything else goes through the general parser.
    """
    no = (False, 0.0, 0, 0, 0, 0.0, 0, -1, 0)
    if end - p < 17 or buf[p] != 0x09:
        return no
    q = p + 9
    st = np.int64(0)
    if buf[q] == 0x10:
        st, q = varint(buf, q + 1, end)
        if q < 0 or end - q < 8:
            return no
    n1 = int(buf[q + 1])
    n2 = int(buf[q + 3])
    t = int(buf[q + 5])
    if (
        buf[q] != 0x2A
        or buf[q + 2] != 0x0A
        or buf[q + 4] != 0x0A
        or n1 >= 0x80
        or n1 != end - q - 2
        or n2 != n1 - 2
        or t >= 0x80
    ):
        return no
    ve = q + 4 + n2  # end of the Summary.Value
    r = q + 6 + t
    if r + 5 > ve:
        return no
    code = 0
    val = 0.0
    if buf[r] == 0x15:
        val = f32(buf, r + 1)
        code = DTYPE_SIMPLE
        r += 5
    elif (
        buf[r] == 0x42
        and r + 12 <= ve
        and buf[r + 1] == 0x0A
        and buf[r + 2] == 0x08
        and buf[r + 3] == 0x01
        and buf[r + 4] == 0x12
        and buf[r + 5] == 0x00
        and (buf[r + 6] == 0x2A or buf[r + 6] == 0x22)
        and buf[r + 7] == 0x04
    ):
        val = f32(buf, r + 8)
        code = DTYPE_FLOAT
        r += 12
    elif (
        buf[r] == 0x42
        and r + 16 <= ve
        and buf[r + 1] == 0x0E
        and buf[r + 2] == 0x08
        and buf[r + 3] == 0x02
        and buf[r + 4] == 0x12
        and buf[r + 5] == 0x00
        and (buf[r + 6] == 0x32 or buf[r + 6] == 0x22)
        and buf[r + 7] == 0x08
    ):
        val = f64(buf, r + 8)
        code = DTYPE_DOUBLE
        r += 16
    else:
        return no
    if r == ve:
        return True, f64(buf, p + 1), st, q + 6, t, val, code, -1, 0
    m = int(buf[r + 1]) if r + 2 <= ve else 0x80
    if buf[r] != 0x4A or m >= 0x80 or r + 2 + m != ve or not valid_metadata(buf, r + 2, ve):
        return no
    return True, f64(buf, p + 1), st, q + 6, t, val, code, r + 2, m
