"""Exported HTML pages in headless Chromium: render offline, interactive, nothing injected.

The logdir is written by tensorboardX with a run named like a script-closing tag
(nested directories give the run name ``</script><script>alert(1)</script>``)
and a tag carrying an ``<img onerror>`` payload (written as a raw ``Summary``
through tensorboardX's file writer, since its ``add_scalar`` renames illegal
tags; other writers do not).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def _open(chromium: Chromium, path: Path) -> Any:
    page = chromium.page()
    chromium.log.clear()
    page.goto(path.as_uri())
    page.wait_for_selector("#tbnb-export-root[data-rendered='true']", state="attached",
                           timeout=30_000)
    return page


def test_scalars_page_renders_offline_and_safely(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    exp = tbnb.load(logdir)
    assert EVIL_RUN in exp.runs  # the writer really produced that run name
    widget = tbnb.scalars(exp, smoothing=0.6)
    page = _open(chromium, to_html(widget, tmp_path / "scalars.html"))
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
    page.wait_for_function("([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig",
                           arg=[loss.element_handle(), before])
    page.locator(".tbnb-run-toggle[data-run='baseline']").uncheck()
    page.wait_for_function("el => el.getAttribute('data-series-count') === '2'",
                           arg=loss.element_handle())
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
    page = _open(chromium, to_html(dash, tmp_path / "dash.html", title=EVIL_RUN))
    assert page.title() == EVIL_RUN
    assert page.locator(".tbnb-export-tabbar button").all_text_contents() == ["Scalars"]
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
    write_sample(logdir, SampleSpec(learning_rates=(1e-3, 1e-2), seeds=(0, 1), steps=30,
                                    val_every=10, hist_every=10, image_steps=()))
    dash = tbnb.Dashboard(logdir)
    dash.views["hparams"].brush("lr", (0.005, 1.0))  # only the two lr=0.01 runs
    page = _open(chromium, to_html(dash, tmp_path / "sweep.html"))
    loss = page.locator('.tbnb-chart[data-tag="train/loss"]')
    assert loss.get_attribute("data-series-count") == "2"
    page.locator(".tbnb-export-tabbar button", has_text="HParams").click()
    page.locator("button.tbnb-hp-reset").click()  # the browser-side link updates the scalars
    page.locator(".tbnb-export-tabbar button", has_text="Scalars").click()
    page.wait_for_function("el => el.getAttribute('data-series-count') === '4'",
                           arg=loss.element_handle())
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
    page = _open(chromium, to_html(ipywidgets.VBox([source, target, both]),
                                   tmp_path / "links.html"))
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
    page = _open(chromium, to_html(box, tmp_path / "counter.html"))
    counters = page.locator(".counter")
    assert counters.nth(0).text_content() == f"{EVIL_TAG}|sum=45|n=0|inits=1"
    page.locator("button", has_text="+").first.click()
    assert counters.nth(0).text_content() == f"{EVIL_TAG}|sum=45|n=1|inits=1"
    assert page.locator(".tbnb-export-tabbar button").all_text_contents() == [EVIL_TAG, "b"]
    assert counters.nth(1).is_hidden()
    page.locator(".tbnb-export-tabbar button", has_text="b").click()
    assert counters.nth(1).is_visible()
    assert counters.nth(1).text_content() == "second|sum=45|n=0|inits=1"
    assert chromium.log.dialogs == []
    assert chromium.log.page_errors == []
