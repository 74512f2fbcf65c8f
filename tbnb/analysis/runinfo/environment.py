"""Text summaries that look like environment dumps, read as key/value pairs.

Training scripts often log their environment as text: ``torch.__config__.show()``,
``pip freeze``, ``nvidia-smi``, a table of versions, the git commit, the host.
:func:`looks_like_environment` recognises them (a tag that says so, or several
``key: value`` lines naming versions, devices or commits) and :func:`text_pairs`
reads ``key: value``, ``key = value``, ``package==version`` and Markdown table rows.

Examples
--------
>>> text = "python: 3.11.4\\ntorch==2.3.0\\n| cuda | 12.1 |\\n**git**: 1a2b3c"
>>> text_pairs(text)
{'python': '3.11.4', 'torch': '2.3.0', 'cuda': '12.1', 'git': '1a2b3c'}
>>> looks_like_environment("setup", text), looks_like_environment("notes", "it ran well")
(True, False)
"""

from __future__ import annotations

import re

__all__ = ["looks_like_environment", "text_pairs"]

_ENV_TAG = re.compile(
    r"(?i)(^|[/_\-. ])(env|environment|system|sys_?info|platform|versions?|packages|pip|"
    r"conda|requirements|git|cuda|gpus?|hardware|host|machine|nvidia(-smi)?|python)"
    r"([/_\-. ]|$)"
)
_ENV_WORDS = re.compile(
    r"(?i)\b(python|torch|pytorch|cuda|cudnn|numpy|tensorflow|jax|lightning|platform|os|"
    r"gpu|cpu|git|commit|branch|hostname|host|nvidia|driver|conda|pip|version)\b"
)
_PAIR = re.compile(
    r"^\s*(?:[-*+]\s+)?\|?\s*(?P<key>[A-Za-z_][\w .\-/()\[\]]{0,80}?)\s*\**\s*"
    r"(?:==|:|=|\|)\s*\**\s*(?P<value>[^|]*?)\s*\|?\s*$"
)
_MIN_PAIRS = 3


def _clean_key(key: str) -> str:
    return key.strip().strip("*_`").strip()


def text_pairs(text: str) -> dict[str, str]:
    """``key -> value`` of every line that reads as a pair (the first of a key wins)."""
    out: dict[str, str] = {}
    for line in str(text).splitlines():
        match = _PAIR.match(line.replace("**", ""))
        if match is None:
            continue
        key, value = _clean_key(match["key"]), match["value"].strip().strip("`")
        if key and value and not set(value) <= set("-:| ") and key not in out:
            out[key] = value
    return out


def looks_like_environment(tag: str, text: str) -> bool:
    """Whether a text summary looks like an environment dump (see the module docstring)."""
    if _ENV_TAG.search(tag):
        return bool(str(text).strip())
    pairs = text_pairs(text)
    if len(pairs) < _MIN_PAIRS:
        return False
    words = {m.group(1).lower() for key in pairs for m in _ENV_WORDS.finditer(key)}
    return len(words) >= 2
