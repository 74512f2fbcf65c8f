"""Text from logs, made safe for where it goes: spreadsheets and screens.

Two rules, each written once here for Python and once in the browser's kit
(``js/src/core/csv.js`` and ``js/src/core/dom.js``), with the same character classes;
``tests/io/test_safe_text.py`` runs both on the same hostile strings.

- **CSV cells.** A spreadsheet runs a cell as a formula when, after the blanks and
  invisible characters it skips, it starts with ``=``, ``+``, ``-`` or ``@`` (or
  their fullwidth and small forms, ``\\uff1d`` among them), and treats a cell starting with
  a tab, carriage return or line feed as one too. Such a text cell gets a leading
  apostrophe, which spreadsheets show as text (:func:`neutralise_cell`,
  :func:`to_csv`). Numbers stay numbers: only strings are data from logs.
- **Names on screen.** Bidirectional controls (a right-to-left override makes
  ``evil\\u202egnp.exe`` read ``evilexe.png``), invisible characters (zero-width
  space, word joiner, Hangul fillers, tag characters) and control characters let one
  name pass for another. :func:`visible_controls` shows each as ``<U+XXXX>``. Zero-
  width joiners and non-joiners are left as they are: Persian, Indic scripts and
  emoji need them.

Examples
--------
>>> neutralise_cell(" =HYPERLINK(1)"), neutralise_cell("\\uff1d1+1"), neutralise_cell("a=b")
("' =HYPERLINK(1)", "'\\uff1d1+1", 'a=b')
>>> visible_controls("evil\\u202egnp.exe")
'evil<U+202E>gnp.exe'
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

__all__ = ["neutralise_cell", "neutralise_frame", "to_csv", "visible_controls"]

SKIPPED = (
    "\x00-\x20\x7f-\xa0\xad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f"
    "\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
"""Characters a spreadsheet may skip before a formula: blanks, controls, invisibles."""

FORMULA = "=+\\-@\uff1d\uff0b\uff0d\uff20\ufe66\ufe62\ufe63\ufe6b"
"""Characters that start a formula: ``= + - @``, fullwidth and small forms."""

_FORMULA_START = re.compile(f"^(?:[\t\r\n]|[{SKIPPED}]*[{FORMULA}])")

CONTROLS = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5"
    "\u180b-\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0"
    "\ufff9-\ufffb\U000e0000-\U000e007f"
)
"""Characters :func:`visible_controls` shows as ``<U+XXXX>``: bidi controls, invisible
characters and control characters (tab, line feed and carriage return excepted)."""

_CONTROL = re.compile(f"[{CONTROLS}]")


def neutralise_cell(text: str) -> str:
    """``text`` with a leading apostrophe when a spreadsheet would read it as a formula.

    Examples
    --------
    >>> [neutralise_cell(t) for t in ("=1+1", "\\n=1", "\\u200b@SUM(A1)", "-0.5", "lr=0.1")]
    ["'=1+1", "'\\n=1", "'\\u200b@SUM(A1)", "'-0.5", 'lr=0.1']
    """
    return f"'{text}" if _FORMULA_START.match(text) else text


def visible_controls(text: str) -> str:
    """``text`` with each bidi, invisible or control character shown as ``<U+XXXX>``.

    Examples
    --------
    >>> visible_controls("run\\u2066a\\u2069"), visible_controls("plain/loss")
    ('run<U+2066>a<U+2069>', 'plain/loss')
    """
    return _CONTROL.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _neutralised(values: pd.Series | pd.Index) -> Any:
    """A column or index with its text cells neutralised (other cells as they were)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        categories = values.cat.categories if isinstance(values, pd.Series) else values.categories
        renamed = [neutralise_cell(c) if isinstance(c, str) else c for c in categories]
        if len(set(renamed)) == len(renamed):
            if isinstance(values, pd.Series):
                return values.cat.rename_categories(renamed)
            return values.rename_categories(renamed)
        values = values.astype(object)
    if values.dtype != object and not pd.api.types.is_string_dtype(values.dtype):
        return values
    return values.map(lambda v: neutralise_cell(v) if isinstance(v, str) else v)


def neutralise_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index labels are
    neutralised (:func:`neutralise_cell`); numbers, times and objects untouched.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": ["=cmd|' /C calc'!A0", "base"], "value": [-1.0, 2.0]})
    >>> neutralise_frame(frame).to_dict("list")
    {'run': ["'=cmd|' /C calc'!A0", 'base'], 'value': [-1.0, 2.0]}
    """
    out = frame.copy()
    for i in range(out.shape[1]):
        out.isetitem(i, _neutralised(out.iloc[:, i]))
    if isinstance(out.columns, pd.MultiIndex):
        out.columns = pd.MultiIndex.from_tuples(
            [tuple(_cell(v) for v in key) for key in out.columns], names=out.columns.names
        )
    else:
        out.columns = pd.Index([_cell(c) for c in out.columns], name=out.columns.name)
    if isinstance(out.index, pd.MultiIndex):
        out.index = pd.MultiIndex.from_arrays(
            [_neutralised(out.index.get_level_values(k)) for k in range(out.index.nlevels)],
            names=out.index.names,
        )
    else:
        out.index = _neutralised(out.index)
    out.index.names = [_cell(name) for name in out.index.names]
    out.columns.names = [_cell(name) for name in out.columns.names]
    return out


def _cell(value: Any) -> Any:
    return neutralise_cell(value) if isinstance(value, str) else value


def to_csv(frame: pd.DataFrame, path_or_buf: Any = None, **kwargs: Any) -> str | None:
    """``frame.to_csv(...)`` with every text cell a spreadsheet would run neutralised.

    Run names, tags, hparams and text come from logs; a shared logdir can hold a run
    named ``=HYPERLINK(...)``. Arguments are :meth:`pandas.DataFrame.to_csv`'s.

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_csv(pd.DataFrame({"tag": ["+evil", "loss"], "value": [-0.5, 1.0]}), index=False))
    tag,value
    '+evil,-0.5
    loss,1.0
    <BLANKLINE>
    """
    result: str | None = neutralise_frame(frame).to_csv(path_or_buf, **kwargs)
    return result
