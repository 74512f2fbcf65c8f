"""Figures for papers: every chart view drawn with matplotlib from its view spec, the same
series, smoothing, colours, selection, scales and labels as the browser, vector PDF/SVG
with no notebook; the figure's data compared with the view's, the PNG looked at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.colors import to_hex, to_rgba  # the test extra brings matplotlib

import tbnb
from tbnb.notebook.samples import sample_logdir
from tbnb.widgets.matplotlib_figure import LINESTYLES, css_color


@pytest.fixture(scope="module")
def exp() -> Any:
    return tbnb.load(sample_logdir(), progress=False)


def lines_of(fig: Any) -> list[Any]:
    return [line for ax in fig.axes for line in ax.lines]


def spec_lines(spec: Any) -> list[Any]:
    return [m for p in spec.panels for m in p.marks if m.kind == "line"]


def assert_same_lines(fig: Any, spec: Any) -> None:
    """Every line of the spec is a line of the figure: same points, colour, dash, opacity."""
    drawn, marks = lines_of(fig), spec_lines(spec)
    assert len(drawn) == len(marks) > 0
    for line, mark in zip(drawn, marks, strict=True):
        np.testing.assert_allclose(line.get_xdata(), np.asarray(mark.data["x"], dtype=float))
        np.testing.assert_allclose(line.get_ydata(), np.asarray(mark.data["y"], dtype=float))
        assert to_rgba(line.get_color()) == to_rgba(css_color(mark.color))
        assert line.get_linestyle() == LINESTYLES[mark.style.get("dash", "solid")]
        assert line.get_alpha() == mark.style.get("opacity")


def colour_pixels(png: Path, colour: str, tolerance: float = 0.06) -> int:
    """How many pixels of the PNG are ``colour`` (what a reader of the paper sees)."""
    from matplotlib.image import imread

    pixels = imread(png)[..., :3]
    target = np.asarray(to_rgba(colour)[:3])
    return int((np.abs(pixels - target).max(axis=-1) < tolerance).sum())


def test_scalars_figure_is_the_view(exp: Any, tmp_path: Path, out_dir: Path) -> None:
    w = tbnb.scalars(exp, tags="^train/", smoothing=0.9, log_y=["train/loss"])
    runs = exp.runs[:2]
    w.selected_runs = runs
    fig = w.to_matplotlib()
    spec = w.view_spec()
    assert_same_lines(fig, spec)
    assert [ax.get_title() for ax in fig.axes] == ["train/acc", "train/loss"]
    assert fig.axes[1].get_yscale() == "log"
    assert fig.axes[0].get_yscale() == "linear"
    # the smoothed line of each selected run is the view's data (w.data), nothing else shown
    df = w.data
    assert set(df["run"]) == set(runs)
    for run in runs:
        rows = df[(df["run"] == run) & (df["tag"] == "train/loss")]
        line = next(ln for ln in fig.axes[1].lines if ln.get_label().lstrip("_") == run)
        np.testing.assert_allclose(line.get_ydata(), rows["smoothed"])
        np.testing.assert_allclose(line.get_xdata(), rows["step"])
        assert to_hex(line.get_color()) == w.run_colors[run]
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == runs  # one entry per run
    png = out_dir / "figure_scalars.png"
    w.savefig(png, dpi=100)
    for run in runs:  # each run's colour is on the page
        assert colour_pixels(png, w.run_colors[run]) > 200
    w.savefig(tmp_path / "fig.pdf")
    w.savefig(tmp_path / "fig.svg")
    pdf = (tmp_path / "fig.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    assert b"/Subtype /Image" not in pdf  # vector, no raster
    svg = (tmp_path / "fig.svg").read_text()
    assert len(re.findall(r"<path ", svg)) >= len(spec_lines(spec))


def test_time_axis_and_smoothing_change_the_figure(exp: Any) -> None:
    w = tbnb.scalars(exp, tags="^train/loss$", smoothing=0.0)
    run = exp.runs[0]

    def line(fig: Any) -> Any:  # the run's named (smoothed) line
        return next(ln for ln in lines_of(fig) if ln.get_label().lstrip("_") == run)

    flat = line(w.to_matplotlib()).get_ydata()
    w.smoothing = 0.95
    smooth = line(w.to_matplotlib()).get_ydata()
    assert flat.shape == smooth.shape
    assert not np.allclose(flat, smooth)
    w.x_axis = "wall"
    dates = line(w.to_matplotlib()).get_xdata()
    assert np.asarray(dates).dtype.kind == "M"  # wall time as dates, as the browser shows


@pytest.mark.parametrize("key", ["custom_scalars", "pr_curves", "histograms", "distributions"])
def test_every_line_chart_figure_is_its_view(exp: Any, key: str, out_dir: Path) -> None:
    w = getattr(tbnb, key)(exp)
    if hasattr(w, "selected_runs"):
        w.selected_runs = exp.runs[:3]
    spec = w.view_spec()
    fig = w.to_matplotlib()
    assert_same_lines(fig, spec)
    titled = [p.title for p in spec.panels]
    assert [ax.get_title() for ax in fig.axes[: len(titled)]] == titled
    for ax, panel in zip(fig.axes, spec.panels, strict=False):
        assert ax.get_xlabel() == panel.x.title
        assert ax.get_ylabel() == panel.y.title
        if panel.y.range is not None:
            np.testing.assert_allclose(ax.get_ylim(), panel.y.range)
    bands = [m for p in spec.panels for m in p.marks if m.kind == "band"]
    filled = [c for ax in fig.axes for c in ax.collections]
    assert len(filled) >= len(bands)
    png = out_dir / f"figure_{key}.png"
    w.savefig(png, dpi=80)
    opaque = {  # the colours drawn as they are (no transparency): each is on the page
        to_hex(css_color(m.color))
        for m in spec_lines(spec)
        if to_rgba(css_color(m.color))[3] == 1 and m.style.get("opacity", 1) == 1
    }
    assert opaque
    assert any(colour_pixels(png, c) > 50 for c in opaque)


def test_hparams_parallel_coordinates(exp: Any, out_dir: Path) -> None:
    w = tbnb.hparams(exp)
    (mark,) = [m for p in w.view_spec().panels for m in p.marks]
    axes = mark.data["axes"]
    lo = float(np.nanmin(axes[0]["values"]))
    w.brush(axes[0]["label"], (lo, lo))  # the runs with the smallest first hparam
    spec = w.view_spec()
    (mark,) = [m for p in spec.panels for m in p.marks]
    fig = w.to_matplotlib()
    (ax,) = fig.axes
    runs = len(mark.data["axes"][0]["values"])
    polylines = [ln for ln in ax.lines if len(ln.get_xdata()) == len(axes)]
    assert len(polylines) == runs
    assert [t.get_text() for t in ax.get_xticklabels()] == [a["label"] for a in mark.data["axes"]]
    assert len(ax.patches) >= 1  # the brush, shaded on its axis
    for line, i in zip(polylines, range(runs), strict=True):  # each run's values, scaled
        first = mark.data["axes"][0]
        values = np.asarray(first["values"], dtype=float)
        span = (np.nanmin(values), np.nanmax(values))
        if span[1] > span[0] and first.get("range") is None:
            expected = (values[i] - span[0]) / (span[1] - span[0])
            assert line.get_ydata()[0] == pytest.approx(expected)
    w.savefig(out_dir / "figure_hparams.png", dpi=100)


def test_no_matplotlib_says_which_extra(monkeypatch: pytest.MonkeyPatch, exp: Any) -> None:
    import builtins

    real = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    monkeypatch.delitem(__import__("sys").modules, "matplotlib.figure", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'tbnb\[matplotlib\]'"):
        tbnb.scalars(exp).to_matplotlib()


def test_the_profilers_stacked_step_bars(exp: Any) -> None:
    view = tbnb.profiler(exp)
    spec = view.view_spec()
    bars = [m for p in spec.panels for m in p.marks if m.kind == "bar"]
    assert bars  # the sample's trace has steps
    fig = view.to_matplotlib()
    patches = [p for ax in fig.axes for p in ax.patches]
    assert len(patches) == sum(len(m.data["x"]) for m in bars)
    tops = sorted(round(p.get_y() + p.get_height(), 9) for p in patches)
    want = sorted(
        round(b + h, 9) for m in bars for b, h in zip(m.data["base"], m.data["y"], strict=True)
    )
    assert tops == want  # each bar stacked on its base, as the browser and plotly draw it
