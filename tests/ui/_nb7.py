"""An isolated Jupyter Notebook 7 server on 127.0.0.1 for the browser tests.

The same isolation as :class:`_lab.LabServer` (config, data, runtime, settings,
workspaces and IPython dirs under the server's root; a random token; only our
own PIDs ever signalled), with the ``jupyter-notebook`` command. Notebook 7 is
built from JupyterLab's plugins, so the same user settings apply: no cell
windowing, widget state saved with the notebook, no news or update check.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.ui._lab import VENV_BIN, LabServer


class Notebook7Server(LabServer):
    """``with Notebook7Server(root) as nb: page.goto(nb.url('/notebooks/x.ipynb'))``."""

    name = "jupyter notebook"

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.log_path = self.state / "notebook7.log"

    def command(self) -> list[str]:
        """The server command line: loopback only, no browser, nothing fetched from outside."""
        return [
            str(VENV_BIN / "jupyter-notebook"),
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            f"--IdentityProvider.token={self.token}",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            # The JupyterLab server extension loads beside Notebook 7: keep its
            # update check and extension manager off the network too.
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--ServerApp.terminals_enabled=False",
            *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
        ]

    def __enter__(self) -> Notebook7Server:
        self.start()
        return self
