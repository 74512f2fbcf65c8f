"""The one bundle: a dashboard ships tbnb's front end once, however many widgets it shows.

``js/build.mjs`` writes, besides each widget's own bundle ``tbnb/static/<key>.js`` (the
``_esm`` of a widget shown on its own, self-contained, so it draws in any front end that
runs anywidgets), ``tbnb/static/tbnb.js``: the kit once and every widget's view in a table
by key. A widget built inside :func:`shared_front_end` (the dashboard builds its selection
bar and its tabs there) gets ``stub.js`` as its ``_esm`` instead, a few hundred bytes that
take the view from that table; the table comes from one :class:`FrontEnd` model per kernel
(a plain widget model whose ``source`` is ``tbnb.js``), imported once per page. A saved
notebook or exported page holds the kit once, not once per widget.

Examples
--------
>>> from tbnb.widgets.bundle import shared_front_end, esm_for, view_key
>>> esm_for("scalars") is None        # outside a dashboard: the widget's own bundle
True
>>> with shared_front_end():
...     stub = esm_for("scalars")
>>> len(stub) < 2_000, view_key(stub)
(True, 'scalars')
"""

from __future__ import annotations

import contextvars
import functools
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

import ipywidgets
import traitlets as t

__all__ = [
    "FrontEnd",
    "build_id",
    "bundle_text",
    "esm_for",
    "front_end",
    "shared_front_end",
    "view_key",
]

#: The one bundle's name in ``tbnb/static`` (``<name>.js``).
ONE_BUNDLE = "tbnb"
#: Where the stub's configuration goes (``js/src/bundle/stub.js``: ``JSON.parse(...)``).
_PLACEHOLDER = '"__TBNB_STUB_CONFIG__"'

_carrier: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "tbnb_front_end", default=None
)
_shared: FrontEnd | None = None


def bundle_text(name: str) -> str:
    """The text of ``tbnb/static/<name>.js``.

    Examples
    --------
    >>> "export" in bundle_text("scalars")
    True
    """
    return _read(name)


@functools.cache
def _read(name: str) -> str:
    return (resources.files("tbnb") / "static" / f"{name}.js").read_text(encoding="utf-8")


@functools.cache
def widget_keys() -> tuple[str, ...]:
    """The widget keys the build found (``tbnb/static/bundles.json``)."""
    manifest = (resources.files("tbnb") / "static" / "bundles.json").read_text(encoding="utf-8")
    return tuple(json.loads(manifest)["widgets"])


@functools.cache
def build_id() -> str:
    """The one bundle's identity: a page never mixes views of two builds.

    Examples
    --------
    >>> len(build_id())
    16
    """
    return hashlib.sha256(bundle_text(ONE_BUNDLE).encode("utf-8")).hexdigest()[:16]


class FrontEnd(ipywidgets.Widget):
    """A model with no view that carries the one bundle (``source``) to the browser."""

    source = t.Unicode("").tag(sync=True)


def front_end() -> FrontEnd:
    """The kernel's one :class:`FrontEnd` (made again if it was closed)."""
    global _shared  # noqa: PLW0603 - one carrier per kernel, made on first use
    if _shared is None or _shared.comm is None:
        _shared = FrontEnd(source=bundle_text(ONE_BUNDLE))
    return _shared


@contextmanager
def shared_front_end() -> Iterator[FrontEnd]:
    """Widgets made inside take their view from the kernel's :class:`FrontEnd`."""
    carrier = front_end()
    token = _carrier.set(carrier.model_id)
    try:
        yield carrier
    finally:
        _carrier.reset(token)


def stub_esm(key: str, carrier: str) -> str:
    """The ``_esm`` of widget ``key`` whose views ``carrier`` (a model id) holds."""
    config = json.dumps({"key": key, "carrier": carrier, "build": build_id()})
    return bundle_text("stub").replace(_PLACEHOLDER, json.dumps(config), 1)


def esm_for(key: str) -> str | None:
    """The stub for ``key`` inside :func:`shared_front_end`; None outside it."""
    carrier = _carrier.get()
    return None if carrier is None else stub_esm(key, carrier)


def view_key(esm: str) -> str | None:
    """The widget key ``esm`` shows, if it is tbnb's (a stub or a widget's bundle).

    Examples
    --------
    >>> view_key(bundle_text("hparams")), view_key("export default {}")
    ('hparams', None)
    """
    stub_head, _, stub_tail = bundle_text("stub").partition(_PLACEHOLDER)
    if esm.startswith(stub_head) and esm.endswith(stub_tail):
        literal = esm[len(stub_head) : len(esm) - len(stub_tail)]
        try:
            key = json.loads(json.loads(literal))["key"]
        except (ValueError, TypeError, KeyError):
            return None
        return key if key in widget_keys() else None
    for key in widget_keys():
        if len(esm) == len(bundle_text(key)) and esm == bundle_text(key):
            return key
    return None
