"""Compile the native kernels' C sources into the shared library beside them.

Used by the package build (``hatch_build.py``: wheels and editable installs), by
``python -m tbnb.native`` (an existing checkout whose C sources changed) and by the
tests (a sanitised build). Only the standard library is imported here, so the build
hook can load this file without importing tbnb or numpy.

The library embeds :func:`source_hash` of the sources it was built from
(``tbnb_source_hash()``); :func:`tbnb.native.lib` refuses one whose hash differs from
the sources shipped beside it.

Examples
--------
>>> len(source_hash())
16
>>> library_path().name.startswith("libtbnb_native")
True
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

__all__ = ["SOURCES", "build", "compiler", "library_path", "main", "source_hash"]

SOURCES = Path(__file__).resolve().parent / "src"
"""The C sources (``*.c``, ``*.h``)."""

FLAGS = ("-O3", "-std=c11", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra")
"""Compiler flags of a release build."""


def library_path(directory: Path | None = None) -> Path:
    """Where the shared library lives (in ``directory``, default: this package)."""
    suffix = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")
    return (directory or SOURCES.parent) / f"libtbnb_native{suffix}"


def source_hash(sources: Path = SOURCES) -> str:
    """A hash of the C sources' names and bytes (16 hex digits)."""
    digest = hashlib.sha256()
    for path in sorted(sources.glob("*.[ch]")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def compiler() -> list[str] | None:
    """The C compiler command: ``$CC``, else the one Python was built with, else ``cc``
    (``None`` when none of them is on the ``PATH``)."""
    for candidate in (os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc", "gcc", "clang"):
        if candidate:
            command = shlex.split(str(candidate))
            if command and shutil.which(command[0]):
                return command
    return None


def build(
    directory: Path | None = None, *, extra_flags: tuple[str, ...] = (), quiet: bool = False
) -> Path | None:
    """Compile the library into ``directory`` (default: this package); its path, or
    ``None`` (with a message on stderr) when there is no compiler or compiling failed.

    The library is written to a temporary file and moved into place, so a process
    that has the old one loaded keeps running and a concurrent build never leaves a
    half-written file.
    """
    target = library_path(directory)
    command = compiler()
    if command is None:
        print(
            "tbnb.native: no C compiler found (set CC); the loader will decode with numpy",
            file=sys.stderr,
        )
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".libtbnb_native-", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    sources = sorted(str(p) for p in SOURCES.glob("*.c"))
    define = f'-DTBNB_NATIVE_SOURCE_HASH="{source_hash()}"'
    argv = [*command, *FLAGS, *extra_flags, define, f"-I{SOURCES}", "-o", tmp, *sources]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(
                f"tbnb.native: compiling failed ({shlex.join(argv)}):\n{done.stderr}",
                file=sys.stderr,
            )
            return None
        if done.stderr and not quiet:
            print(done.stderr, file=sys.stderr)
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
        return target
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main(argv: list[str] | None = None) -> int:
    """``python -m tbnb.native [--force]``: build the library in place unless it is
    current (its embedded hash equals the sources'). 0 when a current library exists."""
    args = sys.argv[1:] if argv is None else argv
    from tbnb.native.loading import built_hash

    if "--force" not in args and built_hash() == source_hash():
        print(f"tbnb.native: {library_path().name} is current")
        return 0
    path = build()
    if path is None:
        return 1
    print(f"tbnb.native: built {path.name} ({source_hash()})")
    return 0
