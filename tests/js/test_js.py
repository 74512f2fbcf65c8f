"""The front-end modules: node's test runner, lint and types, and agreement with Python."""

from __future__ import annotations

import base64
import json
import math
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tbnb.transforms.smoothing import smooth
from tbnb.widgets.colors import COLORBLIND_PALETTE, DEFAULT_PALETTE
from tbnb.widgets.serializers import pack

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run_node(script: str, payload: object) -> object:
    """Run an ES module script with ``payload`` as JSON on stdin; return its JSON stdout."""
    proc = subprocess.run(
        [str(NODE), "--input-type=module", "-e", script],
        input=json.dumps(payload), capture_output=True, text=True, cwd=JS, timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _enc(values: np.ndarray) -> list[object]:
    return [v if math.isfinite(v) else str(v) for v in values.tolist()]


def _dec(values: list[object]) -> np.ndarray:
    return np.array([float(v) for v in values])  # type: ignore[arg-type]


def test_node_unit_tests() -> None:
    proc = subprocess.run([str(NODE), "--test", "tests/"], cwd=JS, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert re.search(r"^# fail 0$", proc.stdout, re.M)
    assert int(re.search(r"^# pass (\d+)$", proc.stdout, re.M).group(1)) >= 50  # type: ignore[union-attr]


SMOOTH_JS = """
import { smooth } from "./src/series/smoothing.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(chunks.join(""));
const num = (v) => (typeof v === "string" ? Number(v.replace("inf", "Infinity")) : v);
const enc = (v) => (Number.isFinite(v) ? v : String(v));
const out = cases.map(({ x, y, w, mode }) =>
  Array.from(smooth(y.map(num), w, { x: x.map(num), mode }), enc));
process.stdout.write(JSON.stringify(out));
"""


def test_js_smoothing_equals_python() -> None:
    rng = np.random.default_rng(3)
    series = []
    for n in (1, 2, 5, 300, 2000):
        x = np.cumsum(rng.integers(1, 50, n)).astype(np.float64)
        y = rng.normal(size=n) * 10 ** rng.uniform(-3, 3)
        series.append((x, y))
    x = np.arange(12.0)
    y = np.array([1, np.nan, 2, np.inf, 4, -np.inf, 3, np.nan, 5, 6, 1, 0.5])
    series.append((x, y))
    series.append((x, np.full(12, 2.5)))
    x_nan = x.copy()
    x_nan[4] = np.nan
    series.append((x_nan, rng.normal(size=12)))
    cases, expected = [], []
    for x, y in series:
        for w in (0.0, 0.6, 0.95, 0.999):
            for mode in ("ema", "time"):
                cases.append({"x": _enc(x), "y": _enc(y), "w": w, "mode": mode})
                expected.append(smooth(y, w, x=x, mode=mode))
    got = run_node(SMOOTH_JS, cases)
    assert isinstance(got, list)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(_dec(g), e, rtol=0, atol=1e-9, equal_nan=True)


def test_js_palettes_equal_python() -> None:
    got = run_node(
        'import { DEFAULT_PALETTE, COLORBLIND_PALETTE } from "./src/color/palettes.js";'
        'process.stdout.write(JSON.stringify([DEFAULT_PALETTE, COLORBLIND_PALETTE]));',
        None,
    )
    assert got == [list(DEFAULT_PALETTE), list(COLORBLIND_PALETTE)]


def test_js_unpacks_python_messages() -> None:
    msg = {"type": "range", "series": [{"run": "a", "step": np.arange(5, dtype=np.int64),
                                        "value": np.linspace(0, 1, 5)}]}
    content, buffers = pack(msg)
    got = run_node(
        'import { unpack } from "./src/core/codecs.js";'
        'const c = []; for await (const x of process.stdin) c.push(x);'
        'const { content, buffers } = JSON.parse(c.join(""));'
        'const views = buffers.map((b) => { const u = Buffer.from(b, "base64");'
        '  return new DataView(u.buffer, u.byteOffset, u.byteLength); });'
        'const m = unpack(content, views);'
        'process.stdout.write(JSON.stringify({ type: m.type,'
        '  step: Array.from(m.series[0].step), kind: m.series[0].step.constructor.name,'
        '  value: Array.from(m.series[0].value) }));',
        {"content": content, "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers]},
    )
    assert got == {"type": "range", "step": [0, 1, 2, 3, 4], "kind": "Int32Array",
                   "value": np.linspace(0, 1, 5).tolist()}


def _ensure_node_modules() -> None:
    tools = ("esbuild", "typescript", "@biomejs/biome")
    if all((JS / "node_modules" / tool).exists() for tool in tools):
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS, check=True, timeout=600)


def test_biome_lint_and_format_clean() -> None:
    """biome: the lint rules and the formatting of js/ (src, tests, build script)."""
    _ensure_node_modules()
    proc = subprocess.run(
        [str(JS / "node_modules" / ".bin" / "biome"), "ci", "--colors=off", "src", "tests",
         "build.mjs"], cwd=JS, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


def test_types_check() -> None:
    """tsc --checkJs: every module's JSDoc types, and each widget's model traits."""
    _ensure_node_modules()
    proc = subprocess.run(
        [str(NODE), str(JS / "node_modules" / "typescript" / "bin" / "tsc"), "-p",
         "tsconfig.json"], cwd=JS, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]


def test_a_type_error_fails_the_check(tmp_path: Path) -> None:
    """The check above can fail: a misspelt trait of a widget's model is an error."""
    _ensure_node_modules()
    config = tmp_path / "tsconfig.json"
    probe = tmp_path / "probe.js"
    probe.write_text(
        '/** @param {import("' + (JS / "src/widgets/scalars/model").as_posix() + '").ScalarsModel} m */\n'
        'export const f = (m) => m.get("smoothng");\n', encoding="utf-8")
    base = json.loads((JS / "tsconfig.json").read_text(encoding="utf-8"))
    base["include"] = [probe.as_posix()]
    config.write_text(json.dumps(base), encoding="utf-8")
    proc = subprocess.run(
        [str(NODE), str(JS / "node_modules" / "typescript" / "bin" / "tsc"), "-p", str(config)],
        cwd=JS, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode != 0
    assert "smoothng" in proc.stdout


@pytest.mark.slow
def test_committed_bundle_equals_fresh_build() -> None:
    _ensure_node_modules()
    proc = subprocess.run([str(NODE), "build.mjs", "--check"], cwd=JS, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr


def _script_loads(text: str) -> list[str]:
    """URLs a bundle could load code or data from (namespace URIs excluded)."""
    urls = re.findall(r"https?://[^\s\"'`)]+", text)
    return [u for u in urls if not u.startswith("http://www.w3.org/")]


@pytest.mark.parametrize("name", ["scalars", "hparams", "export"])
def test_bundle_is_small_and_loads_nothing(name: str) -> None:
    bundle = (ROOT / "tbnb" / "static" / f"{name}.js").read_text(encoding="utf-8")
    assert len(bundle.encode()) < 200_000  # the saved-notebook budget is 500 KB per widget
    assert _script_loads(bundle) == []
    assert "fetch(" not in bundle
    assert "importScripts" not in bundle
    assert "innerHTML" not in bundle  # nor in what the bundler inlined from dependencies
    if name != "export":
        assert "export" in bundle


def test_export_shim_fits_in_a_script_element() -> None:
    """The page's shim is inlined in <script>: it cannot close the element, and it reads
    the same module prefix as Python writes."""
    from tbnb.notebook.export import _ESM_REF

    shim = (ROOT / "tbnb" / "static" / "export.js").read_text(encoding="utf-8")
    assert "</script" not in shim.lower()
    assert "<!--" not in shim
    assert f'"{_ESM_REF}"' in shim


def _build_backend_missing() -> str | None:
    import importlib.util

    if importlib.util.find_spec("hatchling") is None:
        return "hatchling is not installed (the dev extra has it)"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_build_backend_missing() is not None, reason=str(_build_backend_missing()))
def test_wheel_contains_the_bundle(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path), "-q"],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("tbnb-*.whl")
    bundles = sorted((ROOT / "tbnb" / "static").glob("*.js"))
    assert {b.name for b in bundles} >= {"scalars.js", "hparams.js", "export.js"}
    with zipfile.ZipFile(wheel) as zf:
        for path in bundles:
            bundle = zf.read(f"tbnb/static/{path.name}").decode()
            assert bundle == path.read_text(encoding="utf-8"), path.name
            assert _script_loads(bundle) == [], path.name
