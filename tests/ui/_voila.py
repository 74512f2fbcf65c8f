"""An isolated Voilà server on 127.0.0.1 for the browser tests: a notebook served as an app,
its kernel behind it.

The same isolation as :class:`_lab.LabServer` (Jupyter's config, data and runtime dirs under
the server's root). Voilà has no shutdown endpoint: the server runs in its own session and
only that session is signalled when the test stops it (its kernels with it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.ui._lab import VENV_BIN, LabServer


class VoilaServer(LabServer):
    """``with VoilaServer(root, "app.ipynb") as app: page.goto(app.url("/"))``."""

    name = "voila"

    def __init__(self, root: Path, notebook: str, *extra: str) -> None:
        super().__init__(root)
        self.notebook = notebook
        self.extra = list(extra)
        self.log_path = self.state / "voila.log"

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def command(self) -> list[str]:
        """``voila``: loopback only, no browser, nothing fetched from outside."""
        return [
            str(VENV_BIN / "voila"),
            self.notebook,
            "--no-browser",
            f"--port={self.port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",
            *self.extra,
        ]

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Any HTTP answer means the server is up (its API asks for a login)."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=timeout) as resp:
                return resp.read()
        except urllib.error.HTTPError:
            return None

    def stop(self, timeout: float = 30) -> dict[str, Any]:
        """SIGTERM to the server's own session, SIGKILL if it stays."""
        report: dict[str, Any] = {"clean": False, "signalled": [], "leftover": []}
        if self.proc is None:
            return report
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self.proc.poll() is not None:
                break
            try:
                os.killpg(self.proc.pid, sig)
                report["signalled"].append(f"server group {sig.name}")
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout if sig == signal.SIGTERM else 10)
            except subprocess.TimeoutExpired:
                continue
        report["clean"] = self.proc.poll() is not None
        if not report["clean"]:
            report["leftover"].append(self.proc.pid)
        self._log.close()
        return report
