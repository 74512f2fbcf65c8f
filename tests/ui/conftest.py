"""Fixtures for the real-browser tests (marker ``browser``).

Chromium missing: the tests skip locally and fail in CI (``CI=true``), with the
reason, so a CI image without a browser can never pass them silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _chromium import Chromium, missing_reason

OUT = Path(__file__).resolve().parent / "out"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    reason = missing_reason()
    if reason:
        if _in_ci():
            pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="module")
def chromium(playwright: Any) -> Iterator[Chromium]:
    browser = Chromium(playwright)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def out_dir() -> Path:
    """Screenshots and saved pages (git-ignored)."""
    OUT.mkdir(exist_ok=True)
    return OUT
