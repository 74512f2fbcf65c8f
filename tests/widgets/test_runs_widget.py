"""The run information panel's Python side, and the browser's diff rule agreeing with Python's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.analysis.runinfo import diff_runs
from tbnb.widgets.metadata import RunsWidget
from tbnb.widgets.metadata.prepare import runs_payload
from tbnb.widgets.serializers import pack

JS = Path(__file__).resolve().parents[2] / "js"


def _info() -> pd.DataFrame:
    return pd.DataFrame(
        {
            ("run", "host"): ["a1", "a1", "b2", None],
            ("run", "duration"): [10.0, 12.5, np.nan, 3.0],
            ("hparams", "lr"): [0.1, 0.1, 0.01, 0.1],
            ("hparams", "opt"): ["adam", "adam", "sgd", "adam"],
            ("hparams", "layers"): [2, 2.0, 3, np.nan],
            ("environment", "torch"): ["2.3", "2.3", "2.4", "2.3"],
            ("config", "hparams.yaml: flag"): [True, False, True, True],
        },
        index=pd.Index(["r0", "r1", "r2", "r3"], name="run"),
    )


def test_payload_columns_are_binary_with_one_string_table() -> None:
    payload = runs_payload(_info())
    kinds = {(c["section"], c["key"]): c["kind"] for c in payload["columns"]}
    assert kinds[("run", "duration")] == "duration"
    assert kinds[("hparams", "lr")] == "number"
    assert kinds[("hparams", "opt")] == "text"
    assert kinds[("config", "hparams.yaml: flag")] == "text"  # booleans read as text
    host = next(c for c in payload["columns"] if c["key"] == "host")
    assert host["codes"].tolist() == [0, 0, 1, -1]
    assert payload["labels"][:2] == ["a1", "b2"]
    assert all(isinstance(c.get("values", c.get("codes")), np.ndarray) for c in payload["columns"])


DIFF_JS = """
import { decodeTable, comparison } from "./src/widgets/metadata/table-data.js";
import { unpack } from "./src/core/codecs.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const input = JSON.parse(chunks.join(""));
const bytes = (b) => Uint8Array.from(Buffer.from(b, "base64")).buffer;
const buffers = input.buffers.map((b) => new DataView(bytes(b)));
const table = decodeTable(unpack(input.content, buffers));
const out = input.cases.map(([rows, only]) => comparison(table, rows, only)
  .map((k) => [k.column.section, k.column.key, k.differs]));
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_diffs_exactly_as_python() -> None:
    import base64

    info = _info()
    content, buffers = pack(runs_payload(info))
    cases = [([0, 1], True), ([0, 2], True), ([0, 1, 2, 3], False), ([1, 3], True), ([2], False)]
    payload = {
        "content": content,
        "cases": cases,
        "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers],
    }
    proc = subprocess.run(
        [str(shutil.which("node")), "--input-type=module", "-e", DIFF_JS],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=JS,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    browser = json.loads(proc.stdout)
    for (rows, only), got in zip(cases, browser, strict=True):
        runs = [str(info.index[i]) for i in rows]
        python = diff_runs(info, runs, only_different=only and len(runs) > 1)
        expected = [
            [s, k, bool(d) and len(runs) > 1]
            for (s, k), d in zip(python.index, python["differs"], strict=True)
        ]
        assert got == expected, (rows, only)


def test_widget_diff_table_and_plotly() -> None:
    w = tbnb.runs(_info(), selected=["r0", "r2"], sections=["hparams"])
    assert isinstance(w, RunsWidget)
    assert list(w.table.columns) == [("hparams", "lr"), ("hparams", "opt"), ("hparams", "layers")]
    diff = w.diff
    assert ("environment", "torch") in diff.index
    assert ("hparams", "opt") in diff.index
    assert diff["differs"].all()
    w.only_differences = False
    assert len(w.diff) == 7  # every key one of them has (r2 lacks a duration: a difference)
    fig = w.to_plotly()
    assert fig.data[0].header["values"] == ("section", "key", "r0", "r2")
    w.selected_runs = []
    assert w.to_plotly().data[0].header["values"][0] == "run"
    with pytest.raises(Exception, match="unknown sections"):
        w.sections = ["nope"]
    with pytest.raises(KeyError, match="no run 'zz'"):
        tbnb.runs(_info(), selected=["zz"])
    with pytest.raises(TypeError, match="did you mean 'sections'"):
        tbnb.runs(_info(), section=["run"])  # type: ignore[call-arg]


def test_runs_of_an_experiment_follow_reloads(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    with SummaryWriter(str(tmp_path / "a")) as writer:
        writer.add_scalar("loss", 1.0, 0)
    exp = tbnb.load(tmp_path, progress=False)
    w = tbnb.runs(exp)
    assert w._table["runs"] == ["a"]
    assert w.run_colors == tbnb.scalars(exp).run_colors  # the same colours as the other views
    with SummaryWriter(str(tmp_path / "b")) as writer:
        writer.add_scalar("loss", 2.0, 4)
    assert w.refresh_now() >= 1
    assert w._table["runs"] == ["a", "b"]
    step = next(c for c in w._table["columns"] if c["key"] == "last_step")
    assert step["values"].tolist() == [0.0, 4.0]
    w.close()
