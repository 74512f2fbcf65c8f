"""The scalars widget (tbnb.scalars) on logs written by real writers."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets
from ipywidgets.widgets.widget import _remove_buffers

import tbnb
from tbnb.transforms import ema, smooth
from tbnb.widgets.scalars.widget import ScalarsWidget
from tbnb.widgets.serializers import tree_from_json, unpack

RUNS = ("a/seed0", "a/seed1", "b/seed0")


def _loss(run: str, step: int) -> float:
    base = 1.0 if run.startswith("a") else 2.0
    return base / (1 + step / 10) + 0.01 * (hash((run, step)) % 7)


def _write_tbx(root: Path, runs: tuple[str, ...], steps: range) -> None:
    from tensorboardX import SummaryWriter

    for run in runs:
        writer = SummaryWriter(str(root / run))
        for step in steps:
            wall = 1.7e9 + step
            writer.add_scalar("train/loss", _loss(run, step), step, walltime=wall)
            writer.add_scalar("train/acc", step / 100, step, walltime=wall)
            if step % 10 == 0:
                writer.add_scalar("val/loss", 2 * _loss(run, step), step, walltime=wall)
            writer.add_scalar("lr", 0.1 * 0.99**step, step, walltime=wall)
        writer.close()


@pytest.fixture(scope="module")
def tbx_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tbx_scalars")
    _write_tbx(root, RUNS, range(100))
    return root


@pytest.fixture(scope="module")
def torch_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("torch_scalars")
    for run in ("x", "y"):
        writer = SummaryWriter(str(root / run))
        for step in range(0, 3000, 3):
            writer.add_scalar("loss", np.sin(step / 50) + (run == "y"), step)
        writer.close()
    return root


def payload(widget: ScalarsWidget) -> dict[str, Any]:
    """The ``_data`` trait as the browser receives it (decoded back)."""
    state = widget.get_state()
    return tree_from_json(state["_data"])  # type: ignore[no-any-return]


def frame_of(*runs: str, n: int = 50) -> pd.DataFrame:
    rows = [
        (run, tag, s, 1000.0 + 2 * s, float(np.cos(s / 7) + i))
        for i, run in enumerate(runs)
        for tag in ("m/x", "m/y")
        for s in range(n)
    ]
    return pd.DataFrame(rows, columns=["run", "tag", "step", "wall_time", "value"])


def test_logdir_path_builds_charts_per_tag_grouped_by_prefix(tbx_logdir: Path) -> None:
    w = tbnb.scalars(str(tbx_logdir))
    assert isinstance(w, ScalarsWidget)
    assert [c["key"] for c in w.charts] == ["lr", "train/acc", "train/loss", "val/loss"]
    assert [c["group"] for c in w.charts] == ["lr", "train", "train", "val"]
    assert w.selected_runs == list(RUNS)
    assert w.smoothing == 0.6
    assert w._esm.startswith(("var ", "function", "import", "const", "let")) or "export" in w._esm
    data = payload(w)
    assert data["runs"] == list(RUNS)
    assert len(data["series"]["run"]) == 3 * 4
    assert data["columns"]["step"].dtype == np.int32
    assert data["columns"]["value"].dtype == np.float64


def test_data_holds_the_written_values_and_tensorboard_smoothing(tbx_logdir: Path) -> None:
    exp = tbnb.load(str(tbx_logdir))
    w = tbnb.scalars(exp, smoothing=0.9)
    df = w.data
    assert list(df.columns) == ["run", "tag", "step", "wall_time", "value", "smoothed"]
    one = df[(df["run"] == "a/seed1") & (df["tag"] == "train/loss")]
    assert one["step"].tolist() == list(range(100))
    want = np.array([_loss("a/seed1", s) for s in range(100)], dtype=np.float32)
    np.testing.assert_allclose(one["value"].to_numpy(), want, rtol=0, atol=0)
    np.testing.assert_allclose(one["smoothed"].to_numpy(), ema(want.astype(np.float64), 0.9))
    assert one["wall_time"].iloc[5] == pytest.approx(1.7e9 + 5)
    w.smoothing = 0.0
    np.testing.assert_array_equal(w.data["smoothed"], w.data["value"])
    w.smoothing_mode = "time"
    w.smoothing = 0.5
    val = w.data[(w.data["run"] == "b/seed0") & (w.data["tag"] == "val/loss")]
    np.testing.assert_allclose(
        val["smoothed"], smooth(val["value"], 0.5, x=val["step"], mode="time")
    )


def test_selection_and_filters_shape_data(tbx_logdir: Path) -> None:
    w = tbnb.scalars(tbx_logdir, runs=r"seed0", tags=["train/loss", "val/loss"])
    assert w.selected_runs == ["a/seed0", "b/seed0"]
    assert [c["key"] for c in w.charts] == ["train/loss", "val/loss"]
    w.selected_runs = ["b/seed0"]
    assert set(w.data["run"]) == {"b/seed0"}
    w.tag_filter = "^VAL"
    assert set(w.data["tag"]) == {"val/loss"}
    w.tag_filter = "("  # an invalid pattern filters nothing, and does not raise
    assert set(w.data["tag"]) == {"train/loss", "val/loss"}
    w2 = tbnb.scalars(tbx_logdir, run_filter="^a/")
    assert w2.selected_runs == ["a/seed0", "a/seed1"]


def test_to_plotly_is_what_is_shown(tbx_logdir: Path) -> None:
    import plotly.graph_objects as go

    w = tbnb.scalars(tbx_logdir, smoothing=0.7, log_y=["train/loss"])
    w.selected_runs = ["a/seed0", "b/seed0"]
    w.tag_filter = "loss"
    w.y_range = {"val/loss": [0, 3]}
    fig = w.to_plotly()
    assert isinstance(fig, go.Figure)
    named = [t for t in fig.data if t.hoverinfo != "skip"]
    raw = [t for t in fig.data if t.hoverinfo == "skip"]
    assert len(named) == 2 * 2  # 2 charts x 2 runs, each with a faint raw line
    assert len(raw) == 4
    assert all(t.opacity == 0.25 for t in raw)
    assert sum(t.showlegend is not False for t in named) == 2  # one legend entry per run
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["train/loss", "val/loss"]
    assert fig.layout.yaxis.type == "log"
    assert list(fig.layout.yaxis2.range) == [0, 3]
    df = w.data
    first = df[(df["run"] == "a/seed0") & (df["tag"] == "train/loss")]
    trace = next(t for t in named if t.name == "a/seed0" and t.xaxis == "x")
    np.testing.assert_allclose(trace.y, first["smoothed"])
    w.x_axis = "wall"
    wall = next(t for t in w.to_plotly().data if t.name == "a/seed0")
    assert str(pd.Timestamp(wall.x[3])) == "2023-11-14 22:13:23"  # 1.7e9 + 3 s, as UTC
    w.x_axis = "relative"
    rel = next(t for t in w.to_plotly().data if t.name == "a/seed0")
    assert list(rel.x[:3]) == [0.0, 1.0, 2.0]


def test_torch_writer_and_downsampling(torch_logdir: Path) -> None:
    w = tbnb.scalars(torch_logdir, max_points=200, smoothing=0)
    data = payload(w)
    offsets = data["series"]["offset"]
    assert data["series"]["total"].tolist() == [1000, 1000]
    lengths = np.diff(offsets)
    assert (lengths <= 3 * 100 + 2).all()
    for i in range(2):
        steps = data["columns"]["step"][offsets[i] : offsets[i + 1]]
        vals = data["columns"]["value"][offsets[i] : offsets[i + 1]]
        assert steps[0] == 0
        assert steps[-1] == 2997  # the last point is always kept
        exp_vals = np.sin(np.arange(0, 3000, 3) / 50).astype(np.float32) + i
        assert vals.max() == pytest.approx(exp_vals.max(), abs=1e-6)
        assert vals.min() == pytest.approx(exp_vals.min(), abs=1e-6)


def test_state_is_binary_and_within_the_notebook_budget(torch_logdir: Path) -> None:
    w = tbnb.scalars(torch_logdir)
    state, paths, buffers = _remove_buffers(w.get_state())
    assert len(buffers) >= 4
    assert all(p[0] == "_data" for p in paths)
    data_bytes = sum(memoryview(b).nbytes for b in buffers)
    other = len(json.dumps(state).encode())  # includes the _esm bundle
    assert other <= 500_000, other
    # the data is the points themselves: 20 bytes a point or less (int32 step, 2 float64)
    assert data_bytes <= 20 * 2 * 1000 + 1000


def test_unknown_and_invalid_arguments(tbx_logdir: Path) -> None:
    df = frame_of("r")
    with pytest.raises(TypeError, match="smothing"):
        tbnb.scalars(df, smothing=0.5)
    with pytest.raises(traitlets.TraitError, match="smoothing"):
        tbnb.scalars(df, smoothing=1.0)
    with pytest.raises(traitlets.TraitError, match="x must be"):
        tbnb.scalars(df, x="epoch")
    with pytest.raises(ValueError, match="no scalar tag"):
        tbnb.scalars(df, x="tag:nope")
    with pytest.raises(ValueError, match="valid regex"):
        tbnb.scalars(df, runs="(")
    with pytest.raises(ValueError, match="unknown runs"):
        tbnb.scalars(df, runs=["zz"])
    with pytest.raises(ValueError, match="agg"):
        tbnb.scalars(df, group_by="(r)", agg="max")
    with pytest.raises(ValueError, match="group_by"):
        tbnb.scalars(df, agg="mean")
    with pytest.raises(ValueError, match="band"):
        tbnb.scalars(df, band="iqr")
    with pytest.raises(ValueError, match="lacks column"):
        tbnb.scalars(df.drop(columns="value"))
    with pytest.raises(TypeError, match="source must be"):
        tbnb.scalars(42)
    with pytest.raises(ValueError, match="reload"):
        tbnb.scalars(df, refresh=1)
    with pytest.raises(ValueError, match="unknown tag"):
        tbnb.scalars(df, charts=[["m/x", "zz"]])


def test_dataframe_sources_str_and_categorical() -> None:
    df = frame_of("r2", "r10", "r1")
    for frame in (
        df,
        df.astype({"run": "category", "tag": "category"}),
        df.sample(frac=1, random_state=0),
    ):
        w = tbnb.scalars(frame, smoothing=0)
        assert w.selected_runs == ["r1", "r2", "r10"]  # natural order
        d = w.data
        assert len(d) == len(df)
        one = d[(d["run"] == "r10") & (d["tag"] == "m/y")]
        assert one["step"].tolist() == list(range(50))


def test_range_request_answers_full_resolution(torch_logdir: Path) -> None:
    w = tbnb.scalars(torch_logdir, max_points=100)
    reply = w.answer(
        {
            "type": "range",
            "id": 7,
            "chart": "loss",
            "field": "step",
            "lo": 300,
            "hi": 600,
            "buckets": 1000,
            "runs": ["y"],
        }
    )
    assert reply is not None
    assert reply["id"] == 7
    assert [s["run"] for s in reply["series"]] == ["y"]
    steps = reply["series"][0]["columns"]["step"]
    assert steps.tolist() == list(range(297, 604, 3))  # every point, one beyond each edge
    # the same through the comm path, with binary buffers
    sent: list[tuple[Any, Any]] = []
    w.send = lambda content, buffers=None: sent.append((content, buffers))
    w._dispatch(
        w,
        {
            "type": "range",
            "id": 8,
            "chart": "loss",
            "field": "relative",
            "lo": 0,
            "hi": 1e9,
            "buckets": 50,
        },
        [],
    )
    content, buffers = sent[-1]
    assert content["id"] == 8
    assert all(isinstance(b, memoryview) for b in buffers)
    back = unpack(content, buffers)
    assert len(back["series"]) == 2
    assert len(back["series"][0]["columns"]["value"]) <= 3 * 50 + 2
    bad = w.answer({"type": "range", "id": 9, "chart": "nope", "lo": 0, "hi": 1})
    assert bad is not None
    assert "unknown chart" in bad["error"]
    unknown = w.answer({"type": "unknown_request", "id": 10})
    assert unknown == {
        "type": "unknown_request",
        "id": 10,
        "error": "ScalarsWidget cannot answer 'unknown_request' requests",
    }


def test_group_by_regex_and_hparam_column(tbx_logdir: Path) -> None:
    w = tbnb.scalars(tbx_logdir, group_by=r"^(\w+)/seed", band="minmax", smoothing=0)
    data = payload(w)
    assert data["kind"] == "groups"
    assert data["runs"] == ["a", "b"]
    assert data["members"] == {"a": ["a/seed0", "a/seed1"], "b": ["b/seed0"]}
    assert w.selected_runs == ["a", "b"]
    df = w.data
    a = df[(df["run"] == "a") & (df["tag"] == "train/loss")]
    s0 = np.array([_loss("a/seed0", s) for s in range(100)], dtype=np.float32)
    s1 = np.array([_loss("a/seed1", s) for s in range(100)], dtype=np.float32)
    np.testing.assert_allclose(a["value"], (s0.astype(float) + s1) / 2)
    np.testing.assert_allclose(a["lo"], np.minimum(s0, s1))
    assert set(a["n"]) == {2}
    hp = pd.DataFrame({"run": list(RUNS), "opt": ["adam", "sgd", "adam"]})
    w2 = tbnb.scalars(tbx_logdir, group_by="opt", hparams=hp, agg="median")
    assert payload(w2)["members"] == {"adam": ["a/seed0", "b/seed0"], "sgd": ["a/seed1"]}
    # a row's member runs (e.g. add_hparams sub-runs) join its group
    hp2 = pd.DataFrame({"opt": ["adam", "sgd"]}, index=pd.Index(["a/seed0", "a/seed1"]))
    hp2.attrs["members"] = {"a/seed0": ["a/seed0", "b/seed0"], "a/seed1": ["a/seed1"]}
    lr = pd.Series({"a/seed0": 0.01, "a/seed1": 0.003, "b/seed0": 0.1})
    assert payload(tbnb.scalars(tbx_logdir, group_by=lr))["runs"] == ["0.003", "0.01", "0.1"]
    w3 = tbnb.scalars(tbx_logdir, group_by="opt", hparams=hp2)
    assert payload(w3)["members"] == {"adam": ["a/seed0", "b/seed0"], "sgd": ["a/seed1"]}


def test_x_from_another_tag_and_combined_charts(tbx_logdir: Path) -> None:
    w = tbnb.scalars(tbx_logdir, x="tag:lr", charts=[["train/loss", "val/loss"]])
    assert [c["key"] for c in w.charts] == ["train/loss | val/loss", "train/acc"]
    assert w.charts[0]["tags"] == ["train/loss", "val/loss"]
    df = w.data
    one = df[(df["run"] == "a/seed0") & (df["tag"] == "val/loss")]
    np.testing.assert_allclose(one["x"], (0.1 * 0.99 ** one["step"]).astype(np.float32))
    assert payload(w)["x_tag"] == "lr"


def test_refresh_sends_only_new_points(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    def write(steps: range) -> None:
        # A closed writer per batch (writers flush asynchronously); a resumed run
        # writes a new event file beside the old one.
        writer = SummaryWriter(str(tmp_path / "run"), filename_suffix=f".{steps.start}")
        for step in steps:
            writer.add_scalar("loss", 1.0 / (step + 1), step, walltime=1.7e9 + step)
        writer.close()

    write(range(20))
    exp = tbnb.load(str(tmp_path))
    w = tbnb.scalars(exp)
    sent: list[tuple[Any, Any]] = []
    w.send = lambda content, buffers=None: sent.append((content, buffers))
    assert w.refresh_now() == 0
    assert sent == []
    write(range(20, 25))
    assert w.refresh_now() == 5
    content, buffers = sent[-1]
    msg = unpack(content, buffers)
    assert msg["type"] == "append"
    (series,) = msg["series"]
    assert series["columns"]["step"].tolist() == [20, 21, 22, 23, 24]
    assert series["total"] == 25
    assert w.data["step"].tolist() == list(range(25))
    # a background poller sends the next points by itself
    got = threading.Event()

    def capture(content: Any, buffers: Any = None) -> None:
        sent.append((content, buffers))
        got.set()

    w.send = capture
    w.start_refresh(0.05)
    write(range(25, 26))
    assert got.wait(60)
    w.close()
    assert unpack(*sent[-1])["series"][0]["columns"]["step"].tolist() == [25]


@pytest.mark.browser
@pytest.mark.slow
def test_front_end_renders_and_interacts_offline(
    tbx_logdir: Path, tmp_path: Path, playwright: Any
) -> None:
    """The bundle in Chromium, from widget state alone (self-contained export page)."""
    from tbnb.notebook.export import to_html

    w = tbnb.scalars(tbx_logdir, group_by=None)
    page_path = to_html(w, tmp_path / "scalars.html")
    external: list[str] = []
    errors: list[str] = []
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ],
        viewport={"width": 1300, "height": 1000},
        accept_downloads=True,
    )
    try:
        page = ctx.new_page()
        page.on(
            "request",
            lambda r: (
                external.append(r.url)
                if not r.url.startswith(("file:", "data:", "blob:"))
                else None
            ),
        )
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_path.as_uri())
        page.wait_for_selector(".tbnb-w-scalars .tbnb-chart", timeout=20_000)
        counts = page.eval_on_selector_all(
            ".tbnb-chart", "els => els.map(e => [e.dataset.tag, e.dataset.seriesCount])"
        )
        assert counts == [["lr", "3"], ["train/acc", "3"], ["train/loss", "3"], ["val/loss", "3"]]
        groups = page.eval_on_selector_all(".tbnb-group", "els => els.map(e => e.dataset.group)")
        assert groups == ["lr", "train", "val"]
        chart = '.tbnb-chart[data-tag="train/loss"]'
        pixels = (
            f"() => [...document.querySelectorAll('{chart} canvas')].map(c => c.toDataURL()).join()"
        )
        page.wait_for_timeout(200)
        before = page.evaluate(pixels)
        page.eval_on_selector(
            "input.tbnb-smoothing", "e => { e.value = 0.95; e.dispatchEvent(new Event('input')); }"
        )
        page.wait_for_timeout(200)
        assert page.text_content(".tbnb-smoothing-value") == "0.950"
        assert page.evaluate(pixels) != before
        page.click('.tbnb-run-toggle[data-run="a/seed1"]')
        assert page.get_attribute(chart, "data-series-count") == "2"
        page.fill("input.tbnb-run-filter", "(")
        assert "tbnb-invalid" in (page.get_attribute("input.tbnb-run-filter", "class") or "")
        page.fill("input.tbnb-run-filter", "^B/")
        assert page.get_attribute(chart, "data-series-count") == "1"
        page.fill("input.tbnb-tag-filter", "val")
        assert page.eval_on_selector(chart, "e => e.classList.contains('tbnb-hidden')")
        page.fill("input.tbnb-run-filter", "")
        page.fill("input.tbnb-tag-filter", "")
        page.check(f"{chart} input.tbnb-logy")
        box = page.locator(f"{chart} canvas.tbnb-layer-2").bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        tip = page.text_content(".tbnb-w-scalars > .tbnb-tooltip") or ""
        assert "a/seed0" in tip
        assert "b/seed0" in tip
        assert "a/seed1" not in tip  # toggled off
        with page.expect_download() as dl:
            page.click("button.tbnb-download")
        csv = Path(dl.value.path()).read_text()
        header, *rows = csv.strip().splitlines()
        assert header == "run,tag,step,wall_time,value,smoothed"
        assert len(rows) == 2 * (100 + 100 + 10 + 100)
        page.screenshot(path=str(tmp_path / "scalars.png"), full_page=True)
    finally:
        ctx.close()
    assert errors == []
    assert external == []


HARNESS = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="host" style="width:1200px"></div>
<script type="module">
const b64 = (s) => { const bin = atob(s); const u = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i); return new DataView(u.buffer); };
const payload = JSON.parse(document.getElementById("payload").textContent);
const state = payload.state;
payload.paths.forEach((path, i) => {
  let node = state;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path[path.length - 1]] = b64(payload.buffers[i]);
});
// The model API anywidget hands to render(): get/set/on/off/save_changes/send.
const handlers = {};
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; (handlers["change:" + k] || []).forEach((f) => f()); },
  on: (e, f) => { (handlers[e] ||= []).push(f); },
  off: (e, f) => { handlers[e] = (handlers[e] || []).filter((g) => g !== f); },
  save_changes: () => { window.__saved.push(JSON.stringify(Object.keys(state))); },
  send: (content) => { window.__sent.push(content); },
};
window.__sent = []; window.__saved = [];
window.__deliver = (content, buffers) =>
  (handlers["msg:custom"] || []).forEach((f) => f(content, buffers.map(b64)));
const url = URL.createObjectURL(new Blob([atob(payload.esm)], { type: "text/javascript" }));
const mod = await import(url);
mod.default.render({ model, el: document.getElementById("host") });
window.__ready = true;
</script>
<script type="application/json" id="payload">%PAYLOAD%</script>
</body></html>"""


def harness_page(widget: ScalarsWidget, path: Path) -> Path:
    """A page rendering ``widget`` from its state with a stand-in model recording sends."""
    import base64

    state, paths, buffers = _remove_buffers(widget.get_state())
    esm = state.pop("_esm")
    body = json.dumps(
        {
            "state": state,
            "paths": [list(p) for p in paths],
            "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers],
            "esm": base64.b64encode(esm.encode()).decode(),
        }
    ).replace("</", "<\\/")
    path.write_text(HARNESS.replace("%PAYLOAD%", body), encoding="utf-8")
    return path


def _deliver(page: Any, content: dict[str, Any], buffers: list[Any]) -> None:
    import base64

    page.evaluate(
        "([c, b]) => window.__deliver(c, b)",
        [content, [base64.b64encode(bytes(b)).decode() for b in buffers]],
    )


@pytest.mark.browser
@pytest.mark.slow
def test_zoom_asks_python_for_full_resolution_and_appends_arrive(
    torch_logdir: Path, tmp_path: Path, playwright: Any
) -> None:
    """Drag-zoom sends a "range" request; the answer (from ScalarsWidget.answer, as
    binary buffers) replaces the chart's points; an "append" message adds points."""
    from tbnb.widgets.serializers import pack

    w = tbnb.scalars(torch_logdir, max_points=100)
    page_path = harness_page(w, tmp_path / "harness.html")
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ],
        viewport={"width": 1300, "height": 900},
    )
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_path.as_uri())
        page.wait_for_function("window.__ready === true", timeout=20_000)
        chart = '.tbnb-chart[data-tag="loss"]'
        page.wait_for_selector(f"{chart}[data-points]")
        overview = int(page.get_attribute(chart, "data-points") or 0)
        assert 2 * 100 <= overview <= 2 * (3 * 50 + 2)  # downsampled, 2 runs
        box = page.locator(f"{chart} canvas.tbnb-layer-2").bounding_box()
        assert box is not None
        y = box["y"] + box["height"] / 2
        page.mouse.move(box["x"] + 100, y)
        page.mouse.down()
        page.mouse.move(box["x"] + 160, y, steps=4)
        page.mouse.up()
        (request,) = page.evaluate("window.__sent")
        assert request["type"] == "range"
        assert request["chart"] == "loss"
        assert request["field"] == "step"
        assert 0 < request["lo"] < request["hi"] < 3000
        assert sorted(request["runs"]) == ["x", "y"]
        page.wait_for_selector(f'{chart}[data-zoomed="view"]', timeout=10_000)
        reply = w.answer(request)
        assert reply is not None
        content, buffers = pack(reply)
        _deliver(page, content, buffers)
        page.wait_for_selector(f'{chart}[data-zoomed="full"]')
        lo, hi = request["lo"], request["hi"]
        full = sum(1 for s in range(0, 3000, 3) if lo <= s <= hi)
        zoomed = int(page.get_attribute(chart, "data-points") or 0)
        assert zoomed >= 2 * full  # every point of the range, both runs
        page.dblclick(f"{chart} canvas.tbnb-layer-2")
        # the attribute follows on the redraw's animation frame
        page.wait_for_selector(f'{chart}[data-zoomed="none"]', timeout=10_000)
        # live append: three new points for run "x"
        msg = {
            "type": "append",
            "series": [
                {
                    "run": "x",
                    "tag": "loss",
                    "total": 1003,
                    "columns": {
                        "step": np.array([3000, 3003, 3006], dtype=np.int32),
                        "wall": np.array([1.0, 2.0, 3.0]),
                        "value": np.array([5.0, 6.0, 7.0]),
                    },
                }
            ],
        }
        _deliver(page, *pack(msg))
        page.wait_for_function(
            "([sel, n]) => document.querySelector(sel).getAttribute('data-points') == n",
            arg=[chart, str(overview + 3)],
        )
    finally:
        ctx.close()
    assert errors == []


READ_TIP_JS = """run => {
  const tip = [...document.querySelectorAll('.tbnb-tooltip')].find((t) => t.offsetParent !== null);
  if (!tip) return null;
  const rows = [...tip.querySelectorAll('tr')];
  const heads = [...rows[0].querySelectorAll('th')].map((th) => th.textContent.trim());
  const row = rows.slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))
    .find((cells) => cells[heads.indexOf('run')] === run);
  return row ? Object.fromEntries(heads.map((h, i) => [h, row[i]])) : null;
}"""


def _hover_step(page: Any, canvas: Any, run: str, step: int) -> dict[str, str]:
    """Move the pointer over ``canvas`` until the readout of ``run`` shows ``step``."""
    box = canvas.bounding_box()
    y = box["y"] + box["height"] / 2
    lo, hi = box["x"] + 1, box["x"] + box["width"] - 1
    row: dict[str, str] | None = None
    for _ in range(40):  # the readout's step grows with x: bisect the pointer position
        mid = (lo + hi) / 2
        page.mouse.move(mid, y)
        row = page.evaluate(READ_TIP_JS, run)
        assert row is not None, "no readout"
        shown = int(row["step"])
        if shown == step:
            return row
        if shown < step:
            lo = mid
        else:
            hi = mid
    raise AssertionError(f"could not hover step {step}: last readout {row}")


@pytest.mark.browser
@pytest.mark.slow
def test_zoom_keeps_the_smoothing_of_the_whole_series(tmp_path: Path, playwright: Any) -> None:
    """At smoothing 0.999 a zoomed chart used to smooth only the zoomed window, so its
    EMA restarted at the window's left edge (0.53 zoomed vs 0.33 unzoomed at one step).
    The smoothed value at a step must read the same zoomed and unzoomed."""
    from tbnb.widgets.serializers import pack

    n = 3000
    steps = np.arange(n) * 3
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(
        {
            "run": np.repeat(["x", "y"], n),
            "tag": "loss",
            "step": np.tile(steps, 2),
            "wall_time": np.tile(1.7e9 + np.arange(n, dtype=float), 2),
            "value": np.concatenate(
                [
                    1.0 / (1 + steps / 300) + rng.normal(0, 0.05, n),
                    2.0 / (1 + steps / 300) + rng.normal(0, 0.05, n),
                ]
            ),
        }
    )
    w = tbnb.scalars(frame, smoothing=0.999, max_points=200)
    overview = w.data
    page_path = harness_page(w, tmp_path / "harness.html")
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ],
        viewport={"width": 1300, "height": 900},
    )
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_path.as_uri())
        page.wait_for_function("window.__ready === true", timeout=20_000)
        chart = '.tbnb-chart[data-tag="loss"]'
        page.wait_for_selector(f"{chart}[data-points]")
        canvas = page.locator(f"{chart} canvas").last
        box = canvas.bounding_box()
        # overview steps of run x inside the window we are going to zoom into
        xs = overview[overview["run"] == "x"]["step"].to_numpy()
        window = (xs > 4000) & (xs < 5500)
        probes = [int(s) for s in xs[window][:: max(window.sum() // 4, 1)]][:4]
        assert len(probes) >= 3
        before = {s: _hover_step(page, canvas, "x", s) for s in probes}
        # drag-zoom over [~3800, ~5800]: find the pixels by the readout, as a user would
        page.mouse.move(box["x"] + 5, box["y"] + box["height"] / 2)
        left = _pixel_of_step(page, canvas, "x", 3800)
        right = _pixel_of_step(page, canvas, "x", 5800)
        y = box["y"] + box["height"] / 2
        page.mouse.move(left, y)
        page.mouse.down()
        page.mouse.move(right, y, steps=5)
        page.mouse.up()
        (request,) = page.evaluate("window.__sent")
        reply = w.answer(request)
        assert reply is not None
        _deliver(page, *pack(reply))
        page.wait_for_selector(f'{chart}[data-zoomed="full"]')
        for s in probes:
            after = _hover_step(page, canvas, "x", s)
            assert after["smoothed"] == before[s]["smoothed"], (s, before[s], after)
            assert after["value"] == before[s]["value"]
        # the other run of the chart is smoothed alike (no mix of zoom and whole smoothing)
        ys = overview[overview["run"] == "y"]["step"].to_numpy()
        probe_y = int(ys[(ys > 4500) & (ys < 5000)][0])
        zoomed_y = _hover_step(page, canvas, "y", probe_y)
        page.dblclick(f"{chart} canvas >> nth=-1")
        page.wait_for_selector(f'{chart}[data-zoomed="none"]', timeout=10_000)
        assert _hover_step(page, canvas, "y", probe_y)["smoothed"] == zoomed_y["smoothed"]
    finally:
        ctx.close()
    assert errors == []


def _pixel_of_step(page: Any, canvas: Any, run: str, step: int) -> float:
    """The pointer x where the readout of ``run`` reaches ``step`` (or the nearest shown)."""
    box = canvas.bounding_box()
    y = box["y"] + box["height"] / 2
    lo, hi = box["x"] + 1, box["x"] + box["width"] - 1
    for _ in range(30):
        mid = (lo + hi) / 2
        page.mouse.move(mid, y)
        row = page.evaluate(READ_TIP_JS, run)
        assert row is not None
        if int(row["step"]) < step:
            lo = mid
        else:
            hi = mid
    return float(hi)


def test_data_is_what_is_drawn_and_full_data_every_point(torch_logdir: Path) -> None:
    """``w.data`` used to be silently downsampled; it now says so, and ``full_data``
    holds every point (smoothed over the whole full-resolution series)."""
    w = tbnb.scalars(torch_logdir, max_points=200, smoothing=0.9)
    doc = type(w).data.__doc__ or ""
    assert "downsampled" in doc
    assert "full_data" in doc
    drawn, full = w.data, w.full_data
    assert list(full.columns) == list(drawn.columns)
    assert len(full) == 2 * 1000  # every point the torch writer wrote
    assert len(drawn) < len(full)
    for run, offset in (("x", 0.0), ("y", 1.0)):
        one = full[full["run"] == run]
        assert one["step"].tolist() == list(range(0, 3000, 3))
        expected = (np.sin(np.arange(0, 3000, 3) / 50) + offset).astype(np.float32)
        np.testing.assert_allclose(one["value"], expected, rtol=0, atol=1e-6)
        np.testing.assert_allclose(one["smoothed"], ema(one["value"].to_numpy(), 0.9))
        shown = drawn[drawn["run"] == run]
        assert set(shown["step"]) <= set(one["step"])  # drawn points are some of them
    w.selected_runs = ["y"]
    assert set(w.full_data["run"]) == {"y"}  # the same selection and filters as data
