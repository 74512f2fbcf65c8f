"""Run colours: decided once in Python, the same in every widget of an experiment,
distinct at a glance, and a palette that stays distinct with colour blindness."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.widgets.colors import COLORBLIND_PALETTE, DEFAULT_PALETTE, palette_of, run_colors


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def _rgb(hex_color: str) -> tuple[float, float, float]:
    h = hex_color.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal's formulation)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbp - 30))
        + 0.24 * math.cos(math.radians(2 * hbp))
        + 0.32 * math.cos(math.radians(3 * hbp + 6))
        - 0.20 * math.cos(math.radians(4 * hbp - 63))
    )
    dtheta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp**7 / (cbp**7 + 25**7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc, sh = 1 + 0.045 * cbp, 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh)
    )


# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
CVD = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def _simulate(rgb: tuple[float, float, float], matrix: list[list[float]]) -> tuple[float, ...]:
    lin = [_linear(c) for c in rgb]
    return tuple(_gamma(sum(m * v for m, v in zip(row, lin, strict=True))) for row in matrix)


def _min_difference(colors: list[str], matrix: list[list[float]] | None = None) -> float:
    rgbs = [_rgb(c) for c in colors]
    if matrix is not None:
        rgbs = [_simulate(c, matrix) for c in rgbs]  # type: ignore[misc]
    labs = [_lab(c) for c in rgbs]
    return min(ciede2000(a, b) for a, b in itertools.combinations(labs, 2))


def _contrast_on_white(hex_color: str) -> float:
    r, g, b = (_linear(c) for c in _rgb(hex_color))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_ciede2000_reference_pair() -> None:
    # Sharma et al.'s test data, pair 1: 2.0425
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(
        2.0425, abs=1e-4
    )


def test_twenty_runs_get_twenty_distinct_readable_colours() -> None:
    colors = list(run_colors([f"run{i}" for i in range(20)]).values())
    assert colors == list(DEFAULT_PALETTE)
    assert len(set(colors)) == 20
    assert _min_difference(colors) >= 18  # "just noticeable" is ~2; 18 is told apart at a glance
    assert min(_contrast_on_white(c) for c in colors) >= 2  # thin lines stay visible on white


def test_colour_blind_palette_stays_distinct_under_simulation() -> None:
    for name, matrix in CVD.items():
        assert _min_difference(list(COLORBLIND_PALETTE), matrix) >= 10, name
    # the default palette is not meant for it: some of its pairs merge for deuteranopes
    assert _min_difference(list(DEFAULT_PALETTE), CVD["deuteranopia"]) < 5


def test_colours_follow_the_run_order_and_cycle() -> None:
    colors = run_colors(["b", "a", "b", "c"], palette="colorblind")
    assert list(colors) == ["b", "a", "c"]
    assert colors["b"] == COLORBLIND_PALETTE[0]
    with pytest.raises(ValueError, match="palette must be one of"):
        palette_of("rainbow")


def test_runs_past_the_palette_never_repeat_an_earlier_runs_colour() -> None:
    # a sweep of 50 runs: runs 0 and 20 used to be the same blue, 4 and 24 the same purple
    many = list(run_colors([f"r{i}" for i in range(50)]).values())
    assert many[:20] == list(DEFAULT_PALETTE)
    assert len(set(many)) == 50
    assert _min_difference(many) >= 5  # no two of the 50 near-identical
    assert min(_contrast_on_white(c) for c in many) >= 2
    blind = list(run_colors([f"r{i}" for i in range(12)], palette="colorblind").values())
    assert blind[:9] == list(COLORBLIND_PALETTE)
    assert len(set(blind)) == 12


def test_every_widget_of_one_experiment_agrees(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    runs = [f"lr={lr},seed={seed}" for lr in (0.1, 0.01) for seed in (0, 1)]
    for run in runs:
        with SummaryWriter(str(tmp_path / run)) as writer:
            for step in range(3):
                writer.add_scalar("loss", float(step), step)
            writer.add_hparams({"lr": float(run[3:].split(",")[0])}, {"hp/acc": 0.5})
    exp = tbnb.load(tmp_path, progress=False)
    expected = run_colors(exp.runs)
    sc = tbnb.scalars(exp)
    only_some = tbnb.scalars(exp, runs="seed=1")  # filtering keeps each run's colour
    hp = tbnb.hparams(exp, importance=False)
    assert sc.run_colors == expected
    assert all(only_some.run_colors[r] == expected[r] for r in only_some.selected_runs)
    assert {r: hp.run_colors[r] for r in exp.runs} == expected
    dash = tbnb.Dashboard(exp)
    assert dash.views["scalars"].run_colors == expected
    assert {r: dash.views["hparams"].run_colors[r] for r in exp.runs} == expected
    dash.close()
    hp.palette = "colorblind"
    assert hp.run_colors[exp.runs[0]] == COLORBLIND_PALETTE[0]
    sc.palette = "colorblind"
    assert sc.run_colors == run_colors(exp.runs, palette="colorblind")


def test_a_dataframe_uses_its_own_run_order() -> None:
    df = pd.DataFrame(
        {
            "run": ["z", "z", "a"],
            "tag": "loss",
            "step": [0, 1, 0],
            "wall_time": 0.0,
            "value": np.arange(3.0),
        }
    )
    w = tbnb.scalars(df)
    assert w.run_colors == {"z": DEFAULT_PALETTE[0], "a": DEFAULT_PALETTE[1]}
    grouped = tbnb.scalars(df, group_by=r"(\w)")
    assert grouped.run_colors == {"a": DEFAULT_PALETTE[0], "z": DEFAULT_PALETTE[1]}
