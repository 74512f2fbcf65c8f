"""An isolated marimo server on 127.0.0.1 for the browser tests (``marimo run`` or
``marimo edit``).

The same isolation as :class:`_lab.LabServer`: marimo's config, cache and state under the
server's root (XDG directories), no token, no update check, no sandbox (the test's own
virtual environment runs the notebook). marimo has no shutdown endpoint: the server runs
in its own session and only that session is signalled when the test stops it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.ui._lab import VENV_BIN, LabServer, answer


class MarimoServer(LabServer):
    """``with MarimoServer(root, "notebook.py", mode="run") as mo: page.goto(mo.url("/"))``."""

    status_path = "/health"

    def __init__(self, root: Path, notebook: str, mode: str = "run") -> None:
        super().__init__(root)
        if mode not in ("run", "edit"):
            raise ValueError(f"mode is run or edit, got {mode!r}")
        self.notebook = notebook
        self.mode = mode
        self.name = f"marimo {mode}"
        self.log_path = self.state / f"marimo-{mode}.log"

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def _env(self) -> dict[str, str]:
        env = super()._env()
        for key, sub in [
            ("XDG_CONFIG_HOME", "xdg-config"),
            ("XDG_CACHE_HOME", "xdg-cache"),
            ("XDG_STATE_HOME", "xdg-state"),
            ("XDG_DATA_HOME", "xdg-data"),
        ]:
            path = self.state / sub
            path.mkdir(parents=True, exist_ok=True)
            env[key] = str(path)
        return env

    def command(self) -> list[str]:
        """``marimo run|edit``: loopback only, no browser, no token, nothing fetched."""
        extra = ["--skip-update-check"] if self.mode == "edit" else ["--no-check"]
        return [
            str(VENV_BIN / "marimo"),
            self.mode,
            self.notebook,
            "--headless",
            "--host=127.0.0.1",
            f"--port={self.port}",
            "--no-token",
            "--no-sandbox",
            *extra,
        ]

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Any HTTP answer means the server is up."""
        return answer(self.base + path, timeout)

    def stop(self, timeout: float = 30) -> dict[str, Any]:
        """No shutdown endpoint: the server's own session is signalled."""
        return self.stop_session(timeout)

    def __enter__(self) -> MarimoServer:
        self.start()
        return self
