"""Private attributes stay private: a module reads or writes ``obj._name`` only for a name
its own code defines.

A widget's factory passes options through the constructor, a plotly figure is drawn from
the widget's view spec, the experiment's overview reads its state through the state's
public interface: none reaches into another module's object. Read from the source (the
AST), so a new reach-in fails here, naming the line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tbnb"

THIRD_PARTY: dict[str, str] = {
    "tbnb/jit/loading.py": (
        "numba's cache internals (the locator classes, a dispatcher's cache and hits): "
        "numba has no public interface to load kernels from a cache only"
    ),
    "tbnb/io/logdir.py": (
        "fsspec's _strip_protocol, the filesystems' own way from a URL to their path "
        "(fsspec has no public equivalent)"
    ),
    "tbnb/compat/tbparse/tree.py": "fsspec's _strip_protocol, as tbnb/io/logdir.py",
    "tbnb/io/files.py": (
        "fsspec's _strip_protocol, which tbnb's LocalFiles implements as fsspec's "
        "filesystems do (the interface it stands in for)"
    ),
}
"""Modules allowed to read other libraries' private attributes, each with its reason."""


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_proto" not in p.parts)


def _defined(tree: ast.AST) -> set[str]:
    """Private names the module defines: its objects' attributes (set on ``self`` or
    ``cls``), functions, classes and names."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if n.startswith("_")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _reaches(path: Path) -> list[str]:
    """``line: expression`` of every private attribute of another object the module uses
    and does not define (``self``/``cls`` and modules' own privates aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _defined(tree)
    out = []
    for node in ast.walk(tree):
        name = None
        target: ast.AST | None = None
        if isinstance(node, ast.Attribute) and _private(node.attr):
            name, target = node.attr, node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
        ):
            name, target = node.args[1].value, node.args[0]
        if name is None or name in own:
            continue
        if isinstance(target, ast.Name) and target.id in ("self", "cls", "sys", "os"):
            continue
        out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_reaches_into_another_objects_privates(path: Path) -> None:
    name = str(path.relative_to(ROOT))
    if name in THIRD_PARTY:
        return
    reaches = _reaches(path)
    assert reaches == [], (
        f"{name} uses private attributes it does not define: {reaches}; pass options "
        "through a constructor or give the owner a public method"
    )


def test_the_reader_sees_a_reach_in(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "def f(widget):\n    widget._build = {}\n    return getattr(widget, '_legend')\n"
    )
    assert _reaches(module) == ["2: widget._build", "3: getattr(widget, '_legend')"]
    module.write_text("def f(widget):\n    return widget._legend\n")
    assert _reaches(module) == ["2: widget._legend"]
