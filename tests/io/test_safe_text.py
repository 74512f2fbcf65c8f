"""One rule for CSV cells and one for names on screen, in Python and in the browser.

The browser's CSV downloads (``js/src/core/csv.js``) and Python's exports
(:mod:`tbnb.io.safe_text`) neutralise exactly the same cells; the kit's text helpers
(``js/src/core/dom.js``) and Python show exactly the same characters as ``<U+XXXX>``:
both run here on every character of the planes names use, alone and in hostile cells.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import tbnb
from tbnb.io.safe_text import neutralise_cell, neutralise_frame, to_csv, visible_controls
from tests.js.test_js import run_node

NODE = shutil.which("node")

CODE_POINTS = [
    *range(0x3200),
    *range(0xFE00, 0xFE70),
    *range(0xFF00, 0xFF30),
    *range(0xFF9F, 0xFFFE),
    *range(0xE0000, 0xE0081),
]
"""Every character of the ranges where blanks, controls and formula starters live."""

FORMULA_CELLS = [
    "=1+1",
    " =1+1",
    "\n=1+1",
    "\t=1",
    "\r=1",
    "\ttext",
    "\uff1d1+1",  # fullwidth equals
    " \uff0bcmd",
    "\u3000@SUM(A1)",  # ideographic space
    "\u200b=1",  # zero-width space
    "\u202e=1",  # right-to-left override
    "\ufeff-1",
    "\xa0+1",
    "\ufe66HYPERLINK()",  # small equals
    "-0.5",
    "@",
]
PLAIN_CELLS = ["a=b", "lr=0.1,seed=0", "loss", "1-2", "", " ", "x\n=1", "\u200dwink", "'=quoted"]


def _cells() -> list[str]:
    out = FORMULA_CELLS + PLAIN_CELLS
    for cp in CODE_POINTS:
        c = chr(cp)
        out += [c, c + "1", c + c + "=x", " " + c + "@a", c + "\uff1d1", "ab" + c + "cd"]
    return out


def test_the_named_hostile_cells_are_neutralised_and_plain_ones_kept() -> None:
    for cell in FORMULA_CELLS:
        assert neutralise_cell(cell) == "'" + cell, repr(cell)
    for cell in PLAIN_CELLS:
        assert neutralise_cell(cell) == cell, repr(cell)


def test_controls_are_shown_and_joiners_kept() -> None:
    assert visible_controls("evil\u202egnp.exe") == "evil<U+202E>gnp.exe"
    assert visible_controls("a\u2066b\u2069") == "a<U+2066>b<U+2069>"
    assert visible_controls("lo\u200bss") == "lo<U+200B>ss"
    assert visible_controls("x\U000e0041") == "x<U+E0041>"
    for kept in (
        "tab\there",
        "line\nfeed",
        "\u0645\u06cc\u200c\u0634\u0648\u062f",
        "👩\u200d💻",
        "é",
    ):
        assert visible_controls(kept) == kept


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_python_and_the_browser_apply_the_same_rules() -> None:
    cells = _cells()
    script = """
    import { neutraliseCell } from "./src/core/csv.js";
    import { visibleControls } from "./src/core/dom.js";
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    const cells = JSON.parse(chunks.join(""));
    process.stdout.write(JSON.stringify({
      csv: cells.map(neutraliseCell), shown: cells.map(visibleControls) }));
    """
    browser: Any = run_node(script, cells)
    python_csv = [neutralise_cell(c) for c in cells]
    python_shown = [visible_controls(c) for c in cells]
    csv_diff = [c for c, a, b in zip(cells, python_csv, browser["csv"], strict=True) if a != b]
    shown_diff = [
        c for c, a, b in zip(cells, python_shown, browser["shown"], strict=True) if a != b
    ]
    assert csv_diff == []
    assert shown_diff == []
    assert sum(a != c for a, c in zip(python_csv, cells, strict=True)) > 300  # the rules bite
    assert sum(a != c for a, c in zip(python_shown, cells, strict=True)) > 400


def test_to_csv_neutralises_every_text_cell_a_spreadsheet_would_run() -> None:
    runs = pd.Categorical(["=cmd|' /C calc'!A0", " =1+1", "base"])
    frame = pd.DataFrame(
        {
            "run": runs,
            "tag": ["\uff1dHYPERLINK(1)", "loss", "\n@x"],
            "step": [0, 1, 2],
            "value": [-0.5, 1.0, float("nan")],
        },
        index=pd.Index(["+a", "b", "c"], name="@idx"),
    ).rename(columns={"value": "=value"})
    text = tbnb.to_csv(frame)
    assert text is not None
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["'@idx", "run", "tag", "step", "'=value"]
    assert rows[1] == ["'+a", "'=cmd|' /C calc'!A0", "'\uff1dHYPERLINK(1)", "0", "-0.5"]
    assert rows[2] == ["b", "' =1+1", "loss", "1", "1.0"]
    assert rows[3] == ["c", "base", "'\n@x", "2", ""]
    assert frame["run"].tolist()[0] == "=cmd|' /C calc'!A0"  # the frame itself is untouched


def test_to_csv_writes_a_file_and_keeps_numbers(tmp_path: Path) -> None:
    frame = pd.DataFrame({"run": ["-x"], "value": [-3]})
    assert to_csv(frame, tmp_path / "out.csv", index=False) is None
    assert (tmp_path / "out.csv").read_text() == "run,value\n'-x,-3\n"
    same = pd.DataFrame({"a": ["=1"]}, index=pd.MultiIndex.from_tuples([("=r", 1)]))
    assert neutralise_frame(same).index.tolist() == [("'=r", 1)]
