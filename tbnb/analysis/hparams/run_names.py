"""Hyperparameters read from run names (opt-in): ``lr=0.001,bs=32`` and the like.

Examples
--------
>>> parse_run_name("lr=0.001,bs=32")
({'lr': 0.001, 'bs': 32}, [])
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["parse_run_name"]

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


_INT = re.compile(r"[+-]?\d+")


_HARD_SEPARATORS = ",;& "


_SOFT_SEPARATORS = "_-"


def _typed(text: str) -> Any:
    """A run-name value as bool, int, float or str."""
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    if _INT.fullmatch(text):
        return int(text)
    if _NUMBER.fullmatch(text):
        return float(text)
    return text


def _is_typed(text: str) -> bool:
    return text.lower() in ("true", "false") or bool(_NUMBER.fullmatch(text))


def _split_value_key(mid: str) -> tuple[str, str] | None:
    """Split ``"<value><sep><next key>"``; None when ambiguous."""
    hard = [i for i, ch in enumerate(mid) if ch in _HARD_SEPARATORS]
    if hard:  # value up to the first hard separator, key after the last one
        return mid[: hard[0]], mid[hard[-1] + 1 :]
    soft = [
        j
        for j, ch in enumerate(mid)
        if ch in _SOFT_SEPARATORS and 0 < j < len(mid) - 1 and mid[j + 1].isalpha()
    ]
    typed = [j for j in soft if _is_typed(mid[:j])]
    if typed:
        j = typed[-1]
        return mid[:j], mid[j + 1 :]
    if len(soft) == 1:
        j = soft[0]
        return mid[:j], mid[j + 1 :]
    return None


def parse_run_name(name: str) -> tuple[dict[str, Any], list[str]]:
    """``key=value`` pairs in a run name, and notes about what could not be split.

    Pairs are separated by ``,``, ``;``, ``&`` or a space, or by ``_`` / ``-`` where that
    is unambiguous (the value before it is a number or boolean, or there is only one
    such separator before the next ``=``). Each path component is parsed; a later
    component wins. Values become bool, int, float or str.

    Examples
    --------
    >>> parse_run_name("lr=0.001,bs=32")
    ({'lr': 0.001, 'bs': 32}, [])
    >>> parse_run_name("sweep/lr=1e-3_batch_size=64-opt=adam")[0]
    {'lr': 0.001, 'batch_size': 64, 'opt': 'adam'}
    >>> parse_run_name("opt=adam_w_lr=0.1")
    ({}, ["run name component 'opt=adam_w_lr=0.1': cannot split 'adam_w_lr'"])
    """
    out: dict[str, Any] = {}
    notes: list[str] = []
    for component in name.split("/"):
        if "=" not in component:
            continue
        parts = component.split("=")
        key = parts[0]
        cut = max((key.rfind(sep) for sep in _HARD_SEPARATORS), default=-1)
        key = key[cut + 1 :]
        found: dict[str, Any] = {}
        for i, mid in enumerate(parts[1:], start=1):
            if not key:
                notes.append(f"run name component {component!r}: empty key")
                break
            if i == len(parts) - 1:
                hard = [j for j, ch in enumerate(mid) if ch in _HARD_SEPARATORS]
                found[key] = _typed(mid[: hard[0]] if hard else mid)
                break
            split = _split_value_key(mid)
            if split is None:
                notes.append(f"run name component {component!r}: cannot split {mid!r}")
                break
            found[key] = _typed(split[0])
            key = split[1]
        out.update(found)
    return out, notes
