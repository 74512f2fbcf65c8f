"""Names that spoof other names: bidi controls and invisible characters shown visibly.

A run named ``report\\u202egnp.exe`` reads ``reportexe.png`` where a right-to-left
override acts, and a tag ``lo\\u200bss`` looks like ``loss``. torch's ``SummaryWriter``
writes them; the dashboard's exported page in Chromium shows every such character as
``<U+XXXX>`` in every place a name reaches (run selector, chart cards, legends, tables),
and the raw control characters never reach the page's text. Python's HTML summary of
the experiment does the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests import writers
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

SPOOF_RUN = "report\u202egnp.exe"
PLAIN_RUN = "reportexe.png"
SPOOF_TAG = "lo\u200bss"
RAW = ("\u202e", "\u200b")


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("bidi") / "logs"
    for k, run in enumerate((SPOOF_RUN, PLAIN_RUN)):
        with SummaryWriter(str(root / run)) as writer:
            for step in range(10):
                for tag in (SPOOF_TAG, "loss"):
                    writer.add_scalar(
                        tag, (k + 1) / (step + 1), step, walltime=writers.WALL0 + step
                    )
    return root


def test_the_python_summary_shows_the_controls(logdir: Path) -> None:
    summary = tbnb.load(logdir, progress=False)._repr_html_()
    assert "202e" in summary.lower()
    assert "200b" in summary.lower()
    assert not any(c in summary for c in RAW)
    header = tbnb.Dashboard(logdir / SPOOF_RUN).header_text
    assert "report<U+202E>gnp.exe" in header
    assert not any(c in header for c in RAW)


def test_the_exported_dashboard_shows_the_controls(
    chromium: Chromium, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    page = chromium.open_exported(to_html(tbnb.Dashboard(logdir), tmp_path / "bidi.html"))
    page.wait_for_selector(".tbnb-w-scalars .tbnb-card, .tbnb-w-scalars canvas", state="attached")
    for summary in page.locator("details:not([open]) > summary").all():  # the run lists
        if summary.is_visible():
            summary.click()
    page.wait_for_timeout(500)
    page.screenshot(path=out_dir / "bidi_names_01_dashboard.png", full_page=True)
    text = page.evaluate("() => document.body.innerText")
    assert "report<U+202E>gnp.exe" in text
    assert "lo<U+200B>ss" in text
    assert PLAIN_RUN in text
    assert not any(c in text for c in RAW)
    titles = page.evaluate(
        "() => [...document.querySelectorAll('[title], [aria-label]')]"
        ".map((e) => (e.getAttribute('title') || '') + (e.getAttribute('aria-label') || ''))"
        ".join('\\n')"
    )
    assert not any(c in titles for c in RAW)
    assert chromium.log.page_errors == []
