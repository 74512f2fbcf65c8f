"""Charts read as a TensorBoard user expects, in headless Chromium (exported pages: the
same front ends as in JupyterLab, no kernel needed for what is checked here).

- scalars: the y range follows the runs shown (a run unticked, outliers ignored);
  run names wrap at their separators, not mid-token;
- audio: a 0.1 s clip reads "0.00 / 0.10 s" (the native player said "0:00 / 0:00"); the
  spectrogram has a frequency axis and the pictures a time axis;
- PR curves: a chart takes its card's width and follows it when the page is resized.

The logdir is written by tensorboardX: eight runs of long names, one with a loss forty
times the others'.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

BIG = "optimizer=adamw,lr=0.1,weight_decay=0.00,seed=0,warmup_steps=500"


def _name(i: int) -> str:
    lr = 10 ** -(1 + i % 4)
    return f"optimizer=adamw,lr={lr:g},weight_decay=0.0{i % 3},seed={i},warmup_steps=500"


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tensorboardX import SummaryWriter

    root = tmp_path_factory.mktemp("reading") / "logs"
    rng = np.random.default_rng(0)
    for i in range(8):
        with SummaryWriter(str(root / _name(i))) as writer:
            scale = 40.0 if i == 0 else 1.0 + 0.1 * i
            for step in range(60):
                writer.add_scalar("train/loss", scale / (1 + 0.05 * step), step)
            if i < 2:
                tone = np.sin(np.linspace(0, 2 * np.pi * 440 * 0.1, 1600)).astype(np.float32)
                writer.add_audio("clip/short", tone, 0, sample_rate=16000)
                labels = rng.integers(0, 2, 400)
                writer.add_pr_curve(
                    "pr/class0", labels, np.clip(labels * 0.4 + rng.random(400) * 0.6, 0, 1), 0
                )
    assert _name(0) == BIG
    return root


def _y_domain(chart: object) -> tuple[float, float]:
    lo, hi = str(chart.get_attribute("data-y-domain")).split(",")  # type: ignore[attr-defined]
    return float(lo), float(hi)


def test_scalars_y_range_follows_the_runs_shown(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    page = chromium.open_exported(to_html(tbnb.scalars(tbnb.load(logdir)), tmp_path / "s.html"))
    loss = page.locator('.tbnb-chart[data-tag="train/loss"]')
    page.wait_for_function("el => el.hasAttribute('data-y-domain')", arg=loss.element_handle())
    _lo, hi = _y_domain(loss)
    assert hi >= 40  # the big run is drawn
    page.locator(f".tbnb-run-toggle[data-run='{BIG}']").uncheck()
    page.wait_for_function(
        "el => el.getAttribute('data-series-count') === '7'", arg=loss.element_handle()
    )
    lo2, hi2 = _y_domain(loss)
    assert hi2 < 3
    assert lo2 >= -0.5
    page.screenshot(path=out_dir / "reading_01_scalars_hidden_run.png")
    # ignoring outliers refits to the runs shown too, and back when the run returns
    shown = loss.get_attribute("data-y-domain")
    loss.locator("input.tbnb-outliers").check()
    page.wait_for_function(
        "([el, d]) => el.getAttribute('data-y-domain') !== d", arg=[loss.element_handle(), shown]
    )
    assert _y_domain(loss)[1] < hi2
    page.locator(f".tbnb-run-toggle[data-run='{BIG}']").check()
    page.wait_for_function(
        "el => el.getAttribute('data-series-count') === '8'", arg=loss.element_handle()
    )
    assert _y_domain(loss)[1] > hi2
    # long names wrap at their commas (<wbr>), and read as the whole name
    name = page.locator(f".tbnb-legend-item[data-run='{BIG}'] .tbnb-run-name")
    assert name.text_content() == BIG
    assert name.locator("wbr").count() == BIG.count(",") + BIG.count("_")
    assert chromium.log.page_errors == []


def test_audio_reads_sub_second_clips_and_has_axes(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    page = chromium.open_exported(to_html(tbnb.audio(tbnb.load(logdir)), tmp_path / "a.html"))
    card = page.locator(".tbnb-card").first
    time = card.locator(".tbnb-audio-time")
    page.wait_for_function("el => el.textContent !== ''", arg=time.element_handle())
    assert time.text_content() == "0.00 / 0.10 s"
    freq = card.locator(".tbnb-freq-axis .tbnb-audio-tick").all_text_contents()
    assert freq[0] == "0"
    assert freq[-1] == "8 kHz"
    times = card.locator(".tbnb-time-axis .tbnb-audio-tick").all_text_contents()
    assert times[0] == "0"
    assert times[-1] == "0.1 s"
    # the labels sit on the pictures: the top frequency at the top of the spectrogram
    spec = card.locator("canvas.tbnb-spec").bounding_box()
    top = card.locator(".tbnb-freq-axis .tbnb-audio-tick").last.bounding_box()
    assert spec
    assert top
    assert abs(top["y"] - spec["y"]) < 3
    card.screenshot(path=out_dir / "reading_02_audio_card.png")
    # a log frequency axis labels its decades
    page.locator("select.tbnb-frequency-scale").select_option("log")
    page.wait_for_function(
        "el => el.textContent.includes('0.1')", arg=card.locator(".tbnb-freq-axis").element_handle()
    )
    assert chromium.log.page_errors == []


def test_pr_chart_takes_its_cards_width(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    page = chromium.open_exported(to_html(tbnb.pr_curves(tbnb.load(logdir)), tmp_path / "p.html"))

    def widths() -> tuple[float, float]:
        card = page.locator(".tbnb-pr-chart").first.bounding_box()
        canvas = page.locator(".tbnb-pr-chart .tbnb-pr-body canvas").first.bounding_box()
        assert card
        assert canvas
        return card["width"], canvas["width"]

    for width in (1920, 1000, 1400):
        page.set_viewport_size({"width": width, "height": 1200})
        page.wait_for_timeout(300)
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        card, chart = widths()
        content = page.locator(".tbnb-content").first.bounding_box()
        assert content is not None
        assert card > 0.9 * content["width"], (width, card, content)  # one chart: the whole row
        assert chart > card - 20, (width, card, chart)  # and the chart the whole card
        page.screenshot(path=out_dir / f"reading_03_pr_{width}.png")
    assert chromium.log.page_errors == []
