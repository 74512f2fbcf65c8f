"""An isolated JupyterLab server on 127.0.0.1 for the browser tests.

Config, data (the notebook trust database), runtime, settings, workspaces and
IPython dirs all live under the server's root, so nothing of the user's setup
leaks in. Only processes started here are ever signalled: the server (in its own
session, from ``start_new_session=True``) and the kernels it started, which are
remembered by PID and start time before a clean ``/api/shutdown``.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

VENV_BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]

LAB_SETTINGS = {
    # Attach every cell to the DOM: windowing can detach off-screen outputs.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
        "recordTiming": True,
    },
    # Save widget state with the notebook, as users who share notebooks do: the
    # size budget is measured on exactly that.
    "@jupyter-widgets/jupyterlab-manager/plugin.jupyterlab-settings": {"saveState": True},
    # No news toast, no update check: both would try the internet.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def answer(url: str, timeout: float = 10) -> bytes | None:
    """The body at ``url``; None for an HTTP error (a server that answers is up)."""
    import urllib.error

    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            body: bytes = resp.read()
            return body
    except urllib.error.HTTPError:
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of the direct children of ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and int(fields[1]) == pid:
                out.append((int(entry), fields[19]))
    return out


def _alive(pid: int, starttime: str) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[19] == starttime and fields[0] != "Z"


class LabServer:
    """``with LabServer(root) as lab: page.goto(lab.url('/lab/tree/x.ipynb'))``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.state = self.root / ".labstate"
        self.log_path = self.state / "jupyterlab.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._kernels: list[tuple[int, str]] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for key, sub in [
            ("JUPYTER_CONFIG_DIR", "config"),
            ("JUPYTER_RUNTIME_DIR", "runtime"),
            ("JUPYTER_DATA_DIR", "data"),
            ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
            ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"),
            ("IPYTHONDIR", "ipython"),
        ]:
            path = self.state / sub
            path.mkdir(parents=True, exist_ok=True)
            env[key] = str(path)
        env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(VENV_BIN.parent)
        env.pop("JUPYTER_PATH", None)
        # The kernel imports this checkout's tbnb, installed or not.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
        return env

    #: What the server is called in error messages.
    name = "jupyter lab"
    #: A path the server answers once it is ready.
    status_path = "/api/status"

    def command(self) -> list[str]:
        """The server command line: loopback only, no browser, nothing fetched from outside."""
        return [
            str(VENV_BIN / "jupyter-lab"),
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            f"--IdentityProvider.token={self.token}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--ServerApp.terminals_enabled=False",
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
            self.command(),
            cwd=self.root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                rc = self.proc.returncode
                raise RuntimeError(f"{self.name} exited ({rc}): {self.log_tail()}")
            try:
                self.api("GET", self.status_path, timeout=2)
                return
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise TimeoutError(f"{self.name} not ready in {timeout}s: {self.log_tail()}")

    def log_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"" if method != "GET" else None)
        req = urllib.request.Request(self.base + path, method=method, data=data)
        req.add_header("Authorization", f"token {self.token}")
        if body is not None:
            req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            return json.loads(raw) if raw else None

    def stop(self, timeout: float = 30) -> dict[str, Any]:
        """Shut down through the REST API; escalate only on our own PIDs."""
        report: dict[str, Any] = {"clean": False, "signalled": []}
        if self.proc is None:
            return report
        if self.proc.poll() is None:
            self._kernels = _children(self.proc.pid)  # kernels run in their own session
            try:
                self.api("POST", "/api/shutdown", timeout=10)
            except OSError as exc:
                report["shutdown_error"] = repr(exc)
            try:
                self.proc.wait(timeout)
                report["clean"] = True
            except subprocess.TimeoutExpired:
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(self.proc.pid, sig)  # the session start_new_session made
                        report["signalled"].append(f"server group {sig.name}")
                    except ProcessLookupError:
                        break
                    try:
                        self.proc.wait(10)
                        break
                    except subprocess.TimeoutExpired:
                        pass
        for pid, starttime in self._kernels:
            deadline = time.time() + 10
            while _alive(pid, starttime) and time.time() < deadline:
                time.sleep(0.2)
            if _alive(pid, starttime):
                os.kill(pid, signal.SIGKILL)
                report["signalled"].append(f"kernel {pid} SIGKILL")
        report["leftover"] = [pid for pid, st in self._kernels if _alive(pid, st)]
        if self.proc.poll() is None:
            report["leftover"].append(self.proc.pid)
        self._log.close()
        return report

    def stop_session(self, timeout: float = 30) -> dict[str, Any]:
        """Stop a server with no shutdown endpoint (marimo, Voila): SIGTERM to its own
        session (``start_new_session=True``, so its kernels with it), SIGKILL if it stays."""
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

    def __enter__(self) -> LabServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
