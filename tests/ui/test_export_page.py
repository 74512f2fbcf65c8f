"""Exported HTML pages in headless Chromium: render offline, interactive, nothing injected.

The logdir is written by tensorboardX with a run named like a script-closing tag
(nested directories give the run name ``</script><script>alert(1)</script>``)
and a tag carrying an ``<img onerror>`` payload (written as a raw ``Summary``
through tensorboardX's file writer, since its ``add_scalar`` renames illegal
tags; other writers do not).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import ipywidgets
import pytest
import traitlets

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

EVIL_RUN = "</script><script>alert(1)</script>"
EVIL_TAG = "<img src=x onerror=alert(2)>"
SIGNATURE_JS = """el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|')"""


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    root = tmp_path_factory.mktemp("export") / "logs"
    for run, scale in [(EVIL_RUN, 1.0), ("baseline", 2.0), ("lr=0.1", 3.0)]:
        with SummaryWriter(str(root / run)) as writer:  # "/" in the name nests directories
            for step in range(50):
                writer.add_scalar("train/loss", scale / (1 + step), step)
                evil = Summary(value=[Summary.Value(tag=EVIL_TAG, simple_value=scale * step % 7)])
                writer.file_writer.add_summary(evil, step)
    return root


def test_scalars_page_renders_offline_and_safely(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    exp = tbnb.load(logdir)
    assert EVIL_RUN in exp.runs  # the writer really produced that run name
    widget = tbnb.scalars(exp, smoothing=0.6)
    page = chromium.open_exported(to_html(widget, tmp_path / "scalars.html"))
    root = page.locator(".tbnb-w-scalars")
    root.wait_for()
    loss = page.locator('.tbnb-chart[data-tag="train/loss"]')
    assert loss.get_attribute("data-series-count") == "3"
    evil_chart = page.locator(".tbnb-chart").filter(has_text="onerror")
    assert evil_chart.count() == 1
    assert evil_chart.get_attribute("data-tag") == EVIL_TAG  # shown as text, not as an <img>
    assert page.locator("img").count() == 0
    assert page.locator(".tbnb-run-toggle").count() == 3
    assert EVIL_RUN in (root.text_content() or "")
    # interactions need no kernel: smoothing redraws, toggling a run drops a series
    before = loss.evaluate(SIGNATURE_JS)
    page.locator("input.tbnb-smoothing").fill("0.95")
    page.wait_for_function(
        "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig", arg=[loss.element_handle(), before]
    )
    page.locator(".tbnb-run-toggle[data-run='baseline']").uncheck()
    page.wait_for_function(
        "el => el.getAttribute('data-series-count') === '2'", arg=loss.element_handle()
    )
    page.screenshot(path=out_dir / "export_01_scalars.png", full_page=True)
    log = chromium.log
    assert log.dialogs == []
    assert log.external_requests == []
    assert log.page_errors == []
    assert log.console_errors == []


def test_dashboard_page_has_tabs(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    dash = tbnb.Dashboard(logdir)
    page = chromium.open_exported(to_html(dash, tmp_path / "dash.html", title=EVIL_RUN))
    assert page.title() == EVIL_RUN
    assert page.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents() == [
        "Scalars",
        "Runs",
    ]
    assert page.locator(".tbnb-dashboard .tbnb-w-scalars .tbnb-chart").count() == 2
    assert "logs" in (page.locator(".tbnb-dashboard-header").text_content() or "")
    page.screenshot(path=out_dir / "export_02_dashboard.png", full_page=True)
    assert chromium.log.dialogs == []
    assert chromium.log.external_requests == []
    assert chromium.log.page_errors == []


def test_dashboard_page_keeps_hparams_scalars_link(
    chromium: Chromium, out_dir: Path, tmp_path: Path
) -> None:
    from tbnb.notebook.samples import SampleSpec, write_sample

    logdir = tmp_path / "sweep"
    write_sample(
        logdir,
        SampleSpec(
            learning_rates=(1e-3, 1e-2),
            seeds=(0, 1),
            steps=30,
            val_every=10,
            hist_every=10,
            image_steps=(),
        ),
    )
    dash = tbnb.Dashboard(logdir)
    dash.views["hparams"].brush("lr", (0.005, 1.0))  # only the two lr=0.01 runs
    page = chromium.open_exported(to_html(dash, tmp_path / "sweep.html"))
    loss = page.locator('.tbnb-chart[data-tag="train/loss"]')
    assert loss.get_attribute("data-series-count") == "2"
    page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="HParams").click()
    page.locator("button.tbnb-hp-reset").click()  # the browser-side link updates the scalars
    page.locator(".tbnb-dashboard-tablist > [role=tab]").get_by_text("Scalars", exact=True).click()
    page.wait_for_function(
        "el => el.getAttribute('data-series-count') === '4'", arg=loss.element_handle()
    )
    page.screenshot(path=out_dir / "export_03_linked_dashboard.png", full_page=True)
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []


class _Counter(anywidget.AnyWidget):
    """Checks the shim's model API: binary buffers, change events, initialize + render."""

    _esm = """
    export default {
      initialize({ model }) { model.set("inits", model.get("inits") + 1); },
      render({ model, el }) {
        const bytes = new Uint8Array(model.get("blob").buffer);
        const out = document.createElement("span");
        out.className = "counter";
        const draw = () => { out.textContent =
          `${model.get("label")}|sum=${bytes.reduce((a, b) => a + b, 0)}|n=${model.get("n")}` +
          `|inits=${model.get("inits")}`; };
        const button = document.createElement("button");
        button.textContent = "+";
        button.addEventListener("click", () => { model.set("n", model.get("n") + 1);
                                                 model.save_changes(); });
        model.on("change:n", draw);
        draw();
        el.append(out, button);
      },
    };
    """
    label = traitlets.Unicode(EVIL_TAG).tag(sync=True)
    blob = traitlets.Bytes(bytes(range(10))).tag(sync=True)
    n = traitlets.Int(0).tag(sync=True)
    inits = traitlets.Int(0).tag(sync=True)


def test_links_work_in_the_page(chromium: Chromium, tmp_path: Path) -> None:
    source, target, both = _Counter(label="source"), _Counter(label="target"), _Counter()
    ipywidgets.jsdlink((source, "n"), (target, "n"))
    ipywidgets.jslink((target, "n"), (both, "n"))
    page = chromium.open_exported(
        to_html(ipywidgets.VBox([source, target, both]), tmp_path / "links.html")
    )
    counters = page.locator(".counter")
    buttons = page.locator("button", has_text="+")
    buttons.nth(0).click()  # source -> target -> both
    assert [t.split("|")[2] for t in counters.all_text_contents()] == ["n=1", "n=1", "n=1"]
    buttons.nth(2).click()  # both -> target (two-way), not back to source (one-way)
    assert [t.split("|")[2] for t in counters.all_text_contents()] == ["n=1", "n=2", "n=2"]
    assert chromium.log.page_errors == []


def test_shim_model_api(chromium: Chromium, tmp_path: Path) -> None:
    first, second = _Counter(), _Counter(label="second")
    box = ipywidgets.Tab(children=[first, second], titles=[EVIL_TAG, "b"])
    page = chromium.open_exported(to_html(box, tmp_path / "counter.html"))
    counters = page.locator(".counter")
    assert counters.nth(0).text_content() == f"{EVIL_TAG}|sum=45|n=0|inits=1"
    page.locator("button", has_text="+").first.click()
    assert counters.nth(0).text_content() == f"{EVIL_TAG}|sum=45|n=1|inits=1"
    assert page.locator(".tbnb-export-tabbar button").all_text_contents() == [
        EVIL_TAG,
        "b",
    ]
    assert counters.nth(1).is_hidden()
    page.locator(".tbnb-export-tabbar button", has_text="b").click()
    assert counters.nth(1).is_visible()
    assert counters.nth(1).text_content() == "second|sum=45|n=0|inits=1"
    assert chromium.log.dialogs == []
    assert chromium.log.page_errors == []


# ----------------------------------------------------------------- tooltip, names, CSV

LONG_RUNS = [
    "lr=0.0001,opt=adam,seed=123456789",
    "lr=0.0001,opt=adam,seed=987654321",
    "lr=0.001,opt=sgd,momentum=0.9,seed=1",
    "=cmd|' /C calc'!A0",  # a spreadsheet formula as a run name
]
FORMULA_TAG = "+1+1"

CELLS_JS = """root => {
  const tip = root.querySelector(':scope > .tbnb-tooltip');
  const rows = [...tip.querySelectorAll('tr')];
  return {
    heads: [...rows[0].querySelectorAll('th')].map((th) => th.textContent),
    rows: rows.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    clipped: [...tip.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.textContent),
    points: JSON.parse(tip.getAttribute('data-points') || '[]'),
    visible: tip.offsetParent !== null,
  };
}"""


def _duration(seconds: float) -> str:
    """What the tooltip's relative column shows (js/src/core/format.js formatDuration)."""
    if seconds < 60:
        return f"{seconds:.2f}s" if seconds < 10 else f"{seconds:.1f}s"
    total = round(seconds)
    minutes, secs = divmod(total, 60)
    return f"{minutes}m {secs:02d}s" if minutes < 60 else f"{minutes // 60}h {minutes % 60:02d}m"


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary

    root = tmp_path_factory.mktemp("long") / "logs"
    for k, run in enumerate(LONG_RUNS):
        with SummaryWriter(str(root / run)) as writer:
            for step in range(0, 200, 2):
                wall = 1.7e9 + 3 * step
                writer.add_scalar("train/loss", (k + 1) / (1 + step), step, walltime=wall)
                writer.add_scalar("train/acc", step / 200 * (k + 1) / 4, step, walltime=wall)
                writer.add_scalar("val/loss", 2 * (k + 1) / (1 + step), step, walltime=wall)
                formula = Summary(value=[Summary.Value(tag=FORMULA_TAG, simple_value=-k - 0.5)])
                writer.file_writer.add_summary(formula, step, walltime=wall)
    return root


def test_tooltip_shows_times_and_whole_names_beside_the_points(
    chromium: Chromium, long_names: Path, out_dir: Path, tmp_path: Path
) -> None:
    exp = tbnb.load(long_names)
    assert sorted(exp.runs) == sorted(LONG_RUNS)
    page = chromium.open_exported(to_html(tbnb.scalars(exp, smoothing=0.6), tmp_path / "long.html"))
    root = page.locator(".tbnb-w-scalars")
    # legend: every whole name, wrapped inside the side panel, never cut
    side = root.locator(".tbnb-side").bounding_box()
    for run in LONG_RUNS:
        name = root.locator(f'.tbnb-legend-item[data-run="{run}"] .tbnb-run-name')
        assert name.text_content() == run
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        box = name.bounding_box()
        assert box["x"] + box["width"] <= side["x"] + side["width"] + 1
    charts = root.locator(".tbnb-chart")
    lefts = sorted({round(charts.nth(i).bounding_box()["x"]) for i in range(charts.count())})
    assert len(lefts) >= 2  # a layout of two or more chart columns
    rbox = root.bounding_box()
    for i in range(charts.count()):
        canvas = charts.nth(i).locator("canvas").last
        box = canvas.bounding_box()
        for frac in (0.08, 0.5, 0.97):
            page.mouse.move(box["x"] + box["width"] * frac, box["y"] + box["height"] * 0.4)
            tip = root.evaluate(CELLS_JS)
            assert tip["visible"]
            assert tip["heads"][1:] == ["run", "smoothed", "value", "step", "wall time", "relative"]
            assert tip["clipped"] == []
            names = [row[1] for row in tip["rows"]]
            assert sorted(names) == sorted(LONG_RUNS)  # whole names
            for row in tip["rows"]:
                step = int(row[4])
                assert row[6] == _duration(3 * step)
                assert row[5].endswith(f":{(3 * step + 20) % 60:02d}")  # 1.7e9 = ..:20 s
            tbox = root.locator(":scope > .tbnb-tooltip").bounding_box()
            assert rbox["x"] - 1 <= tbox["x"]
            assert tbox["x"] + tbox["width"] <= rbox["x"] + rbox["width"] + 1
            assert len(tip["points"]) == len(LONG_RUNS)
            for px, py in tip["points"]:
                x, y = rbox["x"] + px, rbox["y"] + py
                inside = (
                    tbox["x"] - 3 < x < tbox["x"] + tbox["width"] + 3
                    and tbox["y"] - 3 < y < tbox["y"] + tbox["height"] + 3
                )
                assert not inside, (i, frac, (x, y), tbox)
        if i == 0:
            page.screenshot(path=out_dir / "export_04_tooltip_long_names.png", full_page=True)
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []


def test_scalars_csv_download_neutralises_formulas(
    chromium: Chromium, long_names: Path, tmp_path: Path
) -> None:
    import csv

    page = chromium.open_exported(to_html(tbnb.scalars(long_names), tmp_path / "csv.html"))
    with page.expect_download() as info:
        page.locator("button.tbnb-download").click()
    path = tmp_path / "scalars.csv"
    info.value.save_as(path)
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["run", "tag", "step", "wall_time", "value", "smoothed"]
    runs = {row[0] for row in rows[1:]}
    assert "'" + LONG_RUNS[3] in runs
    assert {row[1] for row in rows[1:]} >= {"'" + FORMULA_TAG, "train/loss"}
    values = [row[4] for row in rows[1:] if row[1] == "'" + FORMULA_TAG]
    assert "-0.5" in values  # a negative number is written as a number
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)
