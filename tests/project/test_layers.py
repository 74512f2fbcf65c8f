"""The house: layers as folders, a lower layer never importing a higher one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tbnb"

LAYERS = {
    "_proto": 0,
    "warnings": 0,
    "extras": 0,
    "jit": 0,
    "native": 0,
    "io": 1,
    "decode": 2,
    "kinds": 3,
    "loader": 4,
    "analysis": 5,
    "transforms": 5,
    "compat": 5,
    "widgets": 6,
    "notebook": 7,
}
"""Layer of each top-level room of the package (``tbnb/__init__.py`` is the facade)."""

MAX_LINES = 420
"""Modules stay small: about 400 lines at most, a guide rather than a law (see below)."""

HARD_MAX_LINES = 600
"""No module passes this, whatever its reason."""

LONGER_MODULES = {
    "tbnb/loader/experiment.py": (
        "the Experiment facade: one short accessor per public question (frames, runs, tags, "
        "reload, watch, embeddings); splitting it would scatter one class over files"
    ),
}
"""Modules allowed past :data:`MAX_LINES`, each with the reason no seam splits it well."""


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_proto" not in p.parts[-2:])


def _room(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _imported_rooms(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    rooms = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "tbnb" and len(parts) > 1:
                rooms.add(parts[1])
            elif parts[0] == "tbnb":
                rooms.add("__init__")
    return rooms


def test_every_module_belongs_to_a_layer() -> None:
    rooms = {_room(p) for p in _modules()} - {"__init__"}
    assert rooms <= set(LAYERS), rooms - set(LAYERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    room = _room(path)
    if room == "__init__":
        return
    higher = {
        r for r in _imported_rooms(path) if r == "__init__" or LAYERS.get(r, -1) > LAYERS[room]
    }
    assert higher == set(), f"{path.relative_to(ROOT)} imports higher layers {higher}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_are_small(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    name = str(path.relative_to(ROOT))
    assert lines <= HARD_MAX_LINES, f"{name} has {lines} lines"
    if name in LONGER_MODULES:
        assert lines > MAX_LINES, (
            f"{name} is back under {MAX_LINES} lines: drop it from LONGER_MODULES"
        )
    else:
        assert lines <= MAX_LINES, (
            f"{name} has {lines} lines: split it where a seam is, or list it in LONGER_MODULES "
            "with the reason none is"
        )


JS_SOURCE = ROOT / "js" / "src"


def test_js_modules_are_small() -> None:
    """Front-end modules keep the same limit as Python ones: about 400 lines at most."""
    modules = sorted(JS_SOURCE.rglob("*.js"))
    assert modules, f"no JavaScript modules under {JS_SOURCE.relative_to(ROOT)}"
    too_long = {}
    for path in modules:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            too_long[str(path.relative_to(ROOT))] = lines
    listed = ", ".join(f"{name} ({n} lines)" for name, n in too_long.items())
    assert not too_long, f"JavaScript modules over {MAX_LINES} lines: {listed}"
