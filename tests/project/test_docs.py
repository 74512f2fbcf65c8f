"""The architecture notes are checked against the code, so they cannot drift.

``docs/architecture.md``'s folder tree names every module of every layer (with the layer
number the layer test uses), and its tables of kinds and analyses are the ones
:func:`kinds_table` and :func:`analyses_table` render from the registry: a failure
prints the table to paste.
"""

from __future__ import annotations

import importlib
import re

import pytest

from tbnb.kinds import ANALYSES, KINDS
from tests.project.test_layers import LAYERS, PACKAGE, ROOT

DOC = ROOT / "docs" / "architecture.md"


def _tree() -> dict[str, tuple[int, str]]:
    """Room -> (layer, its text) of the tree in the notes' first code block."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```\ntbnb/\n", 1)[1].split("```", 1)[0]
    rooms: dict[str, tuple[int, str]] = {}
    room = None
    for line in block.splitlines():
        entry = re.match(r"  (\w+)(?:/|\.py)\s+(\d+)\s+(.*)", line)
        if entry:
            room = entry.group(1)
            rooms[room] = (int(entry.group(2)), entry.group(3))
        elif room is not None and line.startswith(" " * 18):
            layer, words = rooms[room]
            rooms[room] = (layer, f"{words} {line.strip()}")
        else:
            room = None
    return rooms


def _defining_module(key: str) -> str:
    """The module (``name``) or package (``name/``) of tbnb/kinds that defines a kind."""
    folder = PACKAGE / "kinds"
    candidates = [(p.stem, p.stem) for p in folder.glob("*.py")]
    candidates += [(p.name, f"{p.name}/") for p in folder.iterdir() if (p / "__init__.py").exists()]
    for name, shown in candidates:
        module = importlib.import_module(f"tbnb.kinds.{name}")
        if getattr(module, "KIND", None) is KINDS[key]:
            return shown
    raise AssertionError(f"no module of tbnb/kinds defines the {key!r} kind")


def _named_in_room(room: str) -> list[str]:
    """What the tree must name for ``room``: its modules and sub-packages (a view's folder
    and a kind's module are listed elsewhere)."""
    folder = PACKAGE / room
    names = [p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")]
    names += [p.name for p in folder.iterdir() if (p / "__init__.py").exists()]
    if room == "widgets":
        names = [n for n in names if not (folder / n / "widget.py").exists()]
    if room == "kinds":
        defining = {_defining_module(k).rstrip("/") for k in KINDS}
        names = [n for n in names if n not in defining]
    return sorted(names)


@pytest.mark.parametrize("room", sorted(r for r in LAYERS if (PACKAGE / r).is_dir()))
def test_the_tree_names_every_module_of_each_layer(room: str) -> None:
    tree = _tree()
    assert room in tree, f"docs/architecture.md's tree has no entry for tbnb/{room}/"
    layer, text = tree[room]
    assert layer == LAYERS[room], f"tbnb/{room}/ is layer {LAYERS[room]}, the notes say {layer}"
    words = set(re.findall(r"[A-Za-z_]\w*", text))
    missing = [name for name in _named_in_room(room) if name not in words]
    assert missing == [], f"docs/architecture.md's entry for tbnb/{room}/ misses {missing}"


def test_the_tree_names_only_rooms_that_exist() -> None:
    assert set(_tree()) <= set(LAYERS)


def kinds_table() -> str:
    """The notes' table of kinds, from the registry (in its order)."""
    rows = ["| kind | type | defined in | frame comes from |", "|---|---|---|---|"]
    for key, kind in KINDS.items():
        where = kind.comes_from
        if hasattr(kind, "source"):
            where += f" (`{kind.source}`)"
        if hasattr(kind, "analysis"):
            where += f" (`{kind.analysis.builder}`)"
        if getattr(kind, "finish", None) is not None:
            where += f", then `{kind.finish.__name__}`"
        module = _defining_module(key)
        path = f"tbnb/kinds/{module}" if module.endswith("/") else f"tbnb/kinds/{module}.py"
        rows.append(f"| {key} | `{type(kind).__name__}` | `{path}` | {where} |")
    return "\n".join(rows) + "\n"


def analyses_table() -> str:
    """The notes' table of analyses, from the registry."""
    rows = ["| analysis | answered by | what it answers |", "|---|---|---|"]
    for key, analysis in ANALYSES.items():
        rows.append(f"| {key} | `{analysis.builder}` | {analysis.doc} |")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize("table", [kinds_table, analyses_table], ids=lambda f: f.__name__)
def test_the_tables_are_the_registrys(table: object) -> None:
    assert callable(table)
    text = table()
    assert text in DOC.read_text(encoding="utf-8"), (
        f"docs/architecture.md's table differs from the registry; it is now:\n\n{text}"
    )
