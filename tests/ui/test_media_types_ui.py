"""No script through a media type: a WAV/HTML polyglot logged as text/html, in Chromium.

The audio and images views are shown in a page served over http from 127.0.0.1 with no
Content-Security-Policy (as JupyterLab serves notebooks; the exported page's own policy
would hide the bug): the real bundles, the real widget state. The polyglot plays (its
bytes are a WAV), and its blob: URL, opened in a new tab as a user can (the browser's
menu, a copied address), is an audio document: no script runs. Bytes that are HTML or
SVG show "unsupported media type" and a download, never a URL that renders. A control
opens the same bytes typed text/html: there the script runs, so the check can fail.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb.notebook.export import render_html
from tests.ui._chromium import Chromium
from tests.writers_hostile import PAYLOAD, write_media_types

pytestmark = pytest.mark.browser

CARD = '.tbnb-card[data-tag="{tag}"]'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``(base URL, folder)`` of an http server on 127.0.0.1 serving a temporary folder."""
    root = tmp_path_factory.mktemp("media_types")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("media_types_logs")
    write_media_types(path)
    return path


def _host_page(widget: Any, served: tuple[str, Path], name: str) -> str:
    """The widget's page without the exported page's CSP, on the http server."""
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>\n', "", render_html(widget))
    assert "Content-Security-Policy" not in text
    (served[1] / name).write_text(text, encoding="utf-8")
    return f"{served[0]}/{name}"


@pytest.fixture
def page(chromium: Chromium) -> Iterator[Any]:
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(30_000)
    yield page
    page.close()
    assert chromium.log.page_errors == []
    assert chromium.log.dialogs == []


def _settled(page: Any, url: str, tags: list[str]) -> None:
    page.goto(url)
    page.wait_for_selector("#tbnb-export-root[data-rendered='true']", state="attached")
    for tag in tags:
        page.wait_for_selector(
            CARD.format(tag=tag) + ":is([data-state=ready], [data-state=error])", state="attached"
        )


def _pwned(chromium: Chromium, url: str) -> Any:
    """Open ``url`` in a new tab; what the page's script left in ``window.__pwned``."""
    tab = chromium.context.new_page()
    try:
        tab.goto(url)
        tab.wait_for_timeout(500)
        return tab.evaluate("() => [window.__pwned ?? null, document.title]")
    finally:
        tab.close()


def test_a_polyglot_clip_plays_and_its_url_runs_no_script(
    page: Any, chromium: Chromium, logdir: Path, served: tuple[str, Path], out_dir: Path
) -> None:
    url = _host_page(tbnb.audio(logdir), served, "audio.html")
    _settled(page, url, ["audio/ok", "audio/polyglot", "audio/html"])
    page.screenshot(path=out_dir / "media_types_01_audio.png", full_page=True)
    polyglot = page.locator(CARD.format(tag="audio/polyglot"))
    assert polyglot.get_attribute("data-state") == "ready"
    src = polyglot.locator("audio").get_attribute("src")
    assert src
    assert src.startswith("blob:http://127.0.0.1")
    assert _pwned(chromium, src)[0] is None
    assert page.evaluate("(u) => fetch(u).then((r) => r.blob()).then((b) => b.type)", src) == (
        "audio/wav"
    )
    # the control: the same bytes typed as the file claims do run their script
    control = page.evaluate(
        """(u) => fetch(u).then((r) => r.arrayBuffer())
             .then((b) => URL.createObjectURL(new Blob([b], {type: "text/html"})))""",
        src,
    )
    assert _pwned(chromium, control) == [1, "pwned"]
    assert page.evaluate("() => window.__pwned ?? null") is None


def test_html_logged_as_audio_is_an_unsupported_download(
    page: Any, chromium: Chromium, logdir: Path, served: tuple[str, Path]
) -> None:
    url = _host_page(tbnb.audio(logdir), served, "audio-html.html")
    _settled(page, url, ["audio/html"])
    card = page.locator(CARD.format(tag="audio/html"))
    assert card.get_attribute("data-state") == "error"
    assert "unsupported media type" in (card.locator(".tbnb-card-msg").text_content() or "")
    assert card.locator("audio").get_attribute("src") is None
    button = card.locator(".tbnb-card-download")
    assert button.is_visible()
    with page.expect_download() as caught:
        button.click()
    download = caught.value
    assert Path(download.path()).read_bytes() == PAYLOAD.encode()
    assert page.locator(CARD.format(tag="audio/ok")).get_attribute("data-state") == "ready"
    assert not page.locator(CARD.format(tag="audio/ok") + " .tbnb-card-download").is_visible()


def test_an_svg_image_is_an_unsupported_download(
    page: Any, logdir: Path, served: tuple[str, Path], out_dir: Path
) -> None:
    url = _host_page(tbnb.images(logdir), served, "images.html")
    _settled(page, url, ["image/png", "image/svg"])
    page.screenshot(path=out_dir / "media_types_02_images.png", full_page=True)
    assert page.locator(CARD.format(tag="image/png")).get_attribute("data-state") == "ready"
    svg = page.locator(CARD.format(tag="image/svg"))
    assert svg.get_attribute("data-state") == "error"
    assert "unsupported media type" in (svg.locator(".tbnb-card-msg").text_content() or "")
    assert svg.locator(".tbnb-card-download").is_visible()
    assert page.locator(".tbnb-root svg, .tbnb-root img").count() == 0
    assert page.evaluate("() => window.__pwned ?? null") is None
