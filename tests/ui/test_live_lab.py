"""Watching training from JupyterLab: a busy kernel, a restarted run, tags written later.

Real JupyterLab in headless Chromium; one server and one notebook for the module (the
tests run in order and share the page). The logdir is written by tensorboardX.

1. Run All shows a histograms widget, then keeps the kernel busy for longer than the
   request channel waits (``SLOW_AFTER_MS``, 20 s): the view says it waits for the kernel
   and, once the cell ends, draws every chart exactly from the kernel's answers. (It went
   "offline" for good after 20 s: "saved copy (0 steps per chart)", never exact.)
2. A writer restarts with ``purge_step`` and logs a new tag; after ``exp.reload()`` the
   scalars widget's points, read back from its CSV download, equal a fresh load of the
   logdir (it kept the pre-restart points), and the new tag has its chart.
3. New histograms of a run: its chart stays the same element (no rebuild of every card)
   and draws the new steps exactly.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import STDOUT, CellDriver, open_notebook, run_all, tagged_notebook

pytestmark = pytest.mark.browser

NB = "tbnb_live.ipynb"
TIMEOUT_MS = 90_000
BUSY_S = 30

WRITE = """\
from tensorboardX import SummaryWriter
def write(run, steps, offset=0.0, tags=("loss",), purge_step=None, suffix=""):
    w = SummaryWriter(f"{LOGDIR}/{run}", purge_step=purge_step, filename_suffix=suffix)
    for step in steps:
        for tag in tags:
            w.add_scalar(tag, offset + step / 10, step, walltime=1.7e9 + step + offset)
        w.add_histogram("layer/w", [step + i / 10 for i in range(20)], step)
    w.close()
"""

CELLS = {
    "setup": WRITE
    + """\
import json, tbnb
write("a", range(10), suffix=".1")
write("b", range(10), suffix=".1")
exp = tbnb.load(LOGDIR)""",
    "hist": "h = tbnb.histograms(exp)\nh",
    "busy": f"import time\ntime.sleep({BUSY_S})",
    "scalars": "w = tbnb.scalars(exp, smoothing=0)\nw",
    "restart": """\
_runs = globals().get("_runs", 0) + 1
if _runs > 1:  # not during Run All: when the test runs it
    write("a", range(5, 15), offset=100.0, tags=("loss", "acc"), purge_step=5, suffix=".2")
    exp.reload()
_fresh = tbnb.load(LOGDIR).scalars
print(f"FRESH {_runs} " + json.dumps(sorted([str(r), str(t), int(s), round(float(v), 6)]
      for r, t, s, v in zip(_fresh["run"], _fresh["tag"], _fresh["step"], _fresh["value"]))))""",
    "more": """\
_more = globals().get("_more", 0) + 1
if _more > 1:
    write("b", range(10, 13), suffix=".3")
    exp.reload()
print(f"MORE {_more}")""",
    "done": 'print("ALL_DONE")',
}


@dataclass
class Session(CellDriver):
    page: Any
    lab: LabServer
    out: Path
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        index = list(CELLS).index(tag) + 1
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(index)


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    import nbformat

    root = tmp_path_factory.mktemp("live_lab")
    (root / "logs").mkdir()
    sources = {k: v.replace("LOGDIR", repr(str(root / "logs"))) for k, v in CELLS.items()}
    nbformat.write(tagged_notebook("tbnb live", sources), root / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(TIMEOUT_MS)
    chromium.log.clear()
    try:
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        yield Session(page, lab, out_dir)
    finally:
        report = lab.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_a_busy_kernel_is_waited_for_and_its_answers_drawn(session: Session) -> None:
    from playwright.sync_api import expect

    run_all(session.page)
    root = session.cell("hist").locator(".tbnb-w-histograms")
    expect(root.locator(".tbnb-chart")).to_have_count(2)
    # the kernel sleeps: the view says it is waiting (after SLOW_AFTER_MS), not offline
    expect(root).to_have_attribute("data-kernel", "waiting", timeout=(BUSY_S + 15) * 1000)
    session.cell("hist").screenshot(path=session.out / "live_01_waiting.png")
    done = session.cell("done").locator(STDOUT)
    expect(done).to_contain_text("ALL_DONE", timeout=(BUSY_S + 60) * 1000)
    for card in root.locator(".tbnb-chart").all():
        expect(card).to_have_attribute("data-state", "exact")
    expect(root).not_to_have_attribute("data-kernel", "waiting")
    status = root.locator(".tbnb-status").first.text_content() or ""
    assert "saved copy" not in status, status
    session.cell("hist").screenshot(path=session.out / "live_02_answered.png")


def _browser_points(session: Session) -> list[list[Any]]:
    root = session.cell("scalars").locator(".tbnb-w-scalars")
    with session.page.expect_download() as info:
        root.locator("button.tbnb-download").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    return sorted(
        [r["run"], r["tag"], int(float(r["step"])), round(float(r["value"]), 6)] for r in rows
    )


def test_a_restart_and_a_new_tag_reach_the_browser(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.cell("scalars").locator(".tbnb-w-scalars")
    expect(root.locator(".tbnb-chart")).to_have_count(1)
    before = _browser_points(session)
    assert [p[2] for p in before if p[0] == "a"] == list(range(10))
    session.run_cell("restart")
    out = session.cell("restart").locator(STDOUT)
    expect(out).to_contain_text("FRESH 2 ", timeout=TIMEOUT_MS)
    fresh = json.loads((out.text_content() or "").split("FRESH 2 ", 1)[1].strip())
    chart = root.locator('.tbnb-chart[data-tag="acc"]')
    expect(chart).to_have_count(1)  # a tag written after the widget was built
    chart.scroll_into_view_if_needed()
    expect(chart).to_have_attribute("data-points", "10")
    root.locator('.tbnb-chart[data-tag="loss"]').scroll_into_view_if_needed()
    expect(root.locator('.tbnb-chart[data-tag="loss"]')).to_have_attribute("data-points", "25")
    assert _browser_points(session) == fresh
    root.screenshot(path=session.out / "live_03_restarted.png")


def test_new_histograms_keep_the_cards_and_draw_exactly(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.cell("hist").locator(".tbnb-w-histograms")
    card = root.locator('.tbnb-chart[data-run="b"]')
    card.scroll_into_view_if_needed()
    expect(card).to_have_attribute("data-state", "exact")
    expect(card).to_have_attribute("data-steps", "10")
    card.evaluate("el => { el.__kept = true; }")
    session.run_cell("more")
    expect(session.cell("more").locator(STDOUT)).to_contain_text("MORE 2", timeout=TIMEOUT_MS)
    expect(card).to_have_attribute("data-steps", "13")
    expect(card).to_have_attribute("data-state", "exact")
    assert card.evaluate("el => el.__kept === true")  # the same card, redrawn
