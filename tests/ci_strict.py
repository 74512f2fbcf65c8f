"""Under ``CI=true`` a test that cannot run is a failure, never a skip.

Loaded for every test and doctest with ``-p tests.ci_strict`` (pyproject's addopts).
Locally a missing tool (node, Chromium, torch, ruff) still skips, with its reason;
in CI the same skip fails the run, naming the reason, so a machine without the tool
can never pass the suite silently. Strict xfails stay what they are.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


def in_ci() -> bool:
    """Whether the suite runs in CI (``CI`` set to 1/true/yes)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (in_ci() and report.skipped) or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = "failed"
    report.longrepr = (
        f"{item.nodeid} was skipped under CI=true ({reason}); "
        "in CI a test that cannot run is a failure"
    )
