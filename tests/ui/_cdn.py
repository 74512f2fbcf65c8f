"""The CDN, served offline from npm packages: what report pages load from unpkg, jsdelivr
and cdnjs (nbconvert's HTML: require.js, the Jupyter widgets HTML manager, anywidget) comes
from the npm packages of the same versions, installed from the npm registry by
``npm ci`` of ``tests/ui/cdn/package-lock.json`` into a cache folder once per machine.

:func:`serve_cdn` routes a Playwright context: a request for a CDN file is answered with
that file of the installed package (its version checked against the one the URL asks for);
every other request leaving the machine is aborted, and the Chromium log records it, so a
test fails on it.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent / "cdn"
CDN_HOSTS = {"unpkg.com", "cdn.jsdelivr.net", "cdnjs.cloudflare.com"}
#: ``/ajax/libs/<library>/<version>/<file>`` on cdnjs.
CDNJS = re.compile(r"^/ajax/libs/(?P<library>[^/]+)/(?P<version>[^/]+)/(?P<file>.+)$")
#: cdnjs's library names as npm packages, and files cdnjs names otherwise (its minified copies).
CDNJS_PACKAGES = {"require.js": "requirejs", "mathjax": "mathjax"}
CDNJS_FILES = {("requirejs", "require.min.js"): "require.js"}
#: ``/<name>@<range>/<file>`` (unpkg) or ``/npm/<name>@<range>/<file>`` (jsdelivr).
NPM_PATH = re.compile(r"^(/npm)?/(?P<name>(@[^/@]+/)?[^/@]+)@(?P<range>[^/]+)/(?P<file>.+)$")


def cdn_packages() -> Path:
    """``node_modules`` of the packages in ``tests/ui/cdn``, installed once (``npm ci``)."""
    lock = (HERE / "package-lock.json").read_bytes()
    cache = Path(os.environ.get("TBNB_TEST_CDN", Path.home() / ".cache" / "tbnb-test-cdn"))
    target = cache / hashlib.sha256(lock).hexdigest()[:16]
    modules = target / "node_modules"
    if (target / ".complete").exists():
        return modules
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to install the CDN's packages (apt-get install npm)")
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy(HERE / name, target / name)
    subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=target,
        check=True,
        capture_output=True,
        timeout=600,
    )
    (target / ".complete").write_text("")
    return modules


def _matches(version: str, wanted: str) -> bool:
    """Whether an installed ``version`` is what a CDN would serve for ``wanted`` (an exact
    version, ``*``, or ``~X.Y.*`` / ``^X.Y.Z`` as widget module versions are written)."""
    wanted = wanted.strip()
    if wanted in ("*", "latest", version):
        return True
    bare = wanted.lstrip("~^").removesuffix(".*").removesuffix(".x")
    if wanted.startswith("^"):
        return version.split(".", maxsplit=1)[0] == bare.split(".")[0] and version >= bare
    return version == bare or version.startswith(bare + ".")


@dataclass
class ServedCdn:
    """What the routed context asked the CDN for: served from npm, or refused."""

    modules: Path
    served: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def file_for(self, url: str) -> Path | None:
        parts = urlsplit(url)
        if parts.hostname not in CDN_HOSTS:
            return None
        if parts.hostname == "cdnjs.cloudflare.com":
            m = CDNJS.match(parts.path)
            name = CDNJS_PACKAGES.get(m["library"], "") if m else ""
            if m is None or not name or not _matches(self.version(name), m["version"]):
                return None
            file = CDNJS_FILES.get((name, m["file"]), m["file"])
        else:
            m = NPM_PATH.match(parts.path)
            if m is None or not (self.modules / m["name"]).is_dir():
                return None
            if not _matches(self.version(m["name"]), m["range"]):
                return None
            name, file = m["name"], m["file"]
        path = (self.modules / name / file).resolve()
        if not path.is_file() or self.modules.resolve() not in path.parents:
            return None
        return path

    def version(self, name: str) -> str:
        meta = json.loads((self.modules / name / "package.json").read_text())
        return str(meta["version"])

    def handle(self, route: Any) -> None:
        url = route.request.url
        scheme = urlsplit(url).scheme
        host = urlsplit(url).hostname or ""
        if scheme not in ("http", "https") or host in ("127.0.0.1", "localhost", "::1"):
            route.continue_()
            return
        path = self.file_for(url)
        if path is None:
            self.refused.append(url)
            route.abort()
            return
        self.served.append(url)
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix in (".js", ".mjs", ".cjs"):
            kind = "text/javascript"
        route.fulfill(
            status=200,
            body=path.read_bytes(),
            headers={"content-type": kind, "access-control-allow-origin": "*"},
        )


def serve_cdn(context: Any) -> ServedCdn:
    """Route ``context``'s requests: CDN files from npm packages, nothing else outside."""
    served = ServedCdn(cdn_packages())
    context.route("**/*", served.handle)
    return served
