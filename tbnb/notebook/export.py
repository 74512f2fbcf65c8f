"""Self-contained HTML export of a tbnb widget or dashboard.

The page renders offline, with no CDN and no kernel: it inlines the saved state
of every widget model (including binary buffers), each anywidget front-end module
(the ``_esm`` bundle, stored once however many widgets share it; a dashboard's widgets
all draw from the one bundle of :mod:`tbnb.widgets.bundle`, the kit once), and a small
widget-manager shim that instantiates each module from its state. The shim also
draws the few ipywidgets containers a dashboard is made of (boxes, tabs, HTML
and label widgets) and keeps ``ipywidgets.jslink``/``jsdlink`` links between the
exported models working (the dashboard's hparams selection drives its scalars).
Interactions that need no new data (smoothing, filters, toggles, zoom) work in
the page exactly as in the notebook.

``ipywidgets.embed`` is not used for the page: its default drops default-valued
traits (anywidget's ``_esm`` among them) and its template loads require.js,
the HTML manager and anywidget from CDNs, so it renders blank offline.

Size: state and buffers travel as one deflated block (:mod:`tbnb.notebook.page_data`:
each buffer byte-shuffled or delta-coded first, whichever compresses best), which
the page unpacks with the browser's own ``DecompressionStream``.

Safety: the block is base85 text (no ``<``, ``>`` or ``&``) inside ``<script
type="application/octet-stream">``, so no run name, tag or text can close the script
element; the shim only ever puts user data into the DOM as text; and a Content-
Security-Policy (nonce for the one inline script, no network sources at all) blocks
inline event handlers and any request the page might try.

Examples
--------
>>> import pathlib, tempfile, tbnb
>>> from tbnb.notebook.export import to_html
>>> w = tbnb.scalars(tbnb.samples.sample_logdir())
>>> page = to_html(w, pathlib.Path(tempfile.mkdtemp()) / "scalars.html")
>>> "connect-src &#x27;none&#x27;" in page.read_text()     # the page may fetch nothing
True
"""

from __future__ import annotations

import base64
import contextlib
import html
import os
import secrets
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ipywidgets import Widget
from ipywidgets.embed import dependency_state

from tbnb.notebook.page_data import pack, unpack
from tbnb.widgets.base import TbnbWidget, bundle_path
from tbnb.widgets.bundle import ONE_BUNDLE, bundle_text, view_key

__all__ = ["THEMES", "read_page", "render_html", "to_html"]

#: Prefix of a saved ``_esm`` replaced by an index into the page's modules (the shim,
#: ``js/src/export/index.js``, reads the same prefix).
_ESM_REF = "tbnb-esm:"
#: Prefix of a saved ``_esm`` replaced by the widget key of a view of the one bundle
#: (``tbnb/static/tbnb.js``, stored once as the module at the payload's ``bundle`` index).
_VIEW_REF = "tbnb-view:"


def _shim_js() -> str:
    """The page's widget manager: the bundle of ``js/src/export/`` (``tbnb/static/export.js``)."""
    text: str = bundle_path("export").read_text(encoding="utf-8")
    return text


#: ``theme=`` of an exported page: the light or dark colours, or the reader's (``auto``:
#: the browser's ``prefers-color-scheme``). Images and sprites are never recoloured.
THEMES = ("light", "dark", "auto")

_PAGE_CSS = """
html { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 16px; color: #222;
  background: #fff; }
html[data-tbnb-theme="dark"] { color-scheme: dark; }
html[data-tbnb-theme="dark"] body { color: #e0e0e0; background: #1e1e1e; }
@media (prefers-color-scheme: dark) {
  html[data-tbnb-theme="auto"] { color-scheme: dark; }
  html[data-tbnb-theme="auto"] body { color: #e0e0e0; background: #1e1e1e; }
}
.tbnb-export-vbox { display: flex; flex-direction: column; gap: 4px; }
.tbnb-export-hbox { display: flex; flex-direction: row; gap: 4px; }
.tbnb-export-tabbar { display: flex; border-bottom: 1px solid #8888; margin-bottom: 6px; }
.tbnb-export-tabbar button { border: 1px solid transparent; background: none; padding: 4px 12px;
  cursor: pointer; font: inherit; color: inherit; }
.tbnb-export-tabbar button[aria-selected="true"] { border-color: #8888 #8888 transparent;
  margin-bottom: -1px; font-weight: 600; }
"""


def _collect(widgets: Iterable[Widget], *, full_paths: bool = False) -> dict[str, Any]:
    views = list(widgets)
    if not views:
        raise ValueError("nothing to export: give at least one widget")
    for view in views:
        if not isinstance(view, Widget):
            raise TypeError(f"expected an ipywidgets/anywidget widget, got {type(view).__name__}")
        build_all = getattr(view, "build_all", None)  # a dashboard's tabs not opened yet
        if callable(build_all):
            build_all()
    _wait_ready(views, READY_TIMEOUT_S)
    # drop_defaults=False: anywidget's _esm is a default-valued trait.
    state = dependency_state(views, drop_defaults=False)
    renames: dict[str, str] = {}
    for view in views:  # a dashboard's logdirs, named by their last folder
        paths = getattr(view, "export_paths", None)
        if callable(paths):
            renames.update(paths(full_paths=full_paths))
    if renames:
        for spec in state.values():
            spec["state"] = _renamed(spec["state"], renames)
    modules: list[str] = []
    index: dict[str, int] = {}
    anywidgets = {}
    for model_id, spec in state.items():
        esm = spec.get("state", {}).get("_esm")
        if spec.get("model_module") != "anywidget" or not isinstance(esm, str):
            continue
        if esm.lstrip().startswith(("http://", "https://", "//")):
            raise ValueError(
                f"widget {model_id} loads its front end from {esm.strip()!r}; a self-contained "
                "page needs the module source (bundle it into the package)"
            )
        anywidgets[model_id] = esm
    keys = _one_bundle_views(anywidgets)
    bundle = None
    if keys:
        bundle = len(modules)
        modules.append(bundle_text(ONE_BUNDLE))
    for model_id, esm in anywidgets.items():
        model_state = state[model_id]["state"]
        if model_id in keys:
            model_state["_esm"] = f"{_VIEW_REF}{keys[model_id]}"
            continue
        if esm not in index:
            index[esm] = len(modules)
            modules.append(esm)
        model_state["_esm"] = f"{_ESM_REF}{index[esm]}"
    views_ = [v.model_id for v in views]
    return {"state": state, "modules": modules, "bundle": bundle, "views": views_}


def _renamed(value: Any, renames: dict[str, str]) -> Any:
    """``value`` with every string's occurrences of each key of ``renames`` replaced by
    its value (longest first), through lists, tuples and dicts; buffers are left as
    they are."""
    if isinstance(value, str):
        for old in sorted(renames, key=len, reverse=True):
            if old in value:
                value = value.replace(old, renames[old])
        return value
    if isinstance(value, dict):
        return {key: _renamed(item, renames) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_renamed(item, renames) for item in value)
    return value


#: Seconds an export waits, in all, for what widgets compute in the background (the
#: hparams view's importance); a widget not ready by then says so in the page.
READY_TIMEOUT_S = 60.0


def _wait_ready(views: list[Widget], timeout: float) -> None:
    """Wait (``timeout`` seconds in all) for every tbnb widget reachable from ``views``
    (through widget-valued traits: a dashboard's pages) to finish its background work."""
    deadline = time.monotonic() + timeout
    seen: set[int] = set()
    todo = list(views)
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        if isinstance(widget, TbnbWidget):
            widget.wait_ready(max(0.0, deadline - time.monotonic()))
        for name in widget.keys:
            value = getattr(widget, name, None)
            if isinstance(value, dict):
                value = list(value.values())
            if isinstance(value, (list, tuple)):
                todo.extend(v for v in value if isinstance(v, Widget))
            elif isinstance(value, Widget):
                todo.append(value)


def _one_bundle_views(anywidgets: dict[str, str]) -> dict[str, str]:
    """The widgets the page shows from the one bundle (model id -> widget key).

    A dashboard's widgets (stubs) always; widgets with their own bundles when their
    distinct bundles, each with its own copy of the kit, weigh more than the one bundle.
    """
    keys: dict[str, str] = {}
    own: set[str] = set()  # the distinct widget bundles
    stubs = False
    for model_id, esm in anywidgets.items():
        key = view_key(esm)
        if key is None:
            continue
        keys[model_id] = key
        if esm == bundle_text(key):
            own.add(esm)
        else:
            stubs = True
    if stubs or sum(map(len, own)) > len(bundle_text(ONE_BUNDLE)):
        return keys
    return {}


def _split_buffers(payload: dict[str, Any]) -> list[bytes]:
    """Take the (base64) buffers out of the saved state: each becomes ``{path, index}``."""
    buffers: list[bytes] = []
    for spec in payload["state"].values():
        refs = []
        for buffer in spec.get("buffers", []):
            refs.append({"path": buffer["path"], "index": len(buffers)})
            buffers.append(base64.b64decode(buffer["data"]))
        if refs:
            spec["buffers"] = refs
    return buffers


def read_page(page: str) -> dict[str, Any]:
    """What an exported page holds: ``{state, modules, views}``, buffers as bytes.

    Each model's ``buffers`` are ``[{"path": [...], "data": b"..."}]``, as
    ``ipywidgets.embed`` gives them but unencoded.

    Examples
    --------
    >>> import ipywidgets
    >>> page = render_html(ipywidgets.HTML("hello"))
    >>> [s["state"]["value"] for s in read_page(page)["state"].values()
    ...  if s["model_name"] == "HTMLModel"]
    ['hello']
    """
    start = page.index('id="tbnb-export-data">') + len('id="tbnb-export-data">')
    payload, buffers = unpack(page[start : page.index("</script>", start)])
    for spec in payload["state"].values():
        for ref in spec.get("buffers", []):
            ref["data"] = buffers[ref.pop("index")]
    return payload


def render_html(
    widget: Widget | Iterable[Widget],
    *,
    title: str = "tbnb",
    theme: str = "auto",
    full_paths: bool = False,
) -> str:
    """Return a self-contained HTML page showing ``widget`` (or several widgets).

    Parameters
    ----------
    widget : ipywidgets.Widget or iterable of them
        A tbnb widget, a :class:`tbnb.Dashboard`, or any anywidget / box of them.
    title : str
        The page title (escaped).
    theme : {"auto", "light", "dark"}
        The page's colours: light, dark, or the reader's browser setting (``auto``).
    full_paths : bool
        Show a dashboard's logdirs as full paths (default: each by its last folder, so
        a shared page shows no home directory).

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> import ipywidgets
    >>> from tbnb.notebook.export import render_html
    >>> page = render_html(ipywidgets.HTML("<b>hello</b>"), title="demo")
    >>> page.startswith("<!DOCTYPE html>") and "cdn" not in page.lower()
    True
    """
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, got {theme!r}")
    widgets = [widget] if isinstance(widget, Widget) else list(widget)
    payload = _collect(widgets, full_paths=full_paths)
    data = pack(payload, _split_buffers(payload))
    nonce = secrets.token_urlsafe(18)
    csp = (
        "default-src 'none'; "
        f"script-src 'nonce-{nonce}' blob:; "
        "style-src 'unsafe-inline'; "
        "img-src data: blob:; media-src blob:; font-src data:; connect-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en" data-tbnb-theme="{theme}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(csp)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{_PAGE_CSS}</style>\n"
        "</head>\n<body>\n"
        '<div id="tbnb-export-root"></div>\n'
        f'<script type="application/octet-stream" id="tbnb-export-data">{data}</script>\n'
        f'<script type="module" nonce="{nonce}">{_shim_js()}</script>\n'
        "</body>\n</html>\n"
    )


def to_html(
    widget: Widget | Iterable[Widget],
    path: str | os.PathLike[str],
    *,
    title: str = "tbnb",
    overwrite: bool = False,
    theme: str = "auto",
    full_paths: bool = False,
) -> Path:
    """Write a self-contained HTML page showing ``widget`` to ``path``.

    The page needs no internet, server or kernel; interactions that need no new
    data keep working. See the module docstring for what is inlined and how user
    data is kept from injecting script.

    Parameters
    ----------
    widget : ipywidgets.Widget or iterable of them
        A tbnb widget (``tbnb.scalars(...)``), a :class:`tbnb.Dashboard`, or several.
    path : str or path-like
        The ``.html`` file to write (UTF-8).
    title : str
        The page title.
    overwrite : bool
        Replace an existing file at ``path`` (default: refuse): the page is written
        to a new file renamed over it, so a hard link to the old file keeps its bytes.
    theme : {"auto", "light", "dark"}
        The page's colours (``auto``: the reader's browser setting).
    full_paths : bool
        Show a dashboard's logdirs as full paths (default: each by its last folder).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is false, or ``path`` is a symbolic link
        (never followed, whatever ``overwrite`` says: the page is written where asked,
        not wherever a link points).

    Examples
    --------
    >>> import pathlib, tempfile, tbnb
    >>> dash = tbnb.Dashboard(tbnb.samples.sample_logdir())
    >>> page = to_html(dash, pathlib.Path(tempfile.mkdtemp()) / "runs.html")
    >>> page.name
    'runs.html'
    >>> try:
    ...     to_html(dash, page)
    ... except FileExistsError as err:
    ...     print("refused:", "overwrite=True" in str(err))
    refused: True
    """
    out = Path(path)
    data = render_html(widget, title=title, theme=theme, full_paths=full_paths).encode("utf-8")
    if out.is_symlink():
        raise FileExistsError(f"{out} is a symbolic link; tbnb writes pages only to real files")
    if overwrite:
        _replace(out, data)
        return out
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(out, flags | getattr(os, "O_BINARY", 0), 0o644)
    except FileExistsError:
        if out.is_symlink():  # made between the check and the open
            raise FileExistsError(
                f"{out} is a symbolic link; tbnb writes pages only to real files"
            ) from None
        raise FileExistsError(f"{out} exists; pass overwrite=True to replace it") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return out


def _replace(out: Path, data: bytes) -> None:
    """Write ``data`` to a new file beside ``out`` and rename it over ``out``: another
    name of the old file (a hard link) keeps the old bytes, a reader never sees half a
    page, and a link put at ``out`` meanwhile is replaced, not followed."""
    fd, temporary = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            os.fchmod(handle.fileno(), 0o644 & ~_umask())
        os.replace(temporary, out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    """The process's umask (files are created ``0o644`` less it, as ``open`` does)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
