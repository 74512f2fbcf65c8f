"""What the build writes is named once: js/README.md's module list and size table, the
manifest pyproject's build hook checks, all against the files themselves."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
STATIC = ROOT / "tbnb" / "static"


def _listed_modules() -> dict[str, set[str]]:
    """README's layout table: folder under js/src -> the modules named for it."""
    text = (JS / "README.md").read_text(encoding="utf-8")
    table = text.split("## Layout", 1)[1].split("\n\n", 2)[1]
    listed: dict[str, set[str]] = {}
    folder = ""
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if cells[0]:
            folder = cells[0].strip("`").rstrip("/")
        listed.setdefault(folder, set()).update(re.findall(r"`([\w.-]+\.(?:js|d\.ts))`", cells[1]))
    return listed


def _modules_on_disk() -> dict[str, set[str]]:
    src = JS / "src"
    found: dict[str, set[str]] = {}
    for path in sorted(src.rglob("*")):
        if path.is_file() and (path.suffix == ".js" or path.name.endswith(".d.ts")):
            found.setdefault(path.parent.relative_to(src).as_posix(), set()).add(path.name)
    return found


def test_the_readme_lists_every_module_and_no_other() -> None:
    listed, found = _listed_modules(), _modules_on_disk()
    missing = {
        f: sorted(m - listed.get(f, set())) for f, m in found.items() if m - listed.get(f, set())
    }
    stale = {
        f: sorted(m - found.get(f, set())) for f, m in listed.items() if m - found.get(f, set())
    }
    assert missing == {}, f"modules js/README.md does not list: {missing}"
    assert stale == {}, f"js/README.md lists modules that do not exist: {stale}"


def test_the_readme_size_table_is_the_manifest() -> None:
    manifest = json.loads((STATIC / "bundles.json").read_text(encoding="utf-8"))["bundles"]
    readme = (JS / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([\w.]+\.js)` \| ([\d.]+) KB \| ([\d.]+) KB \|", readme, re.M)
    assert [r[0] for r in rows] == list(manifest)
    for name, raw, gz in rows:
        assert float(raw) == round(manifest[name]["bytes"] / 1024, 1), name
        assert float(gz) == round(manifest[name]["gzip"] / 1024, 1), name
        assert manifest[name]["bytes"] == len((STATIC / name).read_bytes()), name


def test_the_build_hook_checks_the_manifest_alone() -> None:
    """No hand-kept bundle list: the build hook (hatch_build.py, which builds only what is
    missing, with npm) expects the manifest the build writes and what it names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "jupyter-builder" not in config["tool"]["hatch"]["build"].get("hooks", {})
    manifest = json.loads((STATIC / "bundles.json").read_text(encoding="utf-8"))
    assert set(manifest["bundles"]) == {p.name for p in STATIC.glob("*.js")}
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    expected = {path.name for path in hatch_build.bundles(ROOT)}
    assert expected == {"bundles.json", *manifest["bundles"]}


def _imports(path: Path) -> list[Path]:
    """Modules ``path`` imports (static, dynamic and JSDoc ``import("...")`` types)."""
    text = path.read_text(encoding="utf-8")
    specs = re.findall(
        r"""(?:from\s+|import\s*\(\s*|^import\s+)["'](\.{1,2}/[^"'?]+)""", text, re.M
    )
    return [(path.parent / spec).resolve() for spec in specs]


def test_no_widget_folder_imports_another_and_the_kit_no_widget() -> None:
    """What two widgets share lives in the kit: no widget folder imports another's."""
    src = (JS / "src").resolve()
    widgets = src / "widgets"
    crossing = []
    for path in sorted(src.rglob("*.js")):
        home = path.resolve().relative_to(src).parts
        for target in _imports(path):
            inside = target.is_relative_to(widgets)
            if home[0] == "widgets":
                if inside and target.relative_to(widgets).parts[0] != home[1]:
                    crossing.append(f"{path.relative_to(JS)} -> {target.relative_to(src)}")
            elif inside:
                crossing.append(f"{path.relative_to(JS)} -> {target.relative_to(src)}")
    assert crossing == []
