"""The real-browser tests share the session fixtures of ``tests/conftest.py``.

Assertions on the page wait up to 30 s (Playwright's default is 5 s): a dashboard builds a
tab's widget in the kernel when the tab is first opened, which takes seconds on a busy
2-core machine. They return as soon as the page is as expected.
"""

from __future__ import annotations

from playwright.sync_api import expect

expect.set_options(timeout=30_000)
