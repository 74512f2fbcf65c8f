"""Chart images from the save-image button in an exported HTML page (offline, no kernel).

One page (``tbnb.notebook.export.to_html``) holds a chart of every kind that draws one:
scalars, histograms, images and hparams (the bundled sample logdir), PR curves and custom
scalars (torch, tensorboardX and TF2 writers), a model graph (torch ``add_graph``), audio
(torch ``add_audio``) and a projector (torch ``add_embedding``, PNG of its WebGL canvas).
From each, the test saves a PNG (and an SVG where the chart draws with a 2D context) and
checks the downloaded files; nothing may be fetched from the network. SVGs are rendered in
Chromium and screenshotted to tests/ui/out/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb.notebook.export import to_html
from tbnb.notebook.samples import SampleSpec, write_sample
from tests.ui._chromium import Chromium
from tests.ui._saved_images import check_png, check_svg, render_svg, save
from tests.writers_embeddings import write_torch_embeddings
from tests.writers_graphs import write_torch_graph
from tests.writers_media import write_media_torch
from tests.writers_prcurves import cached_pr_logdir

pytestmark = pytest.mark.browser

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1),
    steps=200,
    val_every=50,
    hist_every=50,
    image_steps=(0, 100),
)

#: widget key -> (the element holding its first save button, formats, the SVG's title)
CHARTS: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    "scalars": ('.tbnb-chart[data-tag="train/loss"]', ("png", "svg"), "train/loss"),
    "histograms": (".tbnb-chart", ("png", "svg"), None),
    "images": (".tbnb-card", ("png",), None),
    "hparams": (".tbnb-toolbar", ("png", "svg"), "parallel coordinates"),
    "pr_curves": (".tbnb-pr-chart", ("png", "svg"), None),
    "custom_scalars": (".tbnb-cs-chart", ("png", "svg"), None),
    "graphs": (".tbnb-toolbar", ("png", "svg"), None),
    "audio": (".tbnb-card", ("png",), None),
    "embeddings": (".tbnb-toolbar", ("png",), None),
}
READY_JS = """el => !!el.querySelector('canvas') && el.getAttribute('data-state') !== 'waiting'
  && [...el.querySelectorAll('canvas')].some(c => c.width > 1)"""


@pytest.fixture(scope="module")
def page(chromium: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("save_export")
    write_sample(root / "sample", SPEC)
    write_torch_graph(str(root / "graph"))
    write_media_torch(str(root / "media"))
    write_torch_embeddings(root / "embeddings")
    sample = tbnb.load(root / "sample", progress=False)
    pr = tbnb.load(cached_pr_logdir().logdir, progress=False)
    graph = tbnb.load(root / "graph", progress=False)
    media = tbnb.load(root / "media", progress=False)
    embeddings = tbnb.load(root / "embeddings", progress=False)
    widgets = [
        tbnb.scalars(sample),
        tbnb.histograms(sample),
        tbnb.images(sample),
        tbnb.hparams(sample),
        tbnb.pr_curves(pr),
        tbnb.custom_scalars(pr),
        tbnb.graph(graph),
        tbnb.audio(media),
        tbnb.projector(embeddings),
    ]
    path = to_html(widgets, root / "charts.html")
    return chromium.open_exported(path)


@pytest.mark.parametrize("key", list(CHARTS))
def test_every_chart_saves_its_images_offline(
    page: Any, chromium: Chromium, out_dir: Path, key: str
) -> None:
    selector, formats, title = CHARTS[key]
    chart = (
        page.locator(f".tbnb-w-{key} {selector}").filter(has=page.locator(".tbnb-save-image")).first
    )
    chart.scroll_into_view_if_needed()
    if key not in {"hparams", "graphs", "embeddings"}:
        page.wait_for_function(READY_JS, arg=chart.element_handle(), timeout=30_000)
    else:
        page.wait_for_function(
            "el => el.querySelector('canvas')?.width > 1",
            arg=page.locator(f".tbnb-w-{key}").element_handle(),
            timeout=30_000,
        )
    menu = [b.get_attribute("data-format") for b in chart.locator(".tbnb-save-menu button").all()]
    assert menu == list(formats)
    png = save(page, chart, "png")
    check_png(png).save(out_dir / f"save_export_{key}.png")
    if "svg" in formats:
        svg = save(page, chart, "svg")
        texts = check_svg(svg)
        assert texts, "an SVG with no text"
        if title is not None:
            assert texts[0] == title
        render_svg(chromium, svg, out_dir / f"save_export_{key}_svg.png")
    log = chromium.log
    assert log.external_requests == [], log.external_requests
    assert log.page_errors == [], log.page_errors
    assert log.console_errors == [], log.console_errors
