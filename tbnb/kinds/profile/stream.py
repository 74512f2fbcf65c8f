r"""Chrome-trace JSON (torch.profiler's ``*.pt.trace.json``, TF's ``*.trace.json.gz``), streamed.

Layer ``kinds`` (the profile kind's reader). A trace is one JSON object whose
``traceEvents`` array holds every event (or, as the Chrome format allows, a bare
array). Files reach a gigabyte, so the array is never held whole: the file is read in
blocks, the ends of the array's elements are found with array operations (quotes,
escapes and bracket depth, :func:`element_ends`), and each run of complete elements is
decoded at once by msgspec (into the caller's typed records when it gives a decoder:
fields it does not ask for are skipped, no dict is built per event) and handed on as a
batch, which the caller turns into columns before the next one is read.

A file cut short (a profiler killed mid-write) keeps every event before the cut, and
one warning says where it stopped; an element that is not valid JSON costs that
element only.

Examples
--------
>>> import io
>>> data = b'{"schemaVersion": 1, "traceEvents": [{"ph": "X", "name": "a"}, {"ph": "i"}], "x": 2}'
>>> reader = TraceJson(io.BytesIO(data), "t.json")
>>> sum(len(batch) for batch in reader.batches()), reader.metadata
(2, {'schemaVersion': 1, 'x': 2})
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import msgspec
import numpy as np

__all__ = ["BLOCK", "TraceJson", "element_ends"]

BLOCK = 1 << 20
"""Bytes read at a time: the most of the file held at once, besides one batch."""

_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, ValueError)


def _generic(data: bytes) -> Any:
    return msgspec.json.decode(data)


_QUOTE, _BACKSLASH, _OPEN, _CLOSE = 1, 2, 3, 4
_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[ord('"')] = _QUOTE
_CLASS[ord("\\")] = _BACKSLASH
_CLASS[[ord("{"), ord("[")]] = _OPEN
_CLASS[[ord("}"), ord("]")]] = _CLOSE


def element_ends(buf: bytes | memoryview, start: int = 0) -> tuple[np.ndarray, int]:
    r"""Where the elements of a JSON array end, scanning from an element boundary.

    ``buf[start:]`` begins outside any string at the array's own level (just after
    ``[`` or a comma). Returns the offsets just past each complete element that is an
    object or array, and the offset just past the array's closing ``]`` (-1 if the
    buffer ends before it).

    Examples
    --------
    >>> ends, close = element_ends(b'{"a": "}"}, {"b": [1, {}]}, {"c": "\\\\"}]')
    >>> ends.tolist(), close
    ([10, 26, 39], 40)
    """
    raw = np.frombuffer(buf, dtype=np.uint8)[start:]
    classes = _CLASS[raw]
    where = np.flatnonzero(classes)
    kinds = classes[where]
    quotes = kinds == _QUOTE
    backslashed = np.flatnonzero(quotes & (where > 0))
    if len(backslashed):
        prev = where[backslashed] - 1
        hit = backslashed[raw[prev] == ord("\\")]
        for index in hit.tolist():  # an escaped quote: an odd run of backslashes before it
            at, run = int(where[index]) - 1, 0
            while at >= 0 and raw[at] == ord("\\"):
                run, at = run + 1, at - 1
            quotes[index] = run % 2 == 0
    outside = (np.cumsum(quotes) % 2 == 0) & ~quotes
    step = np.where(outside & (kinds == _OPEN), 1, 0) - np.where(outside & (kinds == _CLOSE), 1, 0)
    depth = np.cumsum(step)
    closes = outside & (kinds == _CLOSE)
    ends = where[closes & (depth == 0)] + 1 + start
    over = np.flatnonzero(closes & (depth < 0))
    close = int(where[over[0]]) + 1 + start if len(over) else -1
    if close >= 0:
        ends = ends[ends < close]
    return ends.astype(np.int64), close


_PIECE = 1 << 18
_BOUNDARY = re.compile(rb"\}\s*,\s*\{")
_WINDOW = 1 << 18


def _skip(buf: bytes, at: int) -> int:
    while at < len(buf) and buf[at] in b" \t\r\n,":
        at += 1
    return at


def _last_boundary(buf: bytes, at: int) -> int:
    """Just past the last ``}`` that ``, {`` follows in ``buf[at:]`` (-1 if none)."""
    begin = max(at, len(buf) - _WINDOW)
    while True:
        last = None
        for last in _BOUNDARY.finditer(buf, begin):  # noqa: B007 - the last one is wanted
            pass
        if last is not None:
            return last.start() + 1
        if begin == at:
            return -1
        begin = at


class TraceJson:
    """Stream the events of one Chrome-trace JSON file in batches.

    Parameters
    ----------
    stream
        The file, opened in binary mode (already decompressed).
    name
        Its path, for messages.
    block
        Bytes read at a time.

    After :meth:`batches` is exhausted, :attr:`metadata` holds the other top-level
    members (``deviceProperties``, ``baseTimeNanoseconds``, ...), :attr:`problems`
    what was wrong (each naming the file) and :attr:`bytes_read` how far it got.
    """

    def __init__(
        self,
        stream: BinaryIO,
        name: str,
        *,
        block: int = BLOCK,
        decode: Callable[[bytes], list[Any]] | None = None,
    ) -> None:
        self.stream = stream
        self.decode = decode or _generic
        self.name = name
        self.block = block
        self.metadata: dict[str, Any] = {}
        self.problems: list[str] = []
        self.bytes_read = 0
        self.events = 0
        self._bad = 0
        self._ended = False

    def _read(self) -> bytes:
        """The next block, read in pieces: a compressed file cut short loses at most
        its last piece (gzip raises on the read that reaches the cut)."""
        pieces: list[bytes] = []
        size = 0
        while size < self.block and not self._ended:
            try:
                piece = self.stream.read(min(_PIECE, self.block - size))
            except (EOFError, OSError, zlib.error) as error:
                self._ended = True
                self.problems.append(
                    f"{self.name}: the compressed file is cut short or corrupt ({error}); "
                    f"the events in its first {self.bytes_read + size:,} bytes are kept"
                )
                break
            if not piece:
                self._ended = True
                break
            pieces.append(piece)
            size += len(piece)
        self.bytes_read += size
        return b"".join(pieces)

    def batches(self) -> Iterator[list[Any]]:
        """Each run of complete events as a list of dicts (non-dict elements dropped).

        Most of the array goes by a fast path: the buffer is cut after the last
        ``}`` that a comma and ``{`` follow, and the run before the cut is decoded in
        one call (a cut inside a string or a nested value cannot decode, so success
        proves the cut is between elements). When that fails, and for the file's end,
        :func:`element_ends` finds the elements exactly.
        """
        buf, at = self._find_array()
        if at < 0:
            return
        eof = False
        while True:
            at = _skip(buf, at)
            cut = _last_boundary(buf, at)
            items = self._try(buf[at:cut]) if cut > at else None
            if items is not None:
                yield items
                at = cut
            if eof or items is None:
                exact = self._exact(buf, at)
                if exact is not None:
                    items, at, close = exact
                    if items:
                        yield items
                    if close >= 0:
                        self._tail(buf[close:])
                        break
                past = self._resync(buf, at) if cut > at else 0
                if past:  # a broken element before the cut: go on after it
                    at = past
                    continue
            if eof:
                rest = bytes(buf[at:]).strip(b" \t\r\n,")
                if rest or not self.problems:
                    self.problems.append(
                        f"{self.name}: the trace ends before its event list closes "
                        f"(cut at byte {self.bytes_read:,}, {self.events:,} events read); "
                        "the events before the cut are kept"
                    )
                break
            more = self._read()
            eof = not more
            buf = buf[at:] + more
            at = 0
        if self._bad:
            self.problems.append(
                f"{self.name}: {self._bad:,} trace events are not valid JSON; skipped, "
                "the rest are kept"
            )

    def _resync(self, buf: bytes, at: int) -> int:
        """Past an element that is not JSON: the next element boundary (0 if none)."""
        found = _BOUNDARY.search(buf, _skip(buf, at))
        if found is None:
            return 0
        self._bad += 1
        return found.start() + 1

    def _try(self, piece: bytes) -> list[Any] | None:
        try:
            items = self.decode(b"[" + piece + b"]")
        except _ERRORS:
            return None
        events = self._records(items)
        self.events += len(events)
        return events

    def _exact(self, buf: bytes, at: int) -> tuple[list[Any], int, int] | None:
        if at >= len(buf):
            return None
        ends, close = element_ends(buf, at)
        items = self._decode(buf, at, ends) if len(ends) else []
        return items, (int(ends[-1]) if len(ends) else at), close

    def _decode(self, buf: bytes, at: int, ends: np.ndarray) -> list[Any]:
        try:
            items = self.decode(b"[" + buf[at : int(ends[-1])] + b"]")
        except _ERRORS:
            items = []
            starts = [at, *ends[:-1].tolist()]
            for begin, end in zip(starts, ends.tolist(), strict=True):
                piece = bytes(buf[begin:end]).lstrip(b" \t\r\n,")
                try:
                    items.extend(self.decode(b"[" + piece + b"]"))
                except _ERRORS:
                    self._bad += 1
        events = self._records(items)
        self.events += len(events)
        return events

    def _records(self, items: list[Any]) -> list[Any]:
        """The decoded elements that are events (a typed decoder returns only those)."""
        if self.decode is not _generic:
            return items
        return [item for item in items if isinstance(item, dict)]

    def _find_array(self) -> tuple[bytes, int]:
        """Read up to the start of the event array; the members before it are metadata."""
        buf = b""
        while True:
            more = self._read()
            buf += more
            head = buf.lstrip()
            if head[:1] == b"[":
                return buf, len(buf) - len(head) + 1
            key = buf.find(b'"traceEvents"')
            if key >= 0:
                colon = buf.find(b"[", key)
                if colon >= 0:
                    self._members(buf[len(buf) - len(head) + 1 : key])
                    return buf, colon + 1
            if not more:
                break
        text = buf.strip()
        try:
            whole = _generic(text) if text else None
        except _ERRORS:
            whole = None
        if isinstance(whole, dict):
            self.metadata = {k: v for k, v in whole.items() if k != "traceEvents"}
            self.problems.append(f"{self.name}: no traceEvents list in the trace: nothing to show")
        else:
            what = (
                "empty"
                if not text
                else "cut short or not a JSON trace (it ends before a traceEvents list)"
            )
            self.problems.append(f"{self.name}: {what}; skipped")
        return buf, -1

    def _members(self, text: bytes) -> None:
        body = text.strip().rstrip(b",")
        if not body:
            return
        try:
            members = _generic(b"{" + body + b"}")
        except _ERRORS:
            self.problems.append(
                f"{self.name}: the members around traceEvents are not JSON (cut short?); "
                "the events are kept"
            )
            return
        if isinstance(members, dict):
            self.metadata.update(members)

    def _tail(self, first: bytes) -> None:
        block, self.block = self.block, 1 << 20
        rest = first + self._read()  # the members after the array: small
        self.block = block
        body = rest.strip().rstrip(b"}").strip().lstrip(b",")
        if body:
            self._members(body)
