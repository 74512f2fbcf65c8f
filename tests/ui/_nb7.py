"""An isolated Jupyter Notebook 7 server on 127.0.0.1 for the browser tests.

The same isolation as :class:`_lab.LabServer` (config, data, runtime, settings,
workspaces and IPython dirs under the server's root; a random token; only our
own PIDs ever signalled), with the ``jupyter-notebook`` command. Notebook 7 is
built from JupyterLab's plugins, so the same user settings apply: no cell
windowing, widget state saved with the notebook, no news or update check.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from _lab import LAB_SETTINGS, VENV_BIN, LabServer


class Notebook7Server(LabServer):
    """``with Notebook7Server(root) as nb: page.goto(nb.url('/notebooks/x.ipynb'))``."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.log_path = self.state / "notebook7.log"

    def command(self) -> list[str]:
        """The server command line: loopback only, no browser, nothing fetched from outside."""
        return [
            str(VENV_BIN / "jupyter-notebook"), "--no-browser", "--ip=127.0.0.1",
            f"--port={self.port}", "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}", f"--IdentityProvider.token={self.token}",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            # The JupyterLab server extension loads beside Notebook 7: keep its
            # update check and extension manager off the network too.
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly", "--ServerApp.terminals_enabled=False",
            *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
        ]

    def start(self, timeout: float = 90) -> None:
        self.state.mkdir(parents=True, exist_ok=True)
        env = self._env()
        for rel, value in LAB_SETTINGS.items():
            path = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(value))
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.command(), cwd=self.root, env=env, stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                rc = self.proc.returncode
                raise RuntimeError(f"jupyter notebook exited ({rc}): {self.log_tail()}")
            try:
                self.api("GET", "/api/status", timeout=2)
                return
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise TimeoutError(f"jupyter notebook not ready in {timeout}s: {self.log_tail()}")

    def __enter__(self) -> Notebook7Server:
        self.start()
        return self
