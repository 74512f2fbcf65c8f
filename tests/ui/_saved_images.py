"""Save a chart's image from its save-image button and check the downloaded file.

Shared by the JupyterLab and exported-page tests: ``save`` opens the chart's menu (with
the mouse, or from the keyboard), picks PNG or SVG and returns the download;
``check_png`` decodes it (Pillow) and ``check_svg`` parses it (``xml.etree``) and
returns its text elements; ``render_svg`` loads an SVG in the browser, as a user's
viewer would, and screenshots it.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SVG_NS = "{http://www.w3.org/2000/svg}"


@dataclass
class Saved:
    name: str
    data: bytes


def save(page: Any, chart: Any, fmt: str, *, keyboard: bool = False) -> Saved:
    """Save ``chart`` (a ``.tbnb-chart`` locator) as ``fmt`` ("png" or "svg")."""
    from playwright.sync_api import expect

    button = chart.locator(".tbnb-save-button")
    chart.scroll_into_view_if_needed()
    menu = chart.locator(".tbnb-save-menu")
    with page.expect_download(timeout=30_000) as info:
        if keyboard:
            button.focus()
            page.keyboard.press("Enter")
            expect(menu).to_be_visible()
            if fmt == "svg":
                page.keyboard.press("ArrowDown")
            expect(menu.locator(f'[data-format="{fmt}"]')).to_be_focused()
            page.keyboard.press("Enter")
        else:
            button.click()
            menu.locator(f'[data-format="{fmt}"]').click()
    download = info.value
    expect(menu).to_be_hidden()
    assert chart.locator(".tbnb-save-image").get_attribute("data-error") is None
    return Saved(download.suggested_filename, Path(download.path()).read_bytes())


def check_png(saved: Saved, css_width: int | None = None, css_height: int = 0) -> Any:
    """Decode the PNG: at twice the chart's CSS width (when given; else at least twice the
    narrowest image), taller than the chart (title and legend), with many colours (a
    drawn chart, not a blank). Returns the image."""
    from PIL import Image

    assert saved.name.endswith(".png"), saved.name
    image = Image.open(io.BytesIO(saved.data))
    image.load()
    assert image.format == "PNG"
    if css_width is None:
        assert image.width >= 2 * 160, image.size
    else:
        assert image.width == 2 * css_width, (image.size, css_width)
    assert image.height > 2 * css_height, (image.size, css_height)
    colors = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colors) > 20, len(colors)
    return image


def check_svg(saved: Saved) -> list[str]:
    """Parse the SVG (well-formed XML, an ``<svg>`` root, no script or foreign element)
    and return the text of its ``<text>`` elements in order."""
    assert saved.name.endswith(".svg"), saved.name
    root = ET.fromstring(saved.data)
    assert root.tag == f"{SVG_NS}svg"
    allowed = {"svg", "title", "defs", "clipPath", "g", "path", "text", "image"}
    tags = {el.tag.removeprefix(SVG_NS) for el in root.iter()}
    assert tags <= allowed, tags - allowed
    for el in root.iter():
        assert not any(k.lower().startswith("on") for k in el.attrib), el.attrib
    return ["".join(el.itertext()) for el in root.iter(f"{SVG_NS}text")]


def render_svg(browser: Any, saved: Saved, shot: Path) -> None:
    """Open the SVG file in a new page (a viewer), check it drew, screenshot it."""
    path = shot.with_suffix(".svg")
    path.write_bytes(saved.data)
    viewer = shot.with_suffix(".html")
    viewer.write_text(f'<body style="margin:0"><img id="svg" src="{path.name}"></body>')
    opener = browser.context.pages[0] if browser.context.pages else None
    page = browser.context.new_page()
    try:
        page.bring_to_front()
        page.goto(viewer.as_uri())
        page.wait_for_function("() => document.getElementById('svg').complete")
        size = page.evaluate(
            "() => [document.getElementById('svg').naturalWidth,"
            " document.getElementById('svg').naturalHeight]"
        )
        assert size[0] > 100, size  # the browser decoded and sized it
        assert size[1] > 100, size
        page.locator("#svg").screenshot(path=shot)
    finally:
        page.close()
        if opener is not None:
            opener.bring_to_front()
