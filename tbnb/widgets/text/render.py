"""Text summaries as TensorBoard shows them: markdown through an allow-list sanitiser.

TensorBoard renders a text summary with Python-Markdown (tables and fenced code) and
cleans the HTML with an allow-list; tbnb does the same, with its own allow-list
sanitiser (:func:`sanitize`): tags outside the list are **shown as text**, exactly as
logged (``<script>`` reads ``<script>``, as in TensorBoard), attributes outside the list
are dropped, links keep only ``http``, ``https`` and ``mailto`` URLs, and images become
their alt text and source (nothing is fetched). The browser rebuilds the result element by element
through its own allow-list (``safeMarkdown`` in ``js/src/core/safe-html.js``) before it
reaches the page. A 1-D or 2-D string tensor is a table of rendered cells, as in
TensorBoard; a higher rank shows its first 2-D slice with a warning.

Examples
--------
>>> markdown_html("**bold** <script>alert(1)</script> [x](javascript:alert(1))")
'<p><strong>bold</strong> &lt;script&gt;alert(1)&lt;/script&gt; <a>x</a></p>'
"""

from __future__ import annotations

import html
import threading
from html.parser import HTMLParser
from typing import Any

import numpy as np

__all__ = ["ALLOWED_TAGS", "markdown_html", "render_text", "sanitize", "table_html"]

ALLOWED_TAGS = frozenset(
    {
        "ul",
        "ol",
        "li",
        "p",
        "pre",
        "code",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "br",
        "strong",
        "em",
        "a",
        "table",
        "thead",
        "tbody",
        "td",
        "tr",
        "th",
    }
)
"""TensorBoard's allow-list (``tensorboard/plugin_util.py``) without ``img``."""

_VOID = frozenset({"br", "hr"})
_SCHEMES = ("http:", "https:", "mailto:")
_WARNING = (
    "**Warning:** this text summary holds a tensor of rank {rank}; only 2-D tables "
    "are shown, so this is its first 2-D slice."
)


class _Markdown(threading.local):
    """One Python-Markdown converter per thread (building one is slow), as TensorBoard does."""

    def __init__(self) -> None:
        import markdown

        self.converter = markdown.Markdown(
            extensions=["markdown.extensions.tables", "markdown.extensions.fenced_code"]
        )


_MARKDOWN: _Markdown | None = None


def _converter() -> Any:
    global _MARKDOWN  # noqa: PLW0603 - built on first use: importing markdown costs time
    if _MARKDOWN is None:
        _MARKDOWN = _Markdown()
    return _MARKDOWN.converter


class _Sanitizer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool) -> None:
        if tag == "img":  # nothing is fetched: the image reads as its alt text and source
            found = dict(attrs)
            alt, src = found.get("alt") or "", (found.get("src") or "").strip()
            label = f"[image: {alt}" if alt else "[image"
            label += f" ({src})]" if src else "]"
            self.out.append(html.escape(label, quote=False))
            return
        if tag not in ALLOWED_TAGS:
            self.out.append(html.escape(self.get_starttag_text() or f"<{tag}>", quote=False))
            return
        kept = []
        for name, given in attrs:
            value = given or ""
            if tag == "a" and name == "title":
                kept.append(f' title="{html.escape(value)}"')
            elif tag == "a" and name == "href" and value.strip().lower().startswith(_SCHEMES):
                kept.append(f' href="{html.escape(value.strip())}"')
            elif tag == "code" and name == "class" and value.startswith("language-"):
                kept.append(f' class="{html.escape(value)}"')
        self.out.append(f"<{tag}{''.join(kept)}>")
        if tag not in _VOID and not closed:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ALLOWED_TAGS and tag in self.open:
            while self.open:
                top = self.open.pop()
                self.out.append(f"</{top}>")
                if top == tag:
                    break
        elif tag not in _VOID:
            self.out.append(html.escape(f"</{tag}>", quote=False))

    def handle_data(self, data: str) -> None:
        self.out.append(html.escape(data, quote=False))

    def handle_comment(self, data: str) -> None:  # comments are dropped, as by TensorBoard
        return

    def unknown_decl(self, data: str) -> None:
        self.out.append(html.escape(f"<![{data}]>", quote=False))

    def handle_decl(self, decl: str) -> None:
        self.out.append(html.escape(f"<!{decl}>", quote=False))

    def handle_pi(self, data: str) -> None:
        self.out.append(html.escape(f"<?{data}>", quote=False))

    def result(self) -> str:
        self.close()
        self.out.extend(f"</{tag}>" for tag in reversed(self.open))
        self.open.clear()
        return "".join(self.out)


def sanitize(unsafe: str) -> str:
    """HTML with only allow-listed tags and attributes; any other tag shown as its text.

    Examples
    --------
    >>> sanitize('<p onclick="x()">hi<img src=x onerror=y alt=cat></p><iframe src=z>')
    '<p>hi[image: cat (x)]</p>&lt;iframe src=z&gt;'
    """
    parser = _Sanitizer()
    parser.feed(unsafe)
    return parser.result()


def markdown_html(text: str) -> str:
    """Markdown -> sanitised HTML (Python-Markdown with tables and fenced code).

    Null bytes are dropped, as TensorBoard drops them.
    """
    converter = _converter()
    return sanitize(converter.reset().convert(text.replace("\x00", "")))


def table_html(cells: np.ndarray) -> str:
    """A 1-D (one column) or 2-D array of markdown strings as a sanitised HTML table.

    Examples
    --------
    >>> import numpy as np
    >>> table_html(np.array([["*a*", "b"]], dtype=object))
    '<table><tbody><tr><td><p><em>a</em></p></td><td><p>b</p></td></tr></tbody></table>'
    """
    grid = cells.reshape(-1, 1) if cells.ndim == 1 else cells
    rows = "".join(
        "<tr>" + "".join(f"<td>{markdown_html(str(c))}</td>" for c in row) + "</tr>" for row in grid
    )
    return f"<table><tbody>{rows}</tbody></table>"


def render_text(value: Any, *, markdown: bool = True) -> dict[str, Any]:
    """What the browser shows for one text value: ``kind`` (``"markdown"`` or ``"table"``),
    ``html`` (None without markdown), the raw ``text``, and for tables ``shape``, ``cells``
    (row-major, raw) and a ``warning`` when a rank above 2 was sliced.

    Examples
    --------
    >>> import numpy as np
    >>> out = render_text(np.array([["a", "b"], ["c", "d"]], dtype=object))
    >>> out["kind"], out["shape"], out["cells"]
    ('table', [2, 2], ['a', 'b', 'c', 'd'])
    """
    if not isinstance(value, np.ndarray):
        text = "" if value is None else str(value)
        return {"kind": "markdown", "text": text, "html": markdown_html(text) if markdown else None}
    array = value
    warning = ""
    if array.ndim > 2:
        warning = markdown_html(_WARNING.format(rank=array.ndim))
        array = array[(0,) * (array.ndim - 2)]
    grid = array.reshape(-1, 1) if array.ndim <= 1 else array
    cells = [str(c) for c in grid.reshape(-1)]
    text = "\n".join("\t".join(str(c) for c in row) for row in grid)
    return {
        "kind": "table",
        "text": text,
        "shape": [int(s) for s in grid.shape],
        "cells": cells,
        "warning": warning,
        "html": table_html(grid) if markdown else None,
    }
