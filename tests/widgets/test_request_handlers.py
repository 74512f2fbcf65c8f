"""Every request a widget's front end sends has a handler in Python, and one without fails.

The front end asks its widget through one channel (``js/src/core/request.js``): a
request of type ``T`` is answered by ``_request_T``. A type with no handler used to go
unanswered, and the browser waited until its timeout (the projector's embedding picker
waited 300 s). The scan reads each widget's modules (its ``index.js`` and every module
it imports, transitively) for request types written as string literals and checks each
widget class of that key defines the handler; a type with no handler is answered at once
with an error.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

import tbnb
import tbnb.widgets
from tbnb.widgets.base import TbnbWidget

ROOT = Path(__file__).resolve().parents[2]
WIDGETS_JS = ROOT / "js" / "src" / "widgets"

IMPORT = re.compile(r"""\bfrom\s+["'](\.{1,2}/[^"']+)["']|\bimport\s+["'](\.{1,2}/[^"']+)["']""")
# view.request("type", ...), request(model, "type", ...), and wrappers that take the type
# first (the histograms' requests.send("series", ...)); model.send takes an object
REQUEST = re.compile(
    r"""\brequest\(\s*(?:[\w.$]+\s*,\s*)?["']([A-Za-z_]\w*)["']|\.send\(\s*["']([A-Za-z_]\w*)["']"""
)


def modules_of(entry: Path) -> set[Path]:
    """``entry`` and every module it imports by a relative path, transitively."""
    seen: set[Path] = set()
    todo = [entry.resolve()]
    while todo:
        path = todo.pop()
        if path in seen or not path.exists():
            continue
        seen.add(path)
        for match in IMPORT.finditer(path.read_text(encoding="utf-8")):
            target = (path.parent / (match.group(1) or match.group(2))).resolve()
            todo.append(target)
    return seen


def request_types(key: str) -> set[str]:
    """The request types the front end of widget ``key`` sends."""
    found: set[str] = set()
    for path in modules_of(WIDGETS_JS / key / "index.js"):
        for match in REQUEST.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    return found


def widget_classes() -> dict[str, list[type[TbnbWidget]]]:
    """Every widget class with a front end, by its key (its modules imported first)."""
    for info in pkgutil.walk_packages(tbnb.widgets.__path__, "tbnb.widgets."):
        importlib.import_module(info.name)
    out: dict[str, list[type[TbnbWidget]]] = {}
    todo = list(TbnbWidget.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        key = getattr(cls, "_widget_key", "")
        if key and cls.__module__.startswith("tbnb."):
            out.setdefault(key, []).append(cls)
    return out


def test_the_scan_finds_the_requests_it_should() -> None:
    # a scan that found nothing would pass the test below without checking anything
    assert {"run", "cancel", "neighbors", "embedding"} <= request_types("embeddings")
    assert {"series", "at_step", "preview"} <= request_types("histograms")
    assert "items" in request_types("images")  # through the shared media view


def test_every_request_a_front_end_sends_has_a_handler() -> None:
    classes = widget_classes()
    keys = sorted(p.name for p in WIDGETS_JS.iterdir() if (p / "index.js").exists())
    assert set(classes) <= set(keys), sorted(set(classes) - set(keys))
    missing = [
        f"{cls.__name__} ({key}): _request_{kind}"
        for key in keys
        for kind in sorted(request_types(key))
        for cls in classes.get(key, [])
        if not callable(getattr(cls, f"_request_{kind}", None))
    ]
    assert not missing, missing
    checked = sum(len(request_types(k)) for k in keys if k in classes)
    assert checked >= 12


def test_a_request_without_a_handler_fails_at_once_with_an_error() -> None:
    widget = tbnb.projector(np.eye(4, dtype=np.float32))
    reply = widget.answer({"type": "no_such_thing", "id": "7"})
    assert reply == {
        "type": "no_such_thing",
        "id": "7",
        "error": "ProjectorWidget cannot answer 'no_such_thing' requests",
    }
    assert widget.answer({"type": "not an identifier", "id": "8"})["error"]  # type: ignore[index]


@pytest.mark.parametrize("kind", ["<script>", "__class__", "_request_run"])
def test_odd_request_types_get_an_error_not_a_method(kind: str) -> None:
    widget = tbnb.projector(np.eye(4, dtype=np.float32))
    reply = widget.answer({"type": kind, "id": "1"})
    assert reply is not None
    assert "error" in reply
