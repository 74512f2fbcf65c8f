"""Headless Debian Chromium through Playwright's Python API (never ``playwright install``).

Every non-loopback host fails DNS resolution at once (``--host-resolver-rules``), so
a page that tries to reach a CDN fails visibly and fast; every request is recorded
and the tests fail on any that leaves localhost.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
]

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not Path(CHROMIUM).exists():
        return (
            f"Chromium not found at {CHROMIUM} (install Debian's: apt-get install -y chromium; "
            "or set CHROMIUM=/path/to/chromium)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed (pip install 'tbnb[test]')"
    return None


@dataclass
class BrowserLog:
    """Everything the pages said or fetched that a test may fail on."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    """``URL: reason`` of each request that failed (a console error names no URL)."""

    def clear(self) -> None:
        for items in (
            self.console_errors,
            self.page_errors,
            self.external_requests,
            self.dialogs,
            self.failed_requests,
        ):
            items.clear()


def is_external(url: str) -> bool:
    """True for a network URL whose host is not loopback (data:, blob:, file: are local)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return False
    return (parts.hostname or "") not in LOOPBACK


class Chromium:
    """A persistent context on a fresh ``--user-data-dir``, with logging attached."""

    def __init__(self, playwright: Any, viewport: tuple[int, int] = (1280, 2400)) -> None:
        self.user_data = tempfile.mkdtemp(prefix="tbnb-chromium-")
        self.log = BrowserLog()
        self.context = playwright.chromium.launch_persistent_context(
            self.user_data,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": viewport[0], "height": viewport[1]},
        )
        for page in self.context.pages:
            self._watch(page)
        self.context.on("page", self._watch)
        self.context.on("request", self._on_request)
        self.context.on(
            "requestfailed",
            lambda request: self.log.failed_requests.append(f"{request.url}: {request.failure}"),
        )

    def _on_request(self, request: Any) -> None:
        if is_external(request.url):
            self.log.external_requests.append(request.url)

    def _watch(self, page: Any) -> None:
        def on_console(msg: Any) -> None:
            if msg.type == "error":
                self.log.console_errors.append(msg.text)

        def on_dialog(dialog: Any) -> None:
            self.log.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("console", on_console)
        page.on("pageerror", lambda err: self.log.page_errors.append(str(err)))
        page.on("dialog", on_dialog)

    def open_exported(self, path: Any, timeout_ms: int = 60_000) -> Any:
        """A new page showing the exported HTML file ``path`` once its widgets rendered
        (the log cleared first, so it holds this page's messages only)."""
        page = self.page()
        self.log.clear()
        page.goto(path.as_uri())
        page.wait_for_selector(
            "#tbnb-export-root[data-rendered='true']", state="attached", timeout=timeout_ms
        )
        return page

    def page(self) -> Any:
        return self.context.pages[0] if self.context.pages else self.context.new_page()

    def close(self) -> None:
        try:
            self.context.close()
        finally:
            shutil.rmtree(self.user_data, ignore_errors=True)
