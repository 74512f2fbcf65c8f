"""Lazy references to images and audio inside event files.

Loading a logdir keeps only where each image or audio clip lives (file, record
offset, value and sample index) and its metadata; the encoded bytes are read when
asked for, so a logdir with gigabytes of images loads in the memory of its table.

Examples
--------
>>> exp = tbnb.load("runs/")                 # doctest: +SKIP
>>> blob = exp.images["blob"].iloc[0]        # doctest: +SKIP
>>> png = blob.read()                        # the encoded PNG bytes  # doctest: +SKIP
>>> blob                                     # shows the picture in a notebook  # doctest: +SKIP
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from tbnb._proto import Event
from tbnb.normalize import AUDIO, IMAGES, TagMetadata, normalize_value

_MIME = {"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
         "bmp": "image/bmp"}


def read_span(fs: Any, path: str, offset: int, length: int) -> bytes:
    """Read ``length`` bytes at ``offset`` of a file (one record payload)."""
    with fs.open(path, "rb") as f:
        f.seek(offset)
        data = bytes(f.read(length))
    if len(data) != length:
        raise OSError(f"{path}: expected {length} bytes at offset {offset}, got {len(data)}")
    return data


@dataclass(frozen=True, eq=False)
class Blob:
    """One image or audio clip stored in an event file, read on demand."""

    kind: str
    fs: Any
    path: str
    offset: int
    length: int
    value_index: int
    sample_index: int
    nbytes: int
    format: str

    def read(self) -> bytes:
        """Return the encoded bytes (PNG/JPEG/... for images, WAV for audio)."""
        payload = read_span(self.fs, self.path, self.offset, self.length)
        value = Event.FromString(payload).summary.value[self.value_index]
        plugin = "images" if self.kind == IMAGES else "audio"
        normalized = normalize_value(value, TagMetadata(plugin_name=plugin))
        if normalized is None:
            raise ValueError(f"{self.path}: offset {self.offset} holds no {self.kind}")
        return bytes(normalized[1][self.sample_index]["data"])

    def to_numpy(self) -> Any:
        """Decode an image into an ``(h, w, channels)`` uint8 array (needs Pillow)."""
        if self.kind != IMAGES:
            raise TypeError("to_numpy() decodes images; use read() for audio bytes")
        import io

        import numpy as np
        from PIL import Image

        with Image.open(io.BytesIO(self.read())) as image:
            return np.asarray(image)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        if self.kind == IMAGES and self.format in _MIME:
            return {_MIME[self.format]: self.read(), "text/plain": repr(self)}
        if self.kind == AUDIO:
            import base64

            src = base64.b64encode(self.read()).decode("ascii")
            return {"text/html": f'<audio controls src="data:audio/wav;base64,{src}"></audio>',
                    "text/plain": repr(self)}
        return {"text/plain": repr(self)}

    def __repr__(self) -> str:
        name = self.path.rsplit("/", 1)[-1]
        return f"<Blob {self.kind} {self.format} {self.nbytes} bytes at {name}:{self.offset}>"

    def _repr_html_(self) -> str:  # pragma: no cover - notebooks use the mimebundle
        return html.escape(repr(self))
