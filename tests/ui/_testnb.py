"""The notebook the JupyterLab browser test opens (cells are found by their tag)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def build(logdir: Path) -> Any:
    """Cells: setup, scalars, readback, magic, many (10 widgets), done."""
    path = json.dumps(str(logdir))
    cells = [
        (
            "setup",
            f"""\
import json
import tbnb
LOGDIR = {path}

exp = tbnb.load(LOGDIR)
# add_hparams' sub-runs (one point per final metric) are charted as points of their run
charted = exp.runs
runs = exp.scalars["run"].astype(str).map(lambda r: exp.subruns.get(r, r))
df = exp.scalars.assign(run=runs)[runs.isin(charted)]
runs_per_tag = df.groupby("tag", observed=True)["run"].nunique()
expected = {{"runs": charted, "runs_per_tag": runs_per_tag.astype(int).to_dict()}}
print("EXPECT " + json.dumps(expected))""",
        ),
        (
            "scalars",
            """\
w = tbnb.scalars(exp, smoothing=0.6)
w""",
        ),
        (
            "readback",
            """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({"smoothing": w.smoothing, "selected_runs": w.selected_runs,
      "log_y": w.log_y, "run_filter": w.run_filter}))""",
        ),
        (
            "magic",
            f"""\
%load_ext tbnb
%tbnb {logdir.as_posix()!r} --refresh 3600""",
        ),
        (
            "many",
            """\
from IPython.display import display
many = [tbnb.scalars(exp, tags="^train/loss$") for _ in range(10)]
display(*many)""",
        ),
        ("done", 'print("ALL_DONE")'),
    ]
    nb: Any = new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells.append(new_markdown_cell("tbnb browser test notebook"))  # type: ignore[no-untyped-call]
    for tag, source in cells:
        cell = new_code_cell(source, metadata={"tags": [tag]})  # type: ignore[no-untyped-call]
        nb.cells.append(cell)
    return nb


#: Index of each tagged cell in the built notebook (after the markdown cell).
CELL = {
    tag: i + 1 for i, tag in enumerate(["setup", "scalars", "readback", "magic", "many", "done"])
}
