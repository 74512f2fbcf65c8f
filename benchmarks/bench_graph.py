"""Graph explorer benchmark: a traced ResNet-50, a GPT-style transformer and an unscoped
3,000-op graph, in Chromium, against laying the whole graph out on the page (TensorBoard's
way) with dagre.

For each graph (written by torch's ``add_graph``, or TF's ``graph_def`` for the flat one):

1. Python: ``tbnb.load`` + ``tbnb.graph`` (parse, hierarchy, payload), wall ms, median of
   ``--repeat``.
2. The widget's export page in headless Chromium (the real bundle and state, no kernel):
   ``collapsed_ms`` from navigation start to the first collapsed graph drawn (state
   ``ready``); ``expand_ms`` from the click on the largest collapsed group's "+" to its
   contents drawn; ``longest_task_ms``: the longest main-thread task seen meanwhile
   (PerformanceObserver ``longtask``; the notebook is frozen for that long at most).
3. The alternative: the whole graph, every node at once, laid out on the page's main
   thread by dagre 1.1 (the library TensorBoard's graph plugin uses), and by tbnb's own
   layered layout (flat, no hierarchy). Ratios are alternative / tbnb.

dagre is installed once into ``benchmarks/data/node`` (git-ignored) with npm.

Run::

    .venv/bin/python benchmarks/bench_graph.py
    .venv/bin/python benchmarks/bench_graph.py --graphs resnet50 --repeat 3 --no-dagre
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DATA = REPO / "benchmarks" / "data"
DAGRE = "@dagrejs/dagre@1.1.4"

EXPAND_JS = """async ([name]) => {
  const el = document.querySelector('.tbnb-w-graphs');
  const box = el.__tbnbGraph.box(name);
  const canvas = el.querySelector('canvas.tbnb-graph-canvas');
  const x = box.x + box.w - 6, y = box.y + box.h / 2;
  const tasks = [];
  const watch = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  watch.observe({type: 'longtask'});
  const t0 = performance.now();
  const ready = new Promise((res) => {
    const obs = new MutationObserver(() => {
      if (el.dataset.state === 'ready') { obs.disconnect(); res(); }
    });
    obs.observe(el, {attributes: true, attributeFilter: ['data-state']});
  });
  for (const type of ['pointerdown', 'pointerup']) {
    canvas.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y, bubbles: true}));
  }
  await ready;
  await new Promise((res) => requestAnimationFrame(() => res()));
  const ms = performance.now() - t0;
  await new Promise((res) => setTimeout(res, 50));
  watch.disconnect();
  const longest = tasks.filter((t) => t.startTime >= t0)
    .reduce((m, t) => Math.max(m, t.duration), 0);
  return {ms, longest, items: Number(el.dataset.items), layout: Number(el.dataset.layoutMs)};
}"""

LOAD_TASKS_JS = """() => new Promise((res) => {
  const tasks = [];
  const watch = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  watch.observe({type: 'longtask', buffered: true});
  setTimeout(() => {
    watch.disconnect();
    res({longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0)});
  }, 100);
})"""

ALT_JS = """([nodes, edges, which]) => {
  const t0 = performance.now();
  try {
    if (which === 'dagre') {
      const g = new dagre.graphlib.Graph();
      g.setGraph({rankdir: 'TB', nodesep: 16, ranksep: 30});
      g.setDefaultEdgeLabel(() => ({}));
      for (let i = 0; i < nodes; i++) g.setNode(String(i), {width: 90, height: 24});
      for (let e = 0; e < edges.length; e += 2) g.setEdge(String(edges[e]), String(edges[e + 1]));
      dagre.layout(g);
    } else {
      const sizes = Array.from({length: nodes}, () => ({w: 90, h: 24}));
      tbnbLayout.layeredLayout(sizes, edges);
    }
    return {ms: performance.now() - t0, error: ''};
  } catch (err) {
    return {ms: performance.now() - t0, error: String(err && err.name || err)};
  }
}"""


def write_graphs(names: list[str]) -> Path:
    from benchmarks.graph_models import write_flat, write_traced

    root = DATA / "graphs"
    for name in names:
        target = root / name
        if target.exists() and any(target.iterdir()):
            continue
        target.mkdir(parents=True, exist_ok=True)
        if name == "flat":
            write_flat(str(target))
        else:
            write_traced(str(target), name)
    return root


def python_times(root: Path, name: str, repeat: int) -> tuple[float, Any]:
    import tbnb

    times, widget = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        exp = tbnb.load(root / name, progress=False)
        widget = tbnb.graph(exp)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), widget


def alternative_bundle() -> str:
    """An IIFE exposing ``dagre`` (from npm, cached) and ``tbnbLayout`` on ``window``."""
    node = DATA / "node"
    if not (node / "node_modules" / "@dagrejs" / "dagre").exists():
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("npm is needed once to fetch dagre (or pass --no-dagre)")
        node.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--no-save", "--prefix", str(node), DAGRE],
            check=True,
            capture_output=True,
        )
    entry = node / "entry.js"
    entry.write_text(
        'import * as dagre from "@dagrejs/dagre";\n'
        f'import * as tbnbLayout from "{REPO / "js/src/widgets/graphs/layout.js"}";\n'
        "window.dagre = dagre.default || dagre; window.tbnbLayout = tbnbLayout;\n"
    )
    esbuild = REPO / "js" / "node_modules" / ".bin" / "esbuild"
    return subprocess.run(
        [
            str(esbuild),
            str(entry),
            "--bundle",
            "--format=iife",
            "--minify",
            "--resolve-extensions=.js",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=node,
    ).stdout


def browser_times(widget: Any, repeat: int, tmp: Path, with_dagre: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tbnb.notebook.export import render_html
    from tests.ui._chromium import CHROMIUM, CHROMIUM_ARGS

    page_path = tmp / "graph.html"
    page_path.write_text(render_html(widget), encoding="utf-8")
    visible = widget.visible
    groups = visible[visible["kind"] != "node"].sort_values("nodes", ascending=False)
    target = str(groups["name"].iloc[0]) if len(groups) else ""
    graph = widget.graph
    index = {n: i for i, n in enumerate(graph.nodes["name"])}
    edges = [
        v
        for s, t in zip(graph.edges["source"], graph.edges["target"], strict=True)
        for v in (index[s], index[t])
    ]
    out: dict[str, Any] = {
        "nodes": len(graph.nodes),
        "edges": len(graph.edges),
        "collapsed_items": len(visible),
        "expanded_group": target,
    }
    collapsed, expand, load_tasks, expand_tasks, items = [], [], [], [], 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for _ in range(repeat):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(page_path.as_uri())
            page.wait_for_selector(".tbnb-w-graphs[data-state='ready']", timeout=120_000)
            collapsed.append(float(page.locator(".tbnb-w-graphs").get_attribute("data-ready-at")))
            load_tasks.append(page.evaluate(LOAD_TASKS_JS)["longest"])
            if target:
                result = page.evaluate(EXPAND_JS, [target])
                expand.append(result["ms"])
                expand_tasks.append(result["longest"])
                items = result["items"]
            page.close()
        out.update(
            collapsed_ms=statistics.median(collapsed),
            load_longest_task_ms=max(load_tasks),
            expand_ms=statistics.median(expand) if expand else float("nan"),
            expand_longest_task_ms=max(expand_tasks) if expand_tasks else 0.0,
            expanded_items=items,
        )
        if with_dagre:
            script = alternative_bundle()
            for which in ("tbnb-flat", "dagre"):
                runs = []
                for _ in range(max(1, repeat // 2)):
                    page = browser.new_page()
                    page.set_content("<!DOCTYPE html><html><body></body></html>")
                    page.add_script_tag(content=script)
                    runs.append(page.evaluate(ALT_JS, [len(graph.nodes), edges, which]))
                    page.close()
                    if runs[-1]["error"]:
                        break
                key = which.replace("-", "_")
                out[f"{key}_ms"] = statistics.median(r["ms"] for r in runs)
                out[f"{key}_error"] = runs[-1]["error"]
        browser.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graphs", default="resnet50,transformer,flat")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-dagre", action="store_true")
    args = parser.parse_args()
    import tempfile

    names = [n.strip() for n in args.graphs.split(",") if n.strip()]
    root = write_graphs(names)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            py_ms, widget = python_times(root, name, args.repeat)
            row = {
                "graph": name,
                "python_ms": py_ms,
                **browser_times(widget, args.repeat, Path(tmp), not args.no_dagre),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    results = REPO / "benchmarks" / "results"
    results.mkdir(exist_ok=True)
    (results / "bench_graph.json").write_text(json.dumps(rows, indent=1))
    print()
    print(
        "| graph | nodes | python ms | collapsed ms | expand ms | longest task ms "
        "| whole graph: tbnb layout ms | dagre ms | dagre / tbnb expand |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        dagre = (
            (f"{r['dagre_ms']:.0f}" + (f" ({r['dagre_error']})" if r["dagre_error"] else ""))
            if "dagre_ms" in r
            else "-"
        )
        ratio = (
            f"{r['dagre_ms'] / r['expand_ms']:.0f}x"
            if "dagre_ms" in r and r["expand_ms"] == r["expand_ms"] and not r["dagre_error"]
            else "-"
        )
        flat = f"{r['tbnb_flat_ms']:.0f}" if "tbnb_flat_ms" in r else "-"
        longest = max(r["load_longest_task_ms"], r["expand_longest_task_ms"])
        print(
            f"| {r['graph']} | {r['nodes']} | {r['python_ms']:.0f} | {r['collapsed_ms']:.0f} "
            f"| {r['expand_ms']:.0f} | {longest:.0f} | {flat} | {dagre} | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
