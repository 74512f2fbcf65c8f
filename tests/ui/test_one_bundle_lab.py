"""A dashboard in real JupyterLab loads tbnb's front end once: every tab's widget carries a
stub that takes its view from the one bundle, imported once per page from the kernel's
carrier model; a widget shown on its own beside it still draws from its own bundle."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

import tbnb
from tbnb.notebook.dashboard import tabs
from tbnb.notebook.samples import sample_logdir
from tbnb.widgets.bundle import ONE_BUNDLE, bundle_text, widget_keys
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

NB = "one_bundle.ipynb"
TIMEOUT_MS = 120_000

# The size of every script the page makes a blob: URL of (anywidget imports each _esm from
# one; the graph view starts its layout worker from one).
COUNT_IMPORTS_JS = """() => {
  window.__tbnbBlobScripts = [];
  const create = URL.createObjectURL;
  URL.createObjectURL = function (blob) {
    if (blob && blob.type === "text/javascript") window.__tbnbBlobScripts.push(blob.size);
    return create.call(URL, blob);
  };
}"""


def test_a_dashboard_imports_the_kit_once(
    chromium: Chromium, tmp_path: Path, out_dir: Path
) -> None:
    from playwright.sync_api import expect

    logdir = sample_logdir()
    sample = tbnb.Dashboard(logdir)
    sample.build_all()
    built = [sample.selection, *sample.views.built.values()]
    shown = {type(w)._widget_key for w in built}
    sample.close()
    assert len(built) == len(tabs()) + 1  # a view per tab (the sample logs every kind)
    nb = tagged_notebook(
        "one bundle",
        {
            "dash": f"import tbnb\ndash = tbnb.Dashboard({str(logdir)!r})\ndash.build_all()\ndash",
            "alone": "alone = tbnb.scalars(dash.experiment, tags='^lr$')\nalone",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, tmp_path / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(tmp_path)
    lab.start()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.add_init_script(f"({COUNT_IMPORTS_JS})()")
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(page, cells.nth(3), out_dir / "one_bundle_failed.png", lab)
        dash = cells.nth(1).locator(".tbnb-dashboard")
        for key in shown:
            expect(dash.locator(f".tbnb-w-{key}").first).to_be_attached()
        expect(dash.locator(".tbnb-w-scalars .tbnb-chart canvas").first).to_be_visible()
        expect(cells.nth(2).locator('.tbnb-w-scalars .tbnb-chart[data-tag="lr"]')).to_be_visible()
        got = page.evaluate("""() => ({
          builds: Object.keys(window.__tbnbBundles || {}).length,
          blobs: window.__tbnbBlobScripts,
          kitStyles: document.head.querySelectorAll('style[data-tbnb-style="kit"]').length,
          errors: [...document.querySelectorAll('.tbnb-error, pre')]
              .map((e) => e.textContent).filter((t) => /failed to render|did not load/.test(t)),
        })""")
        cells.nth(1).screenshot(path=out_dir / "one_bundle_dashboard.png")
        assert got["errors"] == []
        assert got["builds"] == 1
        sizes = {key: len(bundle_text(key).encode()) for key in (*widget_keys(), ONE_BUNDLE)}
        blobs = got["blobs"]
        assert blobs.count(sizes[ONE_BUNDLE]) == 1  # the kit, once for the whole dashboard
        # a stub per widget and the dashboard's own (Histograms and Distributions are both
        # the histograms widget)
        assert len([b for b in blobs if b < 2_000]) == len(built) + 1
        # the widget alone draws from its own bundle; no other widget bundle is loaded
        assert [k for k in widget_keys() if sizes[k] in blobs] == ["scalars"]
        assert blobs.count(sizes["scalars"]) == 1
        assert got["kitStyles"] == 1
        assert chromium.log.page_errors == []
    finally:
        page.close()
        report = lab.stop()
        assert report["clean"], report
