"""The front-end kit's DOM pieces in headless Chromium, as a widget author uses them.

``js/tests/browser/kit-page.js`` (bundled here with esbuild) exposes the kit on
``window.kit``; each test builds a piece on a blank page and drives it with the mouse
and keyboard: the text helper and the HTML allow-list, the view lifecycle's cleanup,
the step slider, the run selector bound to its traits, the sortable paged table, the
regex filter box, the CSV button and the tooltip.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
PAYLOAD = '<img src=x onerror="window.__pwned=1">"><script>window.__pwned=1</script>'


@pytest.fixture(scope="module")
def kit_page(chromium: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    node = shutil.which("node")
    esbuild = JS / "node_modules" / ".bin" / "esbuild"
    if node is None or not esbuild.exists():
        pytest.skip("node and js/node_modules (npm ci) are needed to bundle the kit page")
    out = tmp_path_factory.mktemp("kit")
    subprocess.run(
        [
            str(esbuild),
            "tests/browser/kit-page.js",
            "--bundle",
            "--format=esm",
            f"--outfile={out / 'kit.js'}",
        ],
        cwd=JS,
        check=True,
        capture_output=True,
        timeout=120,
    )
    bundle = (out / "kit.js").read_text(encoding="utf-8")
    assert "</script" not in bundle.lower()
    page_path = out / "kit.html"
    page_path.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        '<div id="host" style="width:600px"></div>'
        f'<script type="module">{bundle}</script></body></html>',
        encoding="utf-8",
    )
    chromium.log.clear()
    page = chromium.context.new_page()
    page.goto(page_path.as_uri())
    page.wait_for_function("window.kitReady === true")
    yield page
    page.close()
    assert chromium.log.page_errors == []
    assert chromium.log.dialogs == []


def _fresh(page: Any) -> None:
    page.evaluate("() => { document.getElementById('host').replaceChildren(); }")


def test_text_helper_puts_data_in_as_text(kit_page: Any) -> None:
    got = kit_page.evaluate(
        """payload => {
      const { el, text, setText, breakableText } = window.kit;
      const host = document.getElementById('host');
      const a = el('div', { class: 'a', title: payload }, payload);
      const b = el('div', { text: payload });
      const c = setText(el('div'), payload);
      const d = el('div', {}, text(payload));
      const e = el('div', {}, breakableText('lr=0.1,opt=adam/' + payload));
      host.replaceChildren(a, b, c, d, e);
      const refused = [];
      for (const [name, value] of [['onclick', 'x()'], ['href', 'javascript:x()'],
                                   ['src', 'https://example.com/x.png'], ['style', 'x']]) {
        try { el('a', { [name]: value }); } catch (err) { refused.push(name); }
      }
      return { texts: [a, b, c, d].map((n) => n.textContent), title: a.title,
               breakable: e.textContent, wbr: e.querySelectorAll('wbr').length,
               elements: host.querySelectorAll('img, script').length, refused,
               blob: el('a', { href: 'blob:x' }).getAttribute('href') };
    }""",
        PAYLOAD,
    )
    assert got["texts"] == [PAYLOAD] * 4
    assert got["title"] == PAYLOAD
    assert got["breakable"] == "lr=0.1,opt=adam/" + PAYLOAD
    assert got["wbr"] >= 4
    assert got["elements"] == 0
    assert got["refused"] == ["onclick", "href", "src", "style"]
    assert got["blob"] == "blob:x"
    assert kit_page.evaluate("() => window.__pwned") is None


def test_html_allow_list_keeps_markup_and_drops_script(kit_page: Any) -> None:
    got = kit_page.evaluate("""() => {
      const host = document.getElementById('host');
      host.replaceChildren(window.kit.safeFragment(
        '<b class="x" onclick="window.__pwned=1">tbnb</b> &middot; <code>logs</code>' +
        '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>' +
        '<a href="javascript:window.__pwned=1">link</a><iframe src="x"></iframe>'));
      return { html: [...host.children].map((c) => c.outerHTML.length ? c.tagName : ''),
               text: host.textContent, b: host.querySelector('b').getAttribute('onclick'),
               cls: host.querySelector('b').className };
    }""")
    assert got["html"] == ["B", "CODE"]
    assert got["text"] == "tbnb · logslink"
    assert got["b"] is None
    assert got["cls"] == "x"
    kit_page.wait_for_timeout(100)  # an <img onerror> would have fired by now
    assert kit_page.evaluate("() => window.__pwned") is None


def test_view_cleanup_removes_everything_it_registered(kit_page: Any) -> None:
    got = kit_page.evaluate("""async () => {
      const { fakeModel, renderProbe } = window.kit;
      const model = fakeModel({ x: 0, y: 0 });
      const host = document.getElementById('host');
      const before = model.listeners();
      const cleanup = renderProbe({ model, el: host });
      const view = host.firstChild;
      const during = { listeners: model.listeners(), root: view.className,
                       style: getComputedStyle(host.querySelector('.probe')).color };
      model.set('x', 1);
      window.dispatchEvent(new Event('probe-event'));
      const probe = host.__probe;
      await new Promise((r) => setTimeout(r, 50));
      cleanup();
      model.set('x', 2);
      model.set('y', 2);
      window.dispatchEvent(new Event('probe-event'));
      await new Promise((r) => setTimeout(r, 50));
      return { before, during, after: model.listeners(), sent: model.sent.length,
               kitStyles: document.querySelectorAll('style[data-tbnb-style]').length };
    }""")
    assert got["before"] == 0
    assert got["during"]["listeners"] == 3  # change:x, change:y and the pending request
    assert got["during"]["root"] == "tbnb-root tbnb-w-probe"
    assert got["during"]["style"] == "rgb(255, 0, 0)"  # the widget's scoped CSS applies
    assert got["after"] == 0  # model listeners and the request's listener are gone
    assert got["sent"] == 1
    assert got["kitStyles"] == 2  # the kit's and the widget's, once each
    counts = kit_page.evaluate("""async () => {
      const { fakeModel, ProbeView } = window.kit;
      const model = fakeModel({ x: 0 });
      const view = new ProbeView(model, document.getElementById('host'));
      view.build();
      model.set('x', 1);
      window.dispatchEvent(new Event('probe-event'));
      view.frames.request(); view.frames.request(); view.frames.request();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
      const live = { ...view.counts };
      view.frames.request();
      view.dispose();
      model.set('x', 2);
      window.dispatchEvent(new Event('probe-event'));
      await new Promise((r) => setTimeout(r, 60));
      return { live, after: view.counts, rejected: view.rejected, listeners: model.listeners() };
    }""")
    assert counts["live"]["change"] == 1
    assert counts["live"]["window"] == 1
    assert counts["live"]["frame"] == 1  # three requests, one frame
    assert counts["after"]["change"] == 1
    assert counts["after"]["window"] == 1
    assert counts["after"]["frame"] == 1  # the frame asked before dispose never runs
    assert "aborted" in counts["rejected"]
    assert counts["listeners"] == 0


def test_step_slider_by_drag_keys_and_exact_entry(kit_page: Any) -> None:
    _fresh(kit_page)
    kit_page.evaluate("""() => {
      const { StepSlider } = window.kit;
      window.stepsSeen = [];
      const on = (t, type, h) => t.addEventListener(type, h);
      window.slider = new StepSlider({ on, onChange: (s) => window.stepsSeen.push(s) });
      document.getElementById('host').append(window.slider.node);
      window.slider.setSteps([100, 0, 10, 20, 50, 20]);
    }""")
    value = "() => window.slider.value"
    assert kit_page.evaluate(value) == 100  # the newest step first
    assert kit_page.locator(".tbnb-step-count").text_content() == "5 of 5"
    slider = kit_page.locator("input.tbnb-step-range")
    slider.focus()
    kit_page.keyboard.press("ArrowLeft")
    assert kit_page.evaluate(value) == 50
    kit_page.keyboard.press("Home")
    assert kit_page.evaluate(value) == 0
    box = slider.bounding_box()
    kit_page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)
    assert kit_page.evaluate(value) == 100
    entry = kit_page.locator("input.tbnb-step-input")
    entry.fill("17")
    entry.press("Enter")
    assert kit_page.evaluate(value) == 20  # the nearest step that exists
    assert entry.input_value() == "20"
    entry.press("ArrowUp")
    assert kit_page.evaluate(value) == 50
    entry.fill("")
    entry.press("Enter")
    assert kit_page.evaluate(value) == 50  # nothing entered: the step stays
    assert entry.input_value() == "50"
    assert kit_page.evaluate("() => window.stepsSeen") == [50, 0, 100, 20, 50]


def test_run_selector_binds_to_its_traits(kit_page: Any) -> None:
    _fresh(kit_page)
    long = "lr=0.0001,opt=adam,weight_decay=0.01,seed=123456789"
    kit_page.evaluate(
        """long => {
      const { fakeModel, RunSelector, View } = window.kit;
      const runs = ['a', 'b', long];
      window.runModel = fakeModel({ selected_runs: [...runs], run_filter: '',
                                    run_colors: { a: '#112233' } });
      window.runView = new View(window.runModel, document.getElementById('host'), 'runs');
      window.runView.root.style.width = '180px';
      window.selector = new RunSelector(window.runView, { onChange: () => {} });
      window.runView.root.append(window.selector.filter.node, window.selector.node);
      document.getElementById('host').append(window.runView.root);
      window.selector.setRuns(runs);
    }""",
        long,
    )
    selected = "() => window.runModel.get('selected_runs')"
    kit_page.locator('.tbnb-run-toggle[data-run="b"]').uncheck()
    assert kit_page.evaluate(selected) == ["a", long]
    name = kit_page.locator(f'.tbnb-legend-item[data-run="{long}"] .tbnb-run-name')
    assert name.text_content() == long
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth")  # wrapped, not cut
    swatch = kit_page.locator('.tbnb-legend-item[data-run="a"] .tbnb-swatch')
    assert swatch.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(17, 34, 51)"
    box = kit_page.locator("input.tbnb-run-filter")
    box.fill("(")
    assert "tbnb-invalid" in (box.get_attribute("class") or "")
    assert kit_page.locator(".tbnb-run-filter-msg").text_content().startswith("invalid regex")
    assert kit_page.evaluate(selected) == ["a", long]  # an invalid pattern changes nothing
    box.fill("^A$")
    assert "tbnb-invalid" not in (box.get_attribute("class") or "")
    assert kit_page.evaluate(selected) == ["a"]
    assert kit_page.locator('.tbnb-legend-item[data-run="b"]').is_hidden()
    box.fill("")
    assert kit_page.evaluate(selected) == ["a", long]  # b is still toggled off
    kit_page.evaluate("() => window.runModel.set('selected_runs', ['b'])")  # from Python
    checked = kit_page.locator(".tbnb-run-toggle:checked").evaluate_all(
        "els => els.map(e => e.dataset.run)"
    )
    assert checked == ["b"]
    kit_page.locator("button.tbnb-all").click()
    assert kit_page.evaluate(selected) == ["a", "b", long]
    kit_page.evaluate("() => window.runView.dispose()")
    assert kit_page.evaluate("() => window.runModel.listeners()") == 0


def test_table_sorts_pages_and_downloads_neutralised_csv(kit_page: Any, tmp_path: Path) -> None:
    _fresh(kit_page)
    kit_page.evaluate("""() => {
      const { DataTable, csvButton } = window.kit;
      const on = (t, type, h) => t.addEventListener(type, h);
      const names = ['=1+1', 'b', '-c', 'd', '@e', 'f', 'g'];
      const values = [3, null, -1, 2.5, 10, 0, 7];
      window.table = new DataTable({ on, rowAttrs: (i) => ({ key: names[i], classes: [] }) });
      window.table.setColumns([
        { key: 'run', label: 'run', text: (i) => names[i], value: (i) => names[i] },
        { key: 'v', label: 'value/last', numeric: true,
          text: (i) => (values[i] === null ? '' : String(values[i])), value: (i) => values[i] },
      ]);
      window.table.setRows([...names.keys()]);
      window.table.setPageSize(3);
      const button = csvButton({ className: 'csv', filename: 't.csv', parent: document.body, on,
        rows: () => ({ header: ['run', 'v'],
                       rows: window.table.sorted().map((i) => [names[i], values[i]]) }) });
      document.getElementById('host').append(window.table.node, button);
    }""")
    rows = "() => [...document.querySelectorAll('tr[data-row]')].map(r => r.dataset.run)"
    assert kit_page.evaluate(rows) == ["=1+1", "b", "-c"]
    kit_page.locator('th[data-column="v"]').click()
    assert kit_page.evaluate(rows) == ["-c", "f", "d"]
    kit_page.locator('th[data-column="v"]').click()  # descending, missing still last
    assert kit_page.evaluate(rows) == ["@e", "g", "=1+1"]
    kit_page.locator("button.tbnb-next").click()
    kit_page.locator("button.tbnb-next").click()
    assert kit_page.evaluate(rows) == ["b"]
    assert kit_page.locator(".tbnb-page").text_content() == "7\u20137 of 7"
    assert kit_page.locator("button.tbnb-next").is_disabled()
    kit_page.locator("select.tbnb-page-size").select_option("10")
    assert len(kit_page.evaluate(rows)) == 7
    with kit_page.expect_download() as info:
        kit_page.locator("button.csv").click()
    path = tmp_path / "t.csv"
    info.value.save_as(path)
    assert path.read_text(encoding="utf-8").splitlines() == [
        "run,v",
        "'@e,10",
        "g,7",
        "'=1+1,3",
        "d,2.5",
        "f,0",
        "'-c,-1",
        "b,",
    ]


def test_table_page_size_select_says_what_the_table_shows(kit_page: Any) -> None:
    """The select showed "10" while the table showed 25 rows (it never got its value)."""
    _fresh(kit_page)
    kit_page.evaluate("""() => {
      const { DataTable } = window.kit;
      const on = (t, type, h) => t.addEventListener(type, h);
      window.table = new DataTable({ on, rowAttrs: (i) => ({ key: String(i), classes: [] }) });
      window.table.setColumns([{ key: 'i', label: 'i', text: (i) => String(i), value: (i) => i }]);
      window.table.setRows([...Array(60).keys()]);
      window.table.render();
      document.getElementById('host').append(window.table.node);
    }""")
    select = kit_page.locator("select.tbnb-page-size")
    shown = "() => document.querySelectorAll('tr[data-row]').length"
    assert kit_page.evaluate(shown) == 25
    assert select.input_value() == "25"
    kit_page.evaluate("() => window.table.setPageSize(40)")  # a size from Python's trait
    assert kit_page.evaluate(shown) == 40
    assert select.input_value() == "40"


def test_tooltip_sits_beside_the_points_and_wraps_names(kit_page: Any) -> None:
    _fresh(kit_page)
    got = kit_page.evaluate("""() => {
      const { Tooltip, el, adoptKitStyles } = window.kit;
      adoptKitStyles();  // a view root: the kit's styles apply inside it
      const parent = el('div', { class: 'tbnb-root', style: { width: '500px', height: '300px' } });
      document.getElementById('host').append(parent);
      const tip = new Tooltip(parent);
      const name = 'lr=0.0001,opt=adam,weight_decay=0.01,warmup=1000,seed=123456789';
      const table = { columns: [{ label: 'run', name: true }, { label: 'value' }],
                      rows: [{ color: '#f00', cells: [name, '0.123456'] }] };
      const out = [];
      for (const x of [40, 250, 470]) {
        const points = [{ x, y: 120 }, { x: x + 2, y: 200 }];
        tip.show(table, { points, anchor: { x, y: 150 } });
        const r = tip.node.getBoundingClientRect();
        const p = parent.getBoundingClientRect();
        const covered = points.some((q) => q.x + p.left > r.left - 3 && q.x + p.left < r.right + 3
          && q.y + p.top > r.top - 3 && q.y + p.top < r.bottom + 3);
        const cells = [...tip.node.querySelectorAll('td')];
        out.push({ side: tip.placement.side, covered,
                   inside: r.left >= p.left - 1 && r.right <= p.right + 1,
                   clipped: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length,
                   name: cells[1].textContent });
      }
      tip.hide();
      return { out, hidden: !tip.visible };
    }""")
    for placed in got["out"]:
        assert not placed["covered"], placed
        assert placed["inside"], placed
        assert placed["clipped"] == 0, placed
        assert placed["name"].endswith("seed=123456789")
    sides = [p["side"] for p in got["out"]]
    assert sides[0] == "right"
    assert sides[2] == "left"
    assert got["hidden"]
