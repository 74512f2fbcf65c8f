"""tbnb.load's progress bar in a real kernel: an HTML output, empty once loaded, no widget."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_progress_leaves_no_widget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nbformat
    from nbclient import NotebookClient

    from tests.writers_histograms import write_histogram_runs

    write_histogram_runs(tmp_path / "logs")
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    )
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "import tbnb\nexp = tbnb.load('logs', progress=True)\nprint(len(exp.runs))"
        )
    ]
    NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = nb.cells[0].outputs
    assert [o.text for o in outputs if o.output_type == "stream"] == ["2\n"]
    shown = [o for o in outputs if o.output_type == "display_data"]
    assert len(shown) == 1  # the bar, drawn then updated in place
    assert shown[0].data["text/html"] == ""
    assert "application/vnd.jupyter.widget-view+json" not in shown[0].data
    assert not any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
