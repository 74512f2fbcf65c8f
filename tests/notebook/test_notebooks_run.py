"""Every notebook in notebooks/ runs top to bottom in a fresh kernel, without errors."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def _run(path: Path, cwd: Path) -> Any:
    import nbformat
    from nbclient import NotebookClient

    nb: Any = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    return nb


def test_notebooks_found() -> None:
    assert {"quickstart.ipynb", "tour.ipynb"} <= {p.name for p in NOTEBOOKS}


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(
    path: Path, tmp_path: Path, sample_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernel inherits this environment: this checkout's tbnb, and a private cache
    # holding the sample (written once per session), as a user's cache holds it.
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    )
    monkeypatch.setenv("TBNB_CACHE_DIR", str(sample_cache))
    nb = _run(path, tmp_path)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert errors == []
    stderr = [
        o.text
        for c in code
        for o in c.outputs
        if o.output_type == "stream" and o.name == "stderr" and "Traceback" in o.text
    ]
    assert stderr == []
    if path.name == "tour.ipynb":  # every kind with a tab, each as its own widget
        from tbnb.kinds import KINDS

        builders = [kind.tab.factory.rpartition(":")[2] for kind in KINDS.values() if kind.tab]
        sources = "\n".join(c.source for c in code)
        assert [b for b in builders if f"tbnb.{b}(" not in sources] == []
        widgets = [c for c in code for o in c.outputs if WIDGET_MIME in o.get("data", {})]
        assert len(widgets) == len(builders) + 1  # and the %tbnb dashboard
        assert any("Custom scalars, HParams" in o.get("text", "") for c in code for o in c.outputs)
    if path.name == "quickstart.ipynb":
        widgets = [c for c in code for o in c.outputs if WIDGET_MIME in o.get("data", {})]
        assert len(widgets) >= 3  # scalars, the aggregated scalars, the %tbnb dashboard
        assert (sample_cache / "samples").is_dir()
