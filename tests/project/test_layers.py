"""The house: layers as folders, a lower layer never importing a higher one.

Imports are read from every module, and so are the references written as text (a
``"module:function"``, a module name handed to ``importlib``): a lower layer may name a
higher one only through an entry the registries declare (a kind's dashboard tab, a
kind's analysis builder, a kernel module ``tbnb.jit`` compiles). A view's folder
(``tbnb/widgets/<key>/``) imports the widget platform (``tbnb/widgets/*.py``), never
another view's folder.
"""

from __future__ import annotations

import ast
import re
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

LONGER_MODULES: dict[str, str] = {
    "tbnb/widgets/embeddings/widget.py": (
        "the projector's one widget class: its traits, the layout shown and its jobs, the "
        "experiment's embeddings and the browser's requests; what has no widget state is "
        "already beside it (prepare, runner, selection, defaults, source)"
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


_REFERENCE = re.compile(r"tbnb(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants of ``tree`` (prose, not references)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _text_references(path: Path) -> set[str]:
    """Strings of ``path`` that are whole references to a tbnb module (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in prose
        and _REFERENCE.fullmatch(node.value)
    }


def _declared_references() -> dict[str, str]:
    """Reference -> the registry entry that declares it (the only text allowed to climb)."""
    from tbnb.jit.cache import GROUPS
    from tbnb.kinds import ANALYSES, KINDS

    out = {}
    for kind in KINDS.values():
        if kind.tab is not None and isinstance(kind.tab.factory, str):
            out[kind.tab.factory] = f"the {kind.key} kind's dashboard tab"
        for reference in kind.references:
            out[reference] = f"the {kind.key} kind's builder"
    for analysis in ANALYSES.values():
        out[analysis.builder] = f"the {analysis.key} analysis"
    for group, modules in GROUPS.items():
        for module in modules:
            out[module] = f"the {group} kernels tbnb.jit compiles"
    return out


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
def test_no_text_reference_climbs_a_layer_undeclared(path: Path) -> None:
    room = _room(path)
    if room == "__init__":
        return
    declared = _declared_references()
    climbing = {
        ref
        for ref in _text_references(path)
        if LAYERS.get(ref.split(":")[0].split(".")[1], -1) > LAYERS[room] and ref not in declared
    }
    assert climbing == set(), (
        f"{path.relative_to(ROOT)} names higher layers as text {sorted(climbing)}: import "
        "nothing upward; declare the entry in a registry (a kind's tab or builder) instead"
    )


def test_text_references_are_seen() -> None:
    """The reader finds the references the registries declare (so it can find others)."""
    found = set().union(*(_text_references(p) for p in _modules()))
    assert set(_declared_references()) <= found


WIDGETS = PACKAGE / "widgets"
VIEWS = sorted(p.name for p in WIDGETS.iterdir() if (p / "__init__.py").exists())
"""The view folders of the widget layer (``tbnb/widgets/<key>/``)."""

SHARED_VIEW_MODULES: dict[str, str] = {}
"""``"tbnb.widgets.<key>.<module>"`` other views may import, each with its reason (what
several views share belongs in the platform, ``tbnb/widgets/*.py``)."""


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize(
    "path", sorted(WIDGETS.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_views_import_the_platform_not_each_other(path: Path) -> None:
    parts = path.relative_to(WIDGETS).parts
    own = parts[0] if len(parts) > 1 else None  # None: a platform module
    wrong = set()
    for name in _imported_modules(path):
        bits = name.split(".")
        if bits[:2] != ["tbnb", "widgets"] or len(bits) < 3 or bits[2] not in VIEWS:
            continue
        if bits[2] != own and ".".join(bits[:4]) not in SHARED_VIEW_MODULES:
            wrong.add(".".join(bits[:4]))
    where = "the platform" if own is None else f"the {own} view"
    assert wrong == set(), (
        f"{path.relative_to(ROOT)}: {where} imports another view's modules {sorted(wrong)}; "
        "move what they share into the platform (tbnb/widgets/*.py)"
    )


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
