"""The core install (`pip install tbnb`, no extras): what it holds and what it can do.

The core is the loader, the widgets and the dashboard. numba + llvmlite, scipy and
scikit-learn come only with the extras that need them, each imported by its feature
alone through :func:`tbnb.extras.require`, which names the extra.

:func:`test_core_install_loads_and_builds_every_widget` runs a process that can import
only the standard library and the distributions `pip install tbnb` installs (the
closure of pyproject's core dependencies, found from the installed metadata, with
the markers of this Python): every other import fails as it would in a venv holding
only the core. It loads a real logdir and builds every widget and the dashboard.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import tomllib

from tbnb import extras
from tbnb.notebook.samples import SampleSpec, write_sample

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
HEAVY = {
    "numba",
    "llvmlite",
    "scipy",
    "scikit-learn",
    "umap-learn",
    "opentsne",
    "plotly",
    "torch",
    "tensorboard",
    "tensorboardx",
    "jupyterlab",
}


def _name(requirement: str) -> str:
    from packaging.requirements import Requirement

    return Requirement(requirement).name.lower().replace("_", "-")


def _extra(name: str) -> set[str]:
    """The distributions an extra installs, other extras of tbnb included."""
    out: set[str] = set()
    for requirement in PYPROJECT["project"]["optional-dependencies"][name]:
        if requirement.startswith("tbnb["):
            for inner in requirement[5:-1].split(","):
                out |= _extra(inner)
        else:
            out.add(_name(requirement))
    return out


def test_the_core_leaves_the_heavy_packages_to_extras() -> None:
    core = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert core & HEAVY == set()
    assert {"numba", "scipy", "opentsne"} <= _extra("projector")
    assert {"scikit-learn", "scipy"} <= _extra("stats")
    assert {"tensorboardx", "pillow", "soundfile", "jupyterlab"} <= _extra("demo")


def _requires() -> list[tuple[str, str, str]]:
    """Every ``require(module, what, extra)`` in tbnb: (file, module, extra)."""
    found = []
    for path in sorted((ROOT / "tbnb").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: dict[str, Any] = {}  # module-level constants: an extra, modules, by name
        for node in tree.body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        with contextlib.suppress(ValueError):
                            names[target.id] = ast.literal_eval(node.value)
        projector = "tbnb.analysis.projection.extras import require" in path.read_text()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "require"):
                continue
            args = node.args
            if len(args) == 2 and projector:
                extra = "projector"
            elif len(args) == 3:
                extra = (
                    args[2].value
                    if isinstance(args[2], ast.Constant)
                    else names.get(getattr(args[2], "id", ""), "")
                )
            else:
                continue
            if isinstance(args[0], ast.Constant):
                found.append((str(path.relative_to(ROOT)), str(args[0].value), str(extra)))
            else:
                for loop in ast.walk(tree):  # for module in ("numba", "scipy"): require(...)
                    if isinstance(loop, ast.For) and node in ast.walk(loop):
                        modules = (
                            names.get(loop.iter.id, ())
                            if isinstance(loop.iter, ast.Name)
                            else ast.literal_eval(loop.iter)
                        )
                        found += [(str(path.relative_to(ROOT)), m, str(extra)) for m in modules]
    return found


def test_every_optional_import_names_an_extra_that_installs_it() -> None:
    found = _requires()
    assert {m.split(".")[0] for _, m, _ in found} >= {
        "numba",
        "scipy",
        "sklearn",
        "openTSNE",
        "tensorboardX",
        "PIL",
        "soundfile",
    }
    wrong = [
        (where, module, extra)
        for where, module, extra in found
        if where != "tbnb/extras.py"
        and extras.DISTRIBUTIONS[module.split(".")[0]].lower() not in _extra(extra)
    ]
    assert wrong == []


def _closure() -> set[str]:
    """Top-level modules of the distributions `pip install tbnb` installs (as installed
    here), and tbnb itself."""
    from packaging.requirements import Requirement

    by_dist: dict[str, set[str]] = {}
    for dist in metadata.distributions():
        modules = {f.parts[0].split(".")[0] for f in dist.files or [] if f.parts}
        by_dist.setdefault(dist.metadata["Name"].lower().replace("_", "-"), set()).update(modules)
    todo = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    seen: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = requirement.name.lower().replace("_", "-")
        if name in seen or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        try:
            todo += [Requirement(r) for r in metadata.requires(name) or []]
        except metadata.PackageNotFoundError:
            continue
    return {"tbnb"} | {m for name in seen for m in by_dist.get(name, ())}


_GUARD = r"""
import json, runpy, sys, sysconfig
from importlib.machinery import PathFinder

allowed = set(json.loads(sys.argv.pop()))
sys.argv = sys.argv[1:]  # [script, logdir]
sites = tuple({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})


class CoreOnly:
    '''Imports as in a venv holding only `pip install tbnb`: a package installed in
    site-packages by anything else is not there.'''

    def find_spec(self, name, path=None, target=None):
        if "." in name or name in allowed:
            return None  # submodules come with their package
        spec = PathFinder.find_spec(name, path)
        places = [spec.origin or "", *(spec.submodule_search_locations or [])] if spec else []
        if any(str(place).startswith(sites) for place in places):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, CoreOnly())
runpy.run_path(sys.argv[0], run_name="__main__")
"""

SPEC = SampleSpec(
    learning_rates=(0.01, 0.1),
    seeds=(0, 1),
    steps=60,
    val_every=20,
    hist_every=20,
    image_steps=(0, 59),
    embedding_seeds=(0,),
)


@pytest.mark.slow
def test_core_install_loads_and_builds_every_widget(tmp_path: Path) -> None:
    pytest.importorskip("tensorboardX")  # the real writer of the logdir (the test's side)
    logdir = tmp_path / "logs"
    write_sample(logdir, SPEC)
    env = dict(os.environ, PYTHONPATH=str(ROOT), TBNB_CACHE_DIR=str(tmp_path / "cache"))
    script = str(ROOT / "scripts" / "check_core.py")
    done = subprocess.run(
        [sys.executable, "-c", _GUARD, script, str(logdir), json.dumps(sorted(_closure()))],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    from tbnb.kinds import KINDS

    assert set(result["built"]) == {key for key, kind in KINDS.items() if kind.tab}
    assert result["rows"] > 0
    assert {"scalars", "hparams", "histograms", "images", "audio", "embeddings"} <= set(
        result["tabs"]
    )
    assert result["heavy"] == []
    assert "pip install 'tbnb[stats]'" in result["importance_note"]
    assert "pip install 'tbnb[stats]'" in result["extras"]["ci95"]
    assert "pip install 'tbnb[stats]'" in result["extras"]["importance"]
    assert "pip install 'tbnb[projector]'" in result["extras"]["umap"]
