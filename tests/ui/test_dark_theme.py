"""Every view in a light and a dark theme: exported pages (``theme="light"|"dark"|"auto"``)
and real JupyterLab with its dark theme, each tab of the sample logdir (every kind)
screenshotted light and dark (tests/ui/out/theme_*.png, looked at), text and chart axes in
the theme's colours, images and sprites unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

import tbnb
from tbnb.notebook.samples import sample_logdir
from tbnb.notebook.tabs import tabs
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000

#: A root's text colour and the page's background, as the reader sees them.
COLOURS_JS = """root => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const light = c => { const [r, g, b] = rgb(c); return (r * 299 + g * 587 + b * 114) / 1000; };
  let bg = 'rgba(0, 0, 0, 0)';
  for (let e = root; e && e.nodeType === 1; e = e.parentElement || e.getRootNode().host) {
    const b = getComputedStyle(e).backgroundColor;
    if (!/rgba\\(.*, 0\\)$/.test(b) && b !== 'transparent') { bg = b; break; }
  }
  if (bg === 'rgba(0, 0, 0, 0)') bg = getComputedStyle(document.body).backgroundColor;
  return { text: light(getComputedStyle(root).color), background: light(bg),
           dark: root.classList.contains('tbnb-dark') };
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("themes")
    dash = tbnb.Dashboard(sample_logdir())
    try:
        return {theme: dash.to_html(root / f"{theme}.html", theme=theme) for theme in tbnb_themes()}
    finally:
        dash.close()


def tbnb_themes() -> tuple[str, ...]:
    from tbnb.notebook.export import THEMES

    return THEMES


def shoot_every_tab(page: Any, dash: Any, out_dir: Path, name: str) -> list[dict[str, Any]]:
    """Open every tab, screenshot its panel, and read the colours of its view."""
    seen = []
    for i, spec in enumerate(tabs()):
        dash.locator('[role="tab"]').nth(i).click()
        panel = dash.locator(".tbnb-dashboard-panel:not([hidden])")
        view = panel.locator(".tbnb-root").first
        view.wait_for(state="visible", timeout=TIMEOUT_MS)
        page.wait_for_timeout(400)  # a frame for the charts to draw
        panel.screenshot(path=out_dir / f"theme_{name}_{i:02d}_{spec.key}.png")
        seen.append({"key": spec.key, **view.evaluate(COLOURS_JS)})
    return seen


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_exported_pages_follow_their_theme(
    theme: str, pages: dict[str, Path], chromium: Chromium, out_dir: Path
) -> None:
    page = chromium.open_exported(pages[theme])
    dash = page.locator(".tbnb-w-dashboard")
    seen = shoot_every_tab(page, dash, out_dir, f"export_{theme}")
    for view in seen:
        assert view["dark"] == (theme == "dark"), view
        if theme == "dark":
            assert view["text"] > 180, view  # light text on a dark page
            assert view["background"] < 60, view
        else:
            assert view["text"] < 80, view
            assert view["background"] > 200, view
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    page.close()


def test_auto_follows_the_readers_browser(pages: dict[str, Path], chromium: Chromium) -> None:
    page = chromium.page()
    for scheme, dark in (("dark", True), ("light", False)):
        page.emulate_media(color_scheme=scheme)
        page.goto(pages["auto"].as_uri())
        page.wait_for_selector("#tbnb-export-root[data-rendered='true']", state="attached")
        root = page.locator(".tbnb-w-scalars").first
        root.wait_for(state="visible")
        assert root.evaluate(COLOURS_JS)["dark"] is dark
    page.emulate_media(color_scheme="dark")
    page.locator('[role="tab"]', has_text="Images").click()  # images are never recoloured
    canvas = page.locator(
        ".tbnb-dashboard-panel:not([hidden]) .tbnb-w-images .tbnb-card canvas"
    ).first
    canvas.wait_for(state="visible")
    assert canvas.evaluate("c => getComputedStyle(c).filter") in ("none", "")
    page.emulate_media(color_scheme="light")


@pytest.fixture(scope="module")
def dark_lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    import json

    root = tmp_path_factory.mktemp("darklab")
    nb = tagged_notebook(
        "tbnb dark",
        {
            "dash": f"import tbnb\ntbnb.Dashboard({str(sample_logdir())!r})",
            "done": "print('ALL_DONE')",
        },
    )
    nbformat.write(nb, root / "dark.ipynb")  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    theme = lab.state / "lab-settings" / "@jupyterlab" / "apputils-extension"
    theme.mkdir(parents=True, exist_ok=True)
    (theme / "themes.jupyterlab-settings").write_text(json.dumps({"theme": "JupyterLab Dark"}))
    lab.start()
    page = chromium.page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, lab.url("/lab/tree/dark.ipynb"), "dark.ipynb")
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(page, cells.nth(2), out_dir / "theme_lab_failed.png", lab)
        yield page
    finally:
        report = lab.stop()
        assert report["clean"], report


def test_jupyterlab_dark_theme(dark_lab: Any, chromium: Chromium, out_dir: Path) -> None:
    page = dark_lab
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
    dash = page.locator(".jp-Cell .tbnb-w-dashboard").first
    seen = shoot_every_tab(page, dash, out_dir, "lab_dark")
    for view in seen:
        assert view["dark"], view
        assert view["text"] > 150, view
        assert view["background"] < 80, view
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
