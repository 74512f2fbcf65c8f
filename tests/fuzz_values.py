"""Hypothesis strategies for summary values of every kind, well formed or not.

Messages are built field by field (``field``), so that they can hold what writers never
write but a file may: fields repeated, packed and unpacked halves of one repeated field,
unknown fields, wrong wire types, invalid UTF-8, shapes that the values do not fill,
histograms whose limits and counts differ in number. Each strategy gives the bytes of a
``Summary.Value`` body (tag, optional metadata, one value).
"""

from __future__ import annotations

import math
import struct

from hypothesis import strategies as st

from tbnb._proto import PrCurvePluginData

PLUGINS = ("histograms", "images", "audio", "text", "pr_curves", "", "mesh", "scalars")


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number: int, wire: int, body: bytes) -> bytes:
    """One field: its key, then a varint/fixed value (``body`` as given) or, for wire type
    2, the length and ``body``."""
    key = varint(number << 3 | wire)
    return key + (varint(len(body)) + body if wire == 2 else body)


FLOATS = st.sampled_from([0.0, -0.0, 1.5, 3.0, 1e-310, float("nan"), float("inf"), -2.5, 7.0, 1e30])
COUNTS = st.sampled_from([0.0, 0.0, 1.0, 2.0, 5.0, -1.0, float("nan"), 0.5])


def doubles(values: list[float], packed: bool, number: int) -> bytes:
    if packed:
        return field(number, 2, b"".join(struct.pack("<d", v) for v in values))
    return b"".join(field(number, 1, struct.pack("<d", v)) for v in values)


@st.composite
def soup(draw: st.DrawFn, numbers: tuple[int, int] = (1, 18)) -> bytes:
    """Fields of any number and wire type, their bodies anything."""
    out = b""
    for _ in range(draw(st.integers(0, 4))):
        number = draw(st.integers(*numbers))
        wire = draw(st.sampled_from([0, 1, 2, 5]))
        if wire == 0:
            body = varint(draw(st.integers(-(2**63), 2**64 - 1)))
        elif wire == 1:
            body = draw(st.binary(min_size=8, max_size=8))
        elif wire == 5:
            body = draw(st.binary(min_size=4, max_size=4))
        else:
            body = draw(st.binary(max_size=12))
        out += field(number, wire, body)
    return out


@st.composite
def histo(draw: st.DrawFn) -> bytes:
    """A ``HistogramProto``: the five doubles, limits and counts (packed, unpacked or
    both), sometimes of different lengths, sometimes with unknown fields."""
    k = draw(st.integers(0, 6))
    counts = draw(st.lists(COUNTS, min_size=k, max_size=k))
    limits = sorted(
        draw(st.lists(FLOATS, min_size=k, max_size=k)), key=lambda x: (math.isnan(x), x)
    )
    if draw(st.integers(0, 7)) == 0:
        limits = limits[:-1]  # a count without its limit
    out = b""
    for number in range(1, 6):
        if draw(st.booleans()):
            out += field(number, 1, struct.pack("<d", draw(FLOATS)))
    split = draw(st.integers(0, k))
    out += doubles(limits[:split], draw(st.booleans()), 6)
    out += doubles(limits[split:], draw(st.booleans()), 6)
    out += doubles(counts, draw(st.booleans()), 7)
    if draw(st.integers(0, 5)) == 0:
        out += draw(soup((6, 9)))
    return out


@st.composite
def tensor(draw: st.DrawFn, plugin: str = "") -> bytes:
    """A ``TensorProto`` of the shapes and dtypes a plugin writes, or of any."""
    dtype = draw(st.sampled_from([1, 2, 7, 3, 9, 10, 19, 14, 8, 1, 2, 7]))
    if plugin == "histograms":
        dtype = draw(st.sampled_from([1, 2, 1, 2, 3]))
        shape = [draw(st.integers(0, 4)), draw(st.sampled_from([3, 3, 3, 2]))]
    elif plugin == "pr_curves":
        dtype = draw(st.sampled_from([1, 2, 1, 3]))
        shape = [draw(st.sampled_from([6, 6, 5])), draw(st.integers(0, 5))]
    elif plugin in ("images", "audio", "text"):
        dtype = draw(st.sampled_from([7, 7, 7, 1]))
        shape = draw(st.lists(st.integers(0, 4), max_size=2))
    else:
        shape = draw(st.lists(st.integers(-1, 4), max_size=3))
    size = 1
    for d in shape:
        size *= max(d, 0)
    if draw(st.integers(0, 6)) == 0:
        size = draw(st.integers(0, 3))  # values that do not fill the shape
    out = field(1, 0, varint(dtype))
    dims = b"".join(field(2, 2, field(1, 0, varint(d))) for d in shape)
    out += field(2, 2, dims)
    if draw(st.integers(0, 9)) == 0:
        out += field(3, 0, varint(draw(st.integers(0, 3))))
    if dtype == 7:
        strings = [b"12", b"3"] if plugin == "images" and size >= 2 else []
        strings = (strings + [draw(st.binary(max_size=30)) for _ in range(size)])[:size]
        if plugin == "images" and strings:
            strings = strings[:2] + [
                draw(st.sampled_from([b"\x89PNG\r\n\x1a\n" + bytes(24), b"\xff\xd8x", b" <svg",
                                      b"GIF89a..", b"RIFF0000WEBP", b"BM", b"", b"\t<?xml"]))
                for _ in strings[2:]
            ]  # fmt: skip
        out += b"".join(field(8, 2, s) for s in strings)
    else:
        width = {1: 4, 2: 8, 3: 4, 9: 8, 10: 1, 19: 2, 14: 2, 8: 8}[dtype]
        form = draw(st.sampled_from(["content", "typed", "typed", "none"]))
        if form == "content":
            out += field(4, 2, draw(st.binary(min_size=size * width, max_size=size * width)))
        elif form == "typed" and dtype in (1, 2):
            raw = b"".join(
                struct.pack("<f" if dtype == 1 else "<d", draw(FLOATS)) for _ in range(size)
            )
            if draw(st.booleans()) and size:
                out += field(5 if dtype == 1 else 6, 2, raw)
            else:
                step = 4 if dtype == 1 else 8
                out += b"".join(
                    field(5 if dtype == 1 else 6, 5 if dtype == 1 else 1, raw[i : i + step])
                    for i in range(0, len(raw), step)
                )
        elif form == "typed":
            number = {3: 7, 9: 10, 10: 11, 19: 13, 14: 13, 8: 9}[dtype]
            values = [draw(st.integers(0, 3)) for _ in range(size)]
            if number == 9:
                out += field(9, 2, b"".join(struct.pack("<f", v) for v in values * 2))
            else:
                out += field(number, 2, b"".join(varint(v) for v in values))
    if draw(st.integers(0, 8)) == 0:
        out += draw(soup())
    return out


@st.composite
def image(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from([b"\x89PNG\r\n\x1a\n" + bytes(range(24)), b"\xff\xd8abc", b"",
                                 b"  <svg/>", b"GIF87a", b"xyz"]))  # fmt: skip
    out = b""
    for number in (1, 2, 3):
        if draw(st.booleans()):
            out += field(number, 0, varint(draw(st.integers(-(2**40), 2**40))))
    out += field(4, 2, data)
    if draw(st.integers(0, 6)) == 0:
        out += draw(soup())
    return out


@st.composite
def audio(draw: st.DrawFn) -> bytes:
    import io
    import wave

    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\0\0" * draw(st.integers(0, 5)))
    data = draw(st.sampled_from([buf.getvalue(), b"not a wav", b""]))
    out = b""
    if draw(st.booleans()):
        out += field(1, 5, struct.pack("<f", draw(st.sampled_from([0.0, 8000.0, 44100.0]))))
    for number in (2, 3):
        if draw(st.booleans()):
            out += field(number, 0, varint(draw(st.integers(0, 5))))
    out += field(4, 2, data)
    if draw(st.booleans()):
        out += field(5, 2, draw(st.sampled_from([b"audio/wav", b"", b"\xff", b"text/html"])))
    if draw(st.integers(0, 6)) == 0:
        out += draw(soup())
    return out


def metadata(plugin: str, content: bytes = b"") -> bytes:
    """``SummaryMetadata`` naming ``plugin``."""
    data = field(1, 2, plugin.encode()) + (field(2, 2, content) if content else b"")
    return field(1, 2, data)


@st.composite
def summary_value(draw: st.DrawFn, tag: str | None = None) -> bytes:
    """A ``Summary.Value``: a tag, maybe its plugin metadata, one value of some kind."""
    plugin = draw(st.sampled_from(PLUGINS))
    tag = tag if tag is not None else draw(st.sampled_from(["a", "b/c", "d", ""])) + plugin
    choice = draw(st.integers(0, 9))
    if choice <= 4:
        body = field(8, 2, draw(tensor(plugin)))
    elif choice == 5:
        body = field(5, 2, draw(histo()))
    elif choice == 6:
        body = field(4, 2, draw(image()))
    elif choice == 7:
        body = field(6, 2, draw(audio()))
    elif choice == 8:
        body = field(2, 5, struct.pack("<f", draw(FLOATS)))
    else:
        body = field(draw(st.sampled_from([4, 5, 6, 8])), 2, draw(soup()))
    out = field(1, 2, tag.encode())
    if plugin and draw(st.integers(0, 3)) > 0:
        content = b""
        if plugin == "pr_curves":
            content = PrCurvePluginData(num_thresholds=draw(st.integers(0, 6))).SerializeToString()
        out += field(9, 2, metadata(plugin, content))
    return out + body


@st.composite
def summary_event(draw: st.DrawFn) -> bytes:
    """An ``Event`` of a step, a wall time and one or two summaries of values."""
    out = field(1, 1, struct.pack("<d", draw(FLOATS)))
    out += field(2, 0, varint(draw(st.integers(0, 5))))
    for _ in range(draw(st.integers(1, 2))):
        values = draw(st.lists(summary_value(), min_size=1, max_size=3))
        out += field(5, 2, b"".join(field(1, 2, v) for v in values))
    return out
