"""The graph explorer's and run panel's bundles: small, self-contained, the worker inlined."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["graphs", "metadata"])
def test_bundle_is_small_and_loads_nothing(name: str) -> None:
    bundle = (ROOT / "tbnb" / "static" / f"{name}.js").read_text(encoding="utf-8")
    assert len(bundle.encode()) < 200_000
    urls = [u for u in re.findall(r"https?://[^\s\"'`)]+", bundle)
            if not u.startswith("http://www.w3.org/")]
    assert urls == []
    for forbidden in ("fetch(", "importScripts", "innerHTML", "eval("):
        assert forbidden not in bundle, forbidden


def test_the_layout_worker_travels_inside_the_graph_bundle() -> None:
    bundle = (ROOT / "tbnb" / "static" / "graphs.js").read_text(encoding="utf-8")
    assert "new Worker(" in bundle  # started from a blob: URL of its own source
    assert "createObjectURL" in bundle
    assert bundle.count("onmessage") >= 2  # the worker's handler, inside its source text
