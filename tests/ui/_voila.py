"""An isolated Voilà server on 127.0.0.1 for the browser tests: a notebook served as an app,
its kernel behind it.

The same isolation as :class:`_lab.LabServer` (Jupyter's config, data and runtime dirs under
the server's root). Voilà has no shutdown endpoint: the server runs in its own session and
only that session is signalled when the test stops it (its kernels with it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.ui._lab import VENV_BIN, LabServer, answer


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
            # Notebook 7's own lab extension is installed beside JupyterLab in this
            # environment; Voila loads every lab extension and this one needs a shared module
            # Voila's page does not provide (module federation RUNTIME-012 in the console).
            # It adds Notebook's menus, nothing a dashboard app uses.
            "--VoilaConfiguration.extension_denylist=['@jupyter-notebook/lab-extension']",
            *self.extra,
        ]

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Any HTTP answer means the server is up."""
        return answer(self.base + path, timeout)

    def stop(self, timeout: float = 30) -> dict[str, Any]:
        """No shutdown endpoint: the server's own session is signalled."""
        return self.stop_session(timeout)
