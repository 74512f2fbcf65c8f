"""Markdown as TensorBoard renders it, through tbnb's allow-list sanitiser (Python side).

The browser rebuilds the result through its own allow-list too (tests/ui/test_media_ui.py
checks hostile text inert in JupyterLab and in the exported page).
"""

from __future__ import annotations

from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.widgets.text.prepare import LONG_CHARS, text_payload
from tbnb.widgets.text.render import ALLOWED_TAGS, markdown_html, render_text, sanitize

HOSTILE = [
    '<img src=x onerror="window.__pwned=1">',
    '"><script>window.__pwned=1</script>',
    "<a href='javascript:window.__pwned=1'>click</a>",
    "<svg onload=window.__pwned=1>",
    "<iframe src='https://example.org'></iframe>",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "<a href=' JaVaScRiPt:alert(1)'>y</a>",
    '<a href="&#106;avascript:alert(1)">z</a>',
    '<p style="background:url(javascript:alert(1))" onclick="x()">p</p>',
    "<object data=x></object><embed src=x><form action=x><input autofocus onfocus=x>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<!--<img src=x onerror=alert(1)>-->",
    "<details open ontoggle=alert(1)>",
]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))

    handle_startendtag = handle_starttag


def _elements(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser.found


def _assert_inert(html: str) -> None:
    for tag, attrs in _elements(html):
        assert tag in ALLOWED_TAGS, (tag, html)
        for name, value in attrs:
            assert name in ("href", "title", "class"), (tag, name, html)
            if name == "href":
                assert (value or "").lower().startswith(("http:", "https:", "mailto:")), html


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_comes_out_inert_and_readable(text: str) -> None:
    html = markdown_html(text)
    _assert_inert(html)
    assert "onerror" not in "".join(str(a) for _, attrs in _elements(html) for a in attrs)


def test_tags_outside_the_list_read_as_logged() -> None:
    assert markdown_html('"><script>alert(1)</script>') == (
        '<p>"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>'
    )
    assert sanitize("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"


def test_markdown_features() -> None:
    html = markdown_html(
        "# T\n\n*e* **s** `c`\n\n```py\nx = '<b>'\n```\n\n| a |\n|---|\n| 1 |\n\n"
        "> q\n\n1. one\n\n[l](https://x.org)\n\n![alt](https://x.org/a.png)"
    )
    for piece in (
        "<h1>T</h1>",
        "<em>e</em>",
        "<strong>s</strong>",
        "<code>c</code>",
        "<pre><code class=\"language-py\">x = '&lt;b&gt;'",
        "<table>",
        "<blockquote>",
        "<ol>",
        '<a href="https://x.org">l</a>',
        "[image: alt (https://x.org/a.png)]",
    ):
        assert piece in html, piece
    _assert_inert(html)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("<>/=\"' abcdehilmnoprstvx:&#;\n*`[]()!-|")), max_size=80)
)
def test_any_text_sanitises_to_allow_listed_markup(text: str) -> None:
    _assert_inert(markdown_html(text))
    _assert_inert(sanitize(text))


def test_tables_and_higher_ranks_as_tensorboard_shows_them() -> None:
    table = render_text(np.array(["**a**", "b"], dtype=object))
    assert table["shape"] == [2, 1]
    assert table["cells"] == ["**a**", "b"]
    assert "<strong>a</strong>" in table["html"]
    cube = render_text(np.array([[["x", "y"]], [["z", "w"]]], dtype=object))
    assert cube["shape"] == [1, 2]
    assert cube["cells"] == ["x", "y"]
    assert "rank 3" in cube["warning"]
    raw = render_text("**hi**", markdown=False)
    assert raw["html"] is None
    assert raw["text"] == "**hi**"


def test_long_texts_open_raw_and_render_on_request() -> None:
    import pandas as pd

    long = "word " * (LONG_CHARS // 4)
    payload = text_payload(pd.Series({"text": long}))
    assert payload["long"]
    assert payload["html"] is None
    assert payload["chars"] == len(long)
    assert text_payload(pd.Series({"text": long}), force_markdown=True)["html"].startswith("<p>")


def test_null_bytes_are_dropped_as_tensorboard_drops_them() -> None:
    assert markdown_html("a\x00b") == "<p>ab</p>"
