"""Lazy references to bytes inside event files: images, audio clips, graphs.

Loading a logdir keeps only where each image, audio clip or graph lives (file,
record offset, value and sample index) and its metadata; the encoded bytes are read
when asked for, so a logdir with gigabytes of images loads in the memory of its table.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> blob = exp.images["blob"].iloc[0]        # in a notebook, shows the picture
>>> blob.read()[:4]                          # the encoded PNG bytes
b'\x89PNG'
>>> blob.to_numpy().shape
(64, 64, 3)
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from tbnb._proto import Event
from tbnb.io.files import read_span
from tbnb.kinds.base import TagMetadata, Where

__all__ = ["Blob", "media_type"]


def media_type(data: bytes) -> str:
    """The media type of ``data`` from its signature, ``""`` unless it is one that
    cannot run script: WAV, MP3, Ogg, FLAC; PNG, JPEG, GIF, WebP, BMP.

    The file's own claim (an audio summary's ``content_type``) is never trusted: bytes
    typed ``text/html`` or ``image/svg+xml`` become a document with script in the
    notebook's origin. The browser applies the same signatures before it makes a URL
    of any media (``js/src/media/media-type.js``; ``tests/kinds/test_media_types.py``).

    Examples
    --------
    >>> media_type(b"RIFF\\x24\\0\\0\\0WAVEfmt "), media_type(b"<svg onload=x>")
    ('audio/wav', '')
    """
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "audio/wav"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.startswith(b"OggS"):
        return "audio/ogg"
    if data.startswith(b"fLaC"):
        return "audio/flac"
    if data.startswith(b"ID3") or (
        len(data) >= 2 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0 and data[1] & 0x06
    ):
        return "audio/mpeg"  # an ID3 tag, or an MPEG audio frame (layer bits set: not AAC)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data.startswith(b"BM") and len(data) >= 14:
        return "image/bmp"
    return ""


@dataclass(frozen=True, eq=False)
class Blob:
    """Bytes stored in an event file (an image, an audio clip, a graph), read on demand.

    Attributes
    ----------
    kind
        ``"images"``, ``"audio"`` or ``"graphs"``.
    path, offset, length
        The record payload holding the value.
    value_index
        The value's position in its event's ``Summary`` (``-1``: an event-level field).
    sample_index
        Which sample of the value (images and audio hold several).
    nbytes
        Size of the bytes :meth:`read` returns.
    format
        ``png``, ``jpeg``, ... for images, ``wav`` for audio; for graphs the field or
        plugin that wrote it (``graph_def``, ``graph_keras_model``, ...).
    """

    kind: str
    fs: Any
    path: str
    offset: int
    length: int
    value_index: int
    sample_index: int
    nbytes: int
    format: str
    field: str = "summary"

    @classmethod
    def at(
        cls, kind: str, where: Where, *, sample_index: int = 0, nbytes: int = 0, format: str = ""
    ) -> Blob:
        """A blob for the value at ``where``."""
        return cls(
            kind=kind,
            fs=where.fs,
            path=where.path,
            offset=where.offset,
            length=where.length,
            value_index=where.value_index,
            sample_index=sample_index,
            nbytes=nbytes,
            format=format,
            field=where.field,
        )

    def read(self) -> bytes:
        """Return the bytes (PNG/JPEG/... for images, WAV for audio, the serialized graph)."""
        from tbnb.kinds import KINDS

        event = Event.FromString(read_span(self.fs, self.path, self.offset, self.length))
        if self.value_index < 0:
            payload = getattr(event, self.field)
            return bytes(payload if isinstance(payload, bytes) else payload.run_metadata)
        value = event.summary.value[self.value_index]
        meta = TagMetadata.from_proto(value.metadata) if value.HasField("metadata") else None
        kind = KINDS[self.kind]
        if kind.normalize is None:  # pragma: no cover - only kinds with blobs get here
            raise TypeError(f"{self.kind} values have no bytes")
        data = kind.normalize(value, meta)
        if isinstance(data, bytes):
            return data
        return bytes(data[self.sample_index]["data"])

    def to_numpy(self) -> Any:
        """Decode an image into an ``(h, w, channels)`` uint8 array (needs Pillow)."""
        if self.kind != "images":
            raise TypeError("to_numpy() decodes images; use read() for the bytes")
        import io

        import numpy as np
        from PIL import Image

        with Image.open(io.BytesIO(self.read())) as image:
            return np.asarray(image)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The picture or a player, typed by the bytes' signature (:func:`media_type`);
        anything else as text only."""
        if self.kind not in ("images", "audio"):
            return {"text/plain": repr(self)}
        data = self.read()
        kind = media_type(data)
        if self.kind == "images" and kind.startswith("image/"):
            return {kind: data, "text/plain": repr(self)}
        if self.kind == "audio" and kind.startswith("audio/"):
            import base64

            src = base64.b64encode(data).decode("ascii")
            return {
                "text/html": f'<audio controls src="data:{kind};base64,{src}"></audio>',
                "text/plain": repr(self),
            }
        return {"text/plain": f"{self!r} (unsupported media type: shown as text)"}

    def __repr__(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return f"<Blob {self.kind} {self.format} {self.nbytes} bytes at {name}:{self.offset}>"

    def _repr_html_(self) -> str:  # pragma: no cover - notebooks use the mimebundle
        return html.escape(repr(self))
