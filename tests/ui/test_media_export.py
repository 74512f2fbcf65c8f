"""The media views in exported pages (``tbnb.notebook.export.to_html``), offline, in Chromium.

No kernel: the images, clips and texts a page shows are the ones saved with it (the
items shown when it was written, or every step with ``embed="all"``). A step that was not
saved says so; every interaction that needs no new data works; hostile texts stay text;
the page's Content-Security-Policy lets blob: audio play and nothing else load.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium
from tests.writers_media import (
    HOSTILE_RUNS,
    HOSTILE_TAGS,
    HOSTILE_TEXTS,
    UI_STEPS,
    write_hostile_media,
    write_ui_media,
)

pytestmark = pytest.mark.browser

FORBIDDEN = (
    ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe, "
    ".tbnb-root object, .tbnb-root embed"
)
AT_STEP_JS = """([el, s]) => [...el.querySelectorAll('.tbnb-card[data-tag="samples/img"]')]
  .every(c => c.dataset.state === 'ready' && (c.dataset.run === 'c' || c.dataset.step === s))"""
READY_JS = """el => { const cards = [...el.querySelectorAll('.tbnb-card')].filter(c => !c.hidden);
  return cards.length > 0 && cards.every(c => c.dataset.state === 'ready'); }"""


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("media_export") / "logs"
    write_ui_media(str(path))
    return path


@pytest.fixture
def page(chromium: Chromium) -> Iterator[Any]:
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(30_000)
    yield page
    page.close()
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
    assert chromium.log.dialogs == []


def _open(page: Any, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector("#tbnb-export-root[data-rendered='true']", state="attached")


def _global(page: Any, root: Any, step: int) -> None:
    box = root.locator(".tbnb-global-step input[type=number]").first
    box.fill(str(step))
    box.press("Enter")


def test_images_page_shows_the_saved_steps_and_says_which_are_not(
    page: Any, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    widget = tbnb.images(logdir)
    _open(page, to_html(widget, tmp_path / "images.html"))
    root = page.locator(".tbnb-w-images")
    page.wait_for_function(READY_JS, arg=root.element_handle())
    assert "no kernel" in (root.locator(".tbnb-status").text_content() or "")
    page.screenshot(path=out_dir / "media_export_01_images.png", full_page=True)
    _global(page, root, 50)
    card = root.locator('.tbnb-card[data-run="a"][data-tag="samples/img"]')
    page.wait_for_function(
        "el => el.dataset.step === '50' && el.dataset.state === 'missing'",
        arg=card.element_handle(),
    )
    assert "not saved in this page" in (card.locator(".tbnb-card-msg").text_content() or "")
    root.locator("input.tbnb-brightness").fill("2")  # display options need no kernel
    assert "brightness(2)" in card.locator("canvas").evaluate("c => getComputedStyle(c).filter")


def test_embed_all_pages_step_through_every_image(
    page: Any, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    widget = tbnb.images(logdir, embed="all", max_embed_bytes=5_000_000)
    assert widget.embedded["mode"] == "all"
    widget.compare_runs("a", "b", "samples/img", mode="wipe")
    _open(page, to_html(widget, tmp_path / "all.html"))
    root = page.locator(".tbnb-w-images")
    for step in (UI_STEPS[3], UI_STEPS[7], 0):
        _global(page, root, step)
        page.wait_for_function(AT_STEP_JS, arg=[root.element_handle(), str(step)])
    panel = root.locator(".tbnb-compare")
    page.wait_for_function(
        "el => el.dataset.state === 'ready' && el.dataset.steps === '0,0'",
        arg=panel.element_handle(),
    )
    page.screenshot(path=out_dir / "media_export_02_embed_all.png", full_page=True)


def test_audio_page_plays_its_saved_clips(
    page: Any, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    _open(page, to_html(tbnb.audio(logdir), tmp_path / "audio.html"))
    root = page.locator(".tbnb-w-audio")
    page.wait_for_function(READY_JS, arg=root.element_handle())
    audio = root.locator('.tbnb-card[data-run="b"] audio')
    page.wait_for_function(
        "a => a.readyState >= 1 && Math.abs(a.duration - 0.5) < 0.01", arg=audio.element_handle()
    )
    page.screenshot(path=out_dir / "media_export_03_audio.png", full_page=True)


def test_text_page_keeps_hostile_text_as_text(
    page: Any, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    _open(page, to_html(tbnb.text(logdir, embed="all"), tmp_path / "text.html"))
    root = page.locator(".tbnb-w-text")
    page.wait_for_function(READY_JS, arg=root.element_handle())
    card = root.locator('.tbnb-card[data-tag="hostile/text_summary"]')
    number = card.locator(".tbnb-card-steps input.tbnb-step-input")
    seen = []
    for step in range(len(HOSTILE_TEXTS)):
        number.fill(str(step))
        number.press("Enter")
        page.wait_for_function(
            "([el, s]) => el.dataset.step === s && el.dataset.state === 'ready'",
            arg=[card.element_handle(), str(step)],
        )
        seen.append((card.locator(".tbnb-card-content").text_content() or "").strip())
    assert seen[1] == HOSTILE_TEXTS[1]
    assert seen[3] == HOSTILE_TEXTS[3]
    root.locator("input.tbnb-raw-toggle").check()
    page.wait_for_function("el => el.dataset.mode === 'raw'", arg=card.element_handle())
    assert card.locator("pre.tbnb-raw").text_content() == HOSTILE_TEXTS[-1]
    assert page.locator(FORBIDDEN).count() == 0
    assert page.evaluate("() => window.__pwned") is None
    page.screenshot(path=out_dir / "media_export_04_text.png", full_page=True)


def test_dashboard_page_has_media_tabs(
    page: Any, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    dash = tbnb.Dashboard(logdir)
    try:
        _open(page, to_html(dash, tmp_path / "dash.html"))
    finally:
        dash.close()
    tabs = page.locator(".tbnb-dashboard-tablist > [role=tab]")
    assert tabs.all_text_contents() == ["Images", "Audio", "Text", "Runs"]
    for title, key in (("Audio", "audio"), ("Text", "text"), ("Images", "images")):
        tabs.filter(has_text=title).click()
        page.wait_for_function(READY_JS, arg=page.locator(f".tbnb-w-{key}").element_handle())
    page.screenshot(path=out_dir / "media_export_05_dashboard.png", full_page=True)


@pytest.mark.parametrize("key", ["images", "audio", "text"])
def test_hostile_run_and_tag_names_stay_text_in_the_page(
    page: Any, tmp_path: Path, out_dir: Path, key: str
) -> None:
    write_hostile_media(str(tmp_path / "hostile"))
    build = {"images": tbnb.images, "audio": tbnb.audio, "text": tbnb.text}[key]
    _open(page, to_html(build(tmp_path / "hostile"), tmp_path / f"{key}.html"))
    root = page.locator(f".tbnb-w-{key}")
    page.wait_for_function(READY_JS, arg=root.element_handle())
    cards = root.locator(".tbnb-card")
    assert sorted(cards.locator(".tbnb-card-run").all_text_contents()) == sorted(HOSTILE_RUNS * 2)
    suffix = "/text_summary" if key == "text" else ""
    summaries = root.locator(".tbnb-group > summary").all_text_contents()
    groups = [g.rsplit(" ", 1)[0] for g in summaries]
    assert sorted(groups) == sorted(tag + suffix for tag in HOSTILE_TAGS)
    if key == "text":
        shown = sorted(t.strip() for t in cards.locator(".tbnb-card-content").all_text_contents())
        assert shown == sorted(f"run {k} at 1" for k in (0, 1) for _ in HOSTILE_TAGS)
    assert page.locator(FORBIDDEN).count() == 0
    assert page.evaluate("() => window.__pwned") is None
    page.screenshot(path=out_dir / f"media_export_06_hostile_{key}.png", full_page=True)
