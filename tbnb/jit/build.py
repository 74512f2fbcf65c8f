"""Compiling kernel groups: in this process, or in a detached one that nobody waits for.

``python -m tbnb.jit [--group NAME] [--background]`` compiles groups into the cache
(:func:`compile_now`); :func:`compile_in_background` starts it detached, at low
priority, unless the group is ready, is being compiled (a lock file naming the
compiling process), failed less than a day ago, or the cache is not writable.

Examples
--------
>>> compile_in_background("no such group")
False
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tbnb.jit.cache import (
    GROUPS,
    PACKAGE,
    available,
    group_dir,
    numba_version,
    ready,
    recently_failed,
    remove_marker,
    writable,
    write_marker,
)
from tbnb.jit.loading import NUMBA_EXTRA

__all__ = ["compile_in_background", "compile_now", "main"]

STALE_LOCK_SECONDS = 15 * 60
"""A lock older than this is a compile that died without removing it."""

_spawned: dict[str, subprocess.Popen[bytes]] = {}


def _child_env() -> dict[str, str]:
    """This environment, with this tbnb importable first (an editable or copied tree)."""
    env = dict(os.environ)
    paths = [str(PACKAGE.parent), *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


def _lock_path(group: str) -> Path | None:
    directory = group_dir(group)
    return None if directory is None else directory / "compile.lock"


def _alive(info: dict[str, object]) -> bool:
    """Whether the process a lock names still runs (only known on this host)."""
    if time.time() - float(str(info.get("time", 0))) > STALE_LOCK_SECONDS:
        return False
    if info.get("host") != socket.gethostname():
        return True
    try:
        os.kill(int(str(info.get("pid"))), 0)
    except ProcessLookupError:
        return False
    except (OSError, ValueError):
        return True
    return True


def compiling(group: str) -> bool:
    """Whether a live process holds the group's compile lock."""
    path = _lock_path(group)
    if path is None or not path.is_file():
        return False
    try:
        info = json.loads(path.read_text() or "{}")
    except (OSError, ValueError):
        return True  # being written
    return _alive(info)


_TOKEN = "TBNB_JIT_LOCK_TOKEN"
"""Environment variable carrying the token of a lock handed to a compile process."""


def _lock_info(pid: int, token: str = "") -> str:
    return json.dumps(
        {"pid": pid, "host": socket.gethostname(), "time": time.time(), "token": token}
    )


def _owned(path: Path) -> bool:
    """Whether the lock at ``path`` was handed to this process (its token is ours)."""
    token = os.environ.get(_TOKEN)
    if not token:
        return False
    try:
        info = json.loads(path.read_text() or "{}")
    except (OSError, ValueError):
        return False
    return bool(info.get("token") == token)


def _acquire(group: str) -> Path | None:
    """Take the group's compile lock (or find it handed to us); None if another live
    process holds it."""
    path = _lock_path(group)
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if _owned(path):
                return path
            if compiling(group):
                return None
            path.unlink(missing_ok=True)  # stale: its process is gone
            continue
        with os.fdopen(fd, "w") as f:
            f.write(_lock_info(os.getpid()))
        return path
    return None


def compile_in_background(group: str) -> bool:
    """Start compiling ``group`` in a detached low-priority process; True if started.

    Nothing is started when the group is ready, already being compiled (by any
    process), failed less than a day ago, numba is missing or turned off
    (``TBNB_JIT=0``), or the cache directory is not writable.
    """
    if group not in GROUPS or not available() or not sys.executable:
        return False
    directory = group_dir(group)
    if directory is None or ready(group) or recently_failed(group):
        return False
    previous = _spawned.get(group)
    if previous is not None and previous.poll() is None:
        return False
    if compiling(group) or not writable(directory):
        return False
    lock = _acquire(group)  # taken here, then handed to the compile process: a process
    if lock is None:  # started meanwhile sees a compile under way
        return False
    token = secrets.token_hex(8)
    lock.write_text(_lock_info(os.getpid(), token))
    detach: dict[str, object] = (
        {"creationflags": 0x00000008 | 0x00000200 | 0x08000000}  # detached, new group, no window
        if os.name == "nt"
        else {"start_new_session": True}
    )
    try:
        with open(directory / "compile.log", "ab") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "tbnb.jit", "--group", group, "--background"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                close_fds=True,
                env={**_child_env(), _TOKEN: token},
                cwd=directory,
                **detach,
            )  # type: ignore[call-overload]
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    tmp = lock.with_name(f".{lock.name}.{os.getpid()}")
    tmp.write_text(_lock_info(proc.pid, token))
    os.replace(tmp, lock)
    _spawned[group] = proc
    threading.Thread(target=proc.wait, name="tbnb-compile-reaper", daemon=True).start()
    return True


def _compile_kernels(group: str) -> None:
    from tbnb.jit.loading import numba_module

    numba_module()
    for name in GROUPS[group]:
        for dispatcher, args in importlib.import_module(name).KERNELS:
            dispatcher(*args)


def _verify(group: str) -> str:
    """Load the group in a fresh process, compiling nothing: '' if every kernel loaded."""
    result = subprocess.run(
        [sys.executable, "-m", "tbnb.jit", "--verify", group],
        env=_child_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    return (
        ""
        if result.returncode == 0
        else (result.stdout + result.stderr)[-2000:] or f"exit status {result.returncode}"
    )


def compile_now(group: str) -> bool:
    """Compile ``group`` into the cache now and wait: True once it is ready.

    The compile runs in a fresh process (``python -m tbnb.jit --group``), whatever this
    process already compiled or loaded: what counts is what the cache holds.
    """
    if group not in GROUPS or not available():
        return False
    if not ready(group):
        subprocess.run(
            [sys.executable, "-m", "tbnb.jit", "--group", group],
            env=_child_env(),
            stdout=subprocess.DEVNULL,
            check=False,
        )
    return ready(group)


def _compile_here(group: str, *, wait: bool) -> bool:
    """Compile ``group`` into the cache in this process, verify it in a fresh one, write
    its ready stamp. With ``wait``, a compile running elsewhere is waited for."""
    while True:
        lock = _acquire(group)
        if lock is not None:
            break
        if not wait:
            return ready(group)
        time.sleep(0.5)
    try:
        if ready(group):
            return True
        started = time.perf_counter()
        try:
            _compile_kernels(group)
            problem = _verify(group)
        except Exception as error:
            problem = f"{type(error).__name__}: {error}"
        if problem:
            write_marker(group, "failed", problem=problem)
            return False
        remove_marker(group, "failed")
        write_marker(group, "ready", seconds=round(time.perf_counter() - started, 1))
        return True
    finally:
        lock.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tbnb.jit",
        description="Compile tbnb's kernels into the user cache (once per machine and "
        "version; loads never wait for it).",
    )
    parser.add_argument(
        "--group", action="append", choices=sorted(GROUPS), help="a group to compile (default: all)"
    )
    parser.add_argument(
        "--background",
        action="store_true",
        help="run at low priority; leave if another process compiles",
    )
    parser.add_argument("--verify", metavar="GROUP", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.verify:
        from tbnb.jit.loading import load_group, problems

        if load_group(args.verify):
            return 0
        print(problems.get(args.verify, "a kernel is not in the cache"))
        return 1
    if args.background and hasattr(os, "nice"):
        os.nice(10)
    if not available():
        why = "TBNB_JIT=0" if numba_version() else "numba is not installed"
        print(
            f"tbnb: {why}: nothing to compile (the projector's UMAP and t-SNE need numba: "
            f"pip install 'tbnb[{NUMBA_EXTRA}]'); everything else uses the native or numpy kernels"
        )
        return 0
    ok = True
    for group in args.group or sorted(GROUPS):
        done = _compile_here(group, wait=not args.background)
        ok &= done or args.background
        if not args.background:
            print(f"tbnb: {group} kernels {'ready' if done else 'FAILED'} in {group_dir(group)}")
    return 0 if ok else 1
