"""The images, audio and text views in real JupyterLab + headless Chromium.

One JupyterLab server and one notebook for the module (the tests run in order and share
the page): a logdir written by tensorboardX and TF2's wire format (tests/writers_media.py:
write_ui_media) shown by ``tbnb.images``, ``tbnb.audio``, ``tbnb.text`` and ``%tbnb``.
Each test does what a user does (drag the global step, step a card with the arrow keys,
type an exact step, change brightness, compare two runs under a wipe, seek a clip, toggle
raw text, download the CSV) and reads the widget's state back in Python. Hostile texts
must show as text and run nothing; the page may reach no host but 127.0.0.1 and log no
console error. Screenshots go to tests/ui/out/ (``media_*.png``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pandas as pd
import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all
from tests.writers_media import (
    HOSTILE_RUNS,
    HOSTILE_TAGS,
    HOSTILE_TEXTS,
    UI_STEPS,
    write_hostile_media,
    write_ui_media,
)

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000
NB = "media.ipynb"
CELLS = ["setup", "images", "audio", "text", "readback", "magic", "hostile", "done"]
PIXELS_JS = "el => [...el.querySelectorAll('canvas.tbnb-img')].map(c => c.toDataURL()).join('|')"
FORBIDDEN = (
    ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe, "
    ".tbnb-root object, .tbnb-root embed"
)

READBACK = """\
_reads = globals().get("_reads", 0) + 1
def _shown(w):
    d = w.data
    return [[str(r), str(t), int(s), int(i)] for r, t, s, i in
            zip(d["run"], d["tag"], d["step"], d["sample"] if "sample" in d else [0] * len(d))]
print(f"STATE {_reads} " + json.dumps({
    "images": {"step": wi.step, "positions": wi.positions, "brightness": wi.brightness,
               "contrast": wi.contrast, "fit": wi.fit, "compare": wi.compare,
               "embedded": wi.embedded, "shown": _shown(wi)},
    "audio": {"step": wa.step, "display": wa.display, "shown": _shown(wa)},
    "text": {"raw": wt.raw, "tag_filter": wt.tag_filter, "shown": _shown(wt)}}))"""


@dataclass
class Lab(CellDriver):
    page: Any
    lab: LabServer
    browser: Chromium
    root: Path
    out: Path
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )

    def view(self, tag: str) -> Any:
        return self.cell(tag).locator(f".tbnb-w-{tag}")

    def shot(self, locator: Any, name: str) -> None:
        locator.screenshot(path=self.out / f"media_{name}.png")

    def until(self, check: Callable[[dict[str, Any]], bool], tries: int = 20) -> dict[str, Any]:
        """Read the state back until ``check`` holds (sliders save once they rest)."""
        state: dict[str, Any] = {}
        for _ in range(tries):
            state = self.readback()
            if check(state):
                return state
            self.page.wait_for_timeout(150)
        raise AssertionError(f"state never matched: {state}")

    def wait_ready(self, root: Any, n: int | None = None) -> None:
        """Every visible card (or ``n``) shows its item."""
        root.scroll_into_view_if_needed()
        self.page.wait_for_function(
            """([el, n]) => { const cards = [...el.querySelectorAll('.tbnb-card')]
                 .filter(c => !c.hidden && c.getBoundingClientRect().height > 0);
               const ready = cards.filter(c => c.dataset.state === 'ready').length;
               return n === null ? cards.length > 0 && ready === cards.length : ready >= n; }""",
            arg=[root.element_handle(), n],
            timeout=self.timeout_ms,
        )


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("media_lab")
    logdir = root / "logs"
    write_ui_media(str(logdir))
    hostile = root / "hostile"
    write_hostile_media(str(hostile))
    nb = tagged_notebook(
        "media views",
        {
            "setup": (
                f"import json, tbnb\nexp = tbnb.load({json.dumps(str(logdir))}, progress=False)"
            ),
            "images": "wi = tbnb.images(exp)\nwi",
            "audio": "wa = tbnb.audio(exp)\nwa",
            "text": "wt = tbnb.text(exp)\nwt",
            "readback": READBACK,
            "magic": f"%load_ext tbnb\n%tbnb {json.dumps(str(logdir))}",
            "hostile": f"H = {json.dumps(str(hostile))}\n"
            "for _build in (tbnb.images, tbnb.audio, tbnb.text):\n"
            "    display(_build(H))",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, server, chromium, root, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "media_00_failed.png", server)
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_images_show_every_card_at_its_last_step(lab: Lab) -> None:
    stderr = lab.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    root = lab.view("images")
    lab.wait_ready(root)
    cards = root.locator(".tbnb-card")
    got = sorted(cards.evaluate_all("els => els.map(e => [e.dataset.run, e.dataset.tag])"))
    assert got == sorted(
        [
            ["a", "clips/gif"],
            ["b", "clips/gif"],
            ["a", "samples/img"],
            ["b", "samples/img"],
            ["c", "samples/img"],
        ]
    )
    steps = cards.evaluate_all("els => els.map(e => e.dataset.tag + ':' + e.dataset.step)")
    assert set(steps) == {"clips/gif:0", f"samples/img:{UI_STEPS[-1]}", "samples/img:30"}
    blank = root.locator(".tbnb-card canvas.tbnb-img").evaluate_all(
        """els => els.filter(c => { const d = c.getContext('2d').getImageData(0, 0, c.width,
             c.height).data; return !d.some(v => v > 0); }).length"""
    )
    assert blank == 0
    sizes = root.locator('.tbnb-card[data-tag="samples/img"] canvas').evaluate_all(
        "els => els.map(c => c.dataset.size)"
    )
    assert sorted(sizes) == ["16x16", "32x32", "32x32"]
    samples = root.locator('.tbnb-card[data-run="c"] .tbnb-card-samples')
    assert "1 of 3" in (samples.text_content() or "")  # max_outputs=3: a sample index
    lab.shot(root, "01_images")


def test_global_step_drag_moves_every_card_and_python_follows(lab: Lab) -> None:
    root = lab.view("images")
    before = root.evaluate(PIXELS_JS)
    slider = root.locator(".tbnb-global-step input[type=range]")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    lab.page.mouse.move(box["x"] + box["width"] - 3, y)
    lab.page.mouse.down()
    lab.page.mouse.move(box["x"] + box["width"] * 0.35, y, steps=12)
    lab.page.mouse.up()
    step = int(root.locator(".tbnb-global-step input[type=number]").input_value())
    assert step < UI_STEPS[-1]
    lab.page.wait_for_function(
        "([el, sig]) => (" + PIXELS_JS + ")(el) !== sig", arg=[root.element_handle(), before]
    )
    lab.wait_ready(root)
    state = lab.until(lambda s: s["images"]["step"] == step)["images"]
    shown = {(r, t): s for r, t, s, _ in state["shown"]}
    for card in root.locator('.tbnb-card[data-tag="samples/img"]').all():
        assert (
            int(card.get_attribute("data-step"))
            == shown[(card.get_attribute("data-run"), "samples/img")]
        )
    assert shown[("a", "samples/img")] == step  # a and b log every step of the slider
    lab.shot(root, "02_global_step")


def test_card_keys_and_exact_entry_move_one_card(lab: Lab) -> None:
    root = lab.view("images")
    card_a = root.locator('.tbnb-card[data-run="a"][data-tag="samples/img"]')
    card_b = root.locator('.tbnb-card[data-run="b"][data-tag="samples/img"]')
    start = int(card_a.get_attribute("data-step"))
    card_a.locator(".tbnb-card-steps input.tbnb-step-range").focus()
    lab.page.keyboard.press("ArrowLeft")
    lab.page.keyboard.press("ArrowLeft")
    lab.page.wait_for_function(
        "([el, s]) => el.dataset.step === s", arg=[card_a.element_handle(), str(start - 20)]
    )
    assert "tbnb-pinned" in (card_a.get_attribute("class") or "")
    box = card_b.locator(".tbnb-card-steps input.tbnb-step-input")
    box.fill("54")  # no such step: the nearest one, 50
    box.press("Enter")
    lab.page.wait_for_function("el => el.dataset.step === '50'", arg=card_b.element_handle())
    lab.wait_ready(root)
    state = lab.until(lambda s: len(s["images"]["positions"]) == 2)["images"]
    assert state["positions"]['["a","samples/img"]']["step"] == start - 20
    assert state["positions"]['["b","samples/img"]']["step"] == 50
    shown = {(r, t): s for r, t, s, _ in state["shown"]}
    assert shown[("a", "samples/img")] == start - 20
    assert shown[("b", "samples/img")] == 50
    lab.shot(root, "03_cards_moved")
    card_a.locator(".tbnb-card-follow").click()
    lab.until(lambda s: '["a","samples/img"]' not in s["images"]["positions"])


def test_brightness_contrast_and_actual_size(lab: Lab) -> None:
    root = lab.view("images")
    for name, value in (("brightness", "1.8"), ("contrast", "0.6")):
        root.locator(f"input.tbnb-{name}").evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }",
            value,
        )
    canvas = root.locator('.tbnb-card[data-run="c"] canvas.tbnb-img')
    assert "brightness(1.8) contrast(0.6)" in canvas.evaluate("c => getComputedStyle(c).filter")
    assert canvas.evaluate("c => getComputedStyle(c).imageRendering") == "pixelated"  # 16 px at 280
    root.locator("select.tbnb-fit").select_option("actual")
    lab.page.wait_for_function(
        "c => c.getBoundingClientRect().width === 16", arg=canvas.element_handle()
    )
    state = lab.until(lambda s: s["images"]["fit"] == "actual")["images"]
    assert (state["brightness"], state["contrast"]) == (1.8, 0.6)
    lab.shot(root, "04_brightness_actual")
    root.locator("select.tbnb-fit").select_option("fit")
    root.locator("button.tbnb-reset-filters").click()
    lab.until(lambda s: s["images"]["brightness"] == 1.0)


def test_compare_two_runs_under_a_wipe(lab: Lab) -> None:
    root = lab.view("images")
    root.locator("button.tbnb-compare-toggle").click()
    panel = root.locator(".tbnb-compare")
    panel.locator("select.tbnb-compare-tag").select_option("samples/img")
    panel.locator("select.tbnb-compare-mode").select_option("wipe")
    lab.page.wait_for_function("el => el.dataset.state === 'ready'", arg=panel.element_handle())
    wipe = panel.locator("canvas.tbnb-wipe")
    before = wipe.evaluate("c => c.toDataURL()")
    box = wipe.bounding_box()
    lab.page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
    lab.page.mouse.down()
    lab.page.mouse.move(box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2, steps=5)
    lab.page.mouse.up()
    lab.page.wait_for_function(
        "([c, sig]) => c.toDataURL() !== sig", arg=[wipe.element_handle(), before]
    )
    state = lab.until(
        lambda s: (
            s["images"]["compare"].get("mode") == "wipe"
            and s["images"]["compare"].get("split", 0.5) < 0.3
        )
    )["images"]
    assert state["compare"]["a"] == "a"
    assert state["compare"]["b"] == "b"
    lab.shot(panel, "05_compare_wipe")
    panel.locator("select.tbnb-compare-mode").select_option("side")
    lab.page.wait_for_function("el => el.dataset.state === 'ready'", arg=panel.element_handle())
    lab.shot(panel, "05b_compare_side")
    root.locator("button.tbnb-compare-toggle").click()
    lab.until(lambda s: s["images"]["compare"] == {})


def test_audio_plays_seeks_and_draws(lab: Lab) -> None:
    root = lab.view("audio")
    lab.wait_ready(root)
    card = root.locator('.tbnb-card[data-run="a"]')
    assert "8000 Hz · mono · 0.50 s" in (card.locator(".tbnb-card-info").text_content() or "")
    audio = card.locator("audio")
    assert audio.evaluate("a => a.src.startsWith('blob:')")
    lab.page.wait_for_function(
        "a => a.readyState >= 1 && Math.abs(a.duration - 0.5) < 0.01", arg=audio.element_handle()
    )
    stage = card.locator(".tbnb-audio-stage")
    box = stage.bounding_box()
    lab.page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + 10)
    lab.page.wait_for_function("a => a.currentTime > 0.2", arg=audio.element_handle())
    wave = card.locator("canvas.tbnb-wave").evaluate(
        "c => c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some(v => v > 0)"
    )
    assert wave
    before = card.locator("canvas.tbnb-spec").evaluate("c => c.toDataURL()")
    card.locator(".tbnb-card-steps input.tbnb-step-range").focus()
    lab.page.keyboard.press("Home")
    lab.page.wait_for_function(
        "([c, sig]) => c.toDataURL() !== sig",
        arg=[card.locator("canvas.tbnb-spec").element_handle(), before],
    )
    root.locator("select.tbnb-audio-display").select_option("spectrogram")
    state = lab.until(lambda s: s["audio"]["display"] == "spectrogram")["audio"]
    assert ["a", "speech/tone", 0, 0] in state["shown"]
    lab.shot(root, "06_audio")
    root.locator("select.tbnb-audio-display").select_option("both")


def test_text_renders_markdown_tables_and_hostile_text_as_text(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.view("text")
    lab.wait_ready(root)
    notes = root.locator('.tbnb-card[data-run="a"][data-tag="notes/text_summary"]')
    assert notes.locator(".tbnb-markdown h2").text_content() == f"step {UI_STEPS[-1]}"
    code = notes.locator(".tbnb-markdown pre code")
    assert (
        "monospace" in code.evaluate("c => getComputedStyle(c).fontFamily").lower()
        or "mono" in code.evaluate("c => getComputedStyle(c).fontFamily").lower()
    )
    assert notes.locator(".tbnb-markdown table td").count() == 2
    table = root.locator('.tbnb-card[data-tag="table"] .tbnb-markdown table tr')
    assert table.count() == 2
    hostile = root.locator('.tbnb-card[data-tag="hostile/text_summary"]')
    number = hostile.locator(".tbnb-card-steps input.tbnb-step-input")
    for step, text in enumerate(HOSTILE_TEXTS):
        number.fill(str(step))
        number.press("Enter")
        lab.page.wait_for_function(
            "([el, s]) => el.dataset.step === s && el.dataset.state === 'ready'",
            arg=[hostile.element_handle(), str(step)],
        )
        content = hostile.locator(".tbnb-card-content")
        if text.startswith("<a "):  # an allowed tag whose javascript: URL is dropped
            expect(content).to_have_text("click")  # waits until the new text is drawn
        elif text.startswith("<img"):  # an image reads as its source, never loads
            expect(content).to_have_text("[image (x)]")
        elif "](" not in text:  # any other tag reads as logged
            expect(content).to_have_text(text)
    links = hostile.locator("a[href]").evaluate_all("els => els.map(a => [a.href, a.rel])")
    assert links == [["https://example.org/", "noopener noreferrer nofollow"]]
    assert "[image: y (https://example.org/y.png)]" in (hostile.text_content() or "")
    lab.shot(root, "07_text")
    root.locator("input.tbnb-raw-toggle").check()
    lab.page.wait_for_function("el => el.dataset.mode === 'raw'", arg=notes.element_handle())
    assert notes.locator("pre.tbnb-raw").text_content().startswith(f"## step {UI_STEPS[-1]}")
    assert lab.until(lambda s: s["text"]["raw"])["text"]["raw"]
    lab.shot(root, "08_text_raw")
    root.locator("input.tbnb-raw-toggle").uncheck()
    assert lab.page.locator(FORBIDDEN).count() == 0
    assert lab.page.evaluate("() => window.__pwned") is None


def test_csv_has_a_row_per_card_shown(lab: Lab) -> None:
    root = lab.view("images")
    with lab.page.expect_download() as info:
        root.locator("button.tbnb-download").click()
    path = lab.root / "images.csv"
    info.value.save_as(path)
    table = pd.read_csv(path)
    assert list(table.columns) == [
        "run",
        "tag",
        "step",
        "sample",
        "wall_time",
        "width",
        "height",
        "format",
        "nbytes",
    ]
    assert len(table) == root.locator(".tbnb-card").count()
    assert set(table["format"]) == {"png", "gif"}


def test_dashboard_has_the_media_tabs(lab: Lab) -> None:
    from playwright.sync_api import expect

    dash = lab.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    titles = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert titles == ["Images", "Audio", "Text", "Runs"]
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Text").click()
    lab.wait_ready(dash.locator(".tbnb-w-text"))
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Images").click()
    lab.wait_ready(dash.locator(".tbnb-w-images"))
    lab.shot(dash, "09_dashboard")


def test_hostile_run_and_tag_names_show_as_text(lab: Lab) -> None:
    cell = lab.cell("hostile")
    for key in ("images", "audio", "text"):
        root = cell.locator(f".tbnb-w-{key}")
        lab.wait_ready(root, 4)
        cards = root.locator(".tbnb-card")
        assert cards.count() == 4
        names = sorted(cards.locator(".tbnb-card-run").all_text_contents())
        assert names == sorted(HOSTILE_RUNS * 2)
        groups = [
            (g or "").rsplit(" ", 1)[0]
            for g in root.locator(".tbnb-group > summary").all_text_contents()
        ]
        suffix = "/text_summary" if key == "text" else ""
        assert sorted(groups) == sorted(tag + suffix for tag in HOSTILE_TAGS)
        assert sorted(cards.evaluate_all("cs => cs.map(c => c.dataset.run)")) == sorted(
            HOSTILE_RUNS * 2
        )
    texts = cell.locator(".tbnb-w-text .tbnb-card-content").all_text_contents()
    wanted = sorted(f"run {k} at 1" for k in (0, 1) for _ in HOSTILE_TAGS)
    assert sorted(t.strip() for t in texts) == wanted
    assert cell.locator(FORBIDDEN).count() == 0
    assert lab.page.evaluate("() => window.__pwned") is None
    lab.shot(cell, "11_hostile_names")


def test_saved_notebook_keeps_the_media_shown(lab: Lab) -> None:
    lab.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty")
    nb = json.loads((lab.root / NB).read_text(encoding="utf-8"))
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    media = [
        e
        for e in state.values()
        if e.get("model_module") == "anywidget" and "_held" in e.get("state", {})
    ]
    assert len(media) == 8  # six views and the two dashboard tabs opened (Audio never was)
    for entry in media:
        held = entry["state"]["_held"]
        assert held, "the items shown are saved"
        data = sum(len(b["data"]) * 3 // 4 for b in entry.get("buffers", []))
        assert data <= entry["state"]["max_embed_bytes"] + 64 * 1024  # + the index
        beyond = len(json.dumps({k: v for k, v in entry.items() if k != "buffers"}))
        assert beyond <= 500 * 1024


def test_no_console_errors_and_nothing_left_localhost(lab: Lab) -> None:
    lab.page.screenshot(path=lab.out / "media_10_final.png", full_page=True)
    log = lab.browser.log
    assert log.page_errors == []
    assert log.console_errors == []
    assert log.external_requests == []
    assert log.dialogs == []
