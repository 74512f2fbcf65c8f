"""Media are typed by their bytes, the same way in Python and in the browser.

Real encoders' files (the writers' WAV, Pillow's PNG, JPEG, GIF, WebP and BMP), the
signatures of MP3, Ogg and FLAC, the WAV/HTML polyglot, HTML and SVG, and every
prefix of each: :func:`tbnb.kinds.blob.media_type` and ``sniffMediaType``
(``js/src/media/media-type.js``) give the same type, and nothing that can hold script
gets one.
"""

from __future__ import annotations

import io
import shutil
from typing import Any

import pytest

from tbnb.kinds.blob import media_type
from tests import writers, writers_hostile
from tests.js.test_js import run_node

NODE = shutil.which("node")


def _pillow(fmt: str) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(writers.image_chw(3).transpose(1, 2, 0)).save(out, format=fmt)
    return out.getvalue()


SAMPLES: dict[str, tuple[bytes, str]] = {
    "wav": (writers.wav_bytes(writers.sine(), 8000), "audio/wav"),
    "png": (writers.png_bytes(writers.image_chw(1).transpose(1, 2, 0)), "image/png"),
    "jpeg": (_pillow("JPEG"), "image/jpeg"),
    "gif": (_pillow("GIF"), "image/gif"),
    "webp": (_pillow("WEBP"), "image/webp"),
    "bmp": (_pillow("BMP"), "image/bmp"),
    "mp3 id3": (b"ID3\x04\x00\x00\x00\x00\x00\x00" + b"\xff\xfb\x90\x00" * 4, "audio/mpeg"),
    "mp3 frame": (b"\xff\xfb\x90\x64" + bytes(60), "audio/mpeg"),
    "ogg": (b"OggS\x00\x02" + bytes(40), "audio/ogg"),
    "flac": (b"fLaC\x00\x00\x00\x22" + bytes(40), "audio/flac"),
    "wav/html polyglot": (writers_hostile.wav_html_polyglot(), "audio/wav"),
    "html": (writers_hostile.PAYLOAD.encode(), ""),
    "svg": (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', ""),
    "xml": (b'<?xml version="1.0"?><svg/>', ""),
    "aac adts": (b"\xff\xf1\x50\x80" + bytes(20), ""),
    "pdf": (b"%PDF-1.7\n", ""),
    "riff avi": (b"RIFF\x10\x00\x00\x00AVI LIST", ""),
    "empty": (b"", ""),
}


def test_each_sample_gets_its_type() -> None:
    for name, (data, expected) in SAMPLES.items():
        assert media_type(data) == expected, name


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_python_and_the_browser_type_the_same_bytes() -> None:
    cases = [data[:n] for data, _ in SAMPLES.values() for n in range(min(len(data), 20) + 1)]
    cases += [data for data, _ in SAMPLES.values()]
    script = """
    import { sniffMediaType } from "./src/media/media-type.js";
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    const cases = JSON.parse(chunks.join(""));
    process.stdout.write(JSON.stringify(cases.map((h) => sniffMediaType(Buffer.from(h, "hex")))));
    """
    browser: Any = run_node(script, [c.hex() for c in cases])
    assert browser == [media_type(c) for c in cases]
