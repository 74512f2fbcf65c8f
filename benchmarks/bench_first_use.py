"""First use after install, and small logdirs: whole process, tbnb vs tbparse vs TensorBoard.

Each measurement is a fresh process (``import`` + load + ``.scalars``), measured from
outside (``os.wait4``: CPU, peak RSS; wall clock). Cases, per logdir:

- ``tbnb first``: a fresh install: an empty tbnb cache directory (``TBNB_CACHE_DIR``)
  and an empty numba cache (``NUMBA_CACHE_DIR``), as after ``pip install``.
- ``tbnb second``: a second process started as soon as the first one exits, on the
  same caches (whatever the first left compiling in the background is still at it).
- ``tbnb``: later processes, once any background compile has finished.
- ``tbnb first (no native)``, ``tbnb (no native)``: the same without the native kernels
  (``TBNB_NATIVE=0``: a build without a C compiler), on numpy and numba.
- ``tbparse``: ``tbparse.SummaryReader(logdir).scalars`` (tbparse 0.0.9).
- ``tensorboard``: TensorBoard's Rust data server (``--load_fast``), every point kept,
  every record checksummed, until it logs the end of its first load cycle.

Medians of ``--repeat`` runs (each ``first``/``second`` pair on new empty caches); the
ratios are tbnb's over tbparse's. The child also reports which of numba, scipy,
scikit-learn, plotly and umap the process imported.

Usage::

    python benchmarks/make_small_logdirs.py           # once: tiny, small3, lightning
    python benchmarks/bench_first_use.py              # table on stdout + benchmarks/results/
    python benchmarks/bench_first_use.py --logdirs benchmarks/data/small3 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _proc import (
    ROOT,
    logdir_bytes,
    median_of,
    run_child,
    tensorboard_server,
    wait_for_background,
)

HERE = Path(__file__).resolve().parent
HEAVY = ("numba", "scipy", "sklearn", "plotly", "umap")


def child(case: str, logdir: str, tbnb_root: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    decoders: list[str] = []
    if case == "tbnb":
        sys.path.insert(0, tbnb_root)
        import tbnb

        exp = tbnb.load(logdir)
        points = len(exp.scalars)
        decoders = sorted(getattr(exp.last_report, "decoders", ()) or ())
    else:
        import warnings

        warnings.simplefilter("ignore")
        from tbparse import SummaryReader

        points = len(SummaryReader(logdir).scalars)
    return {
        "points": points,
        "inner_wall": time.perf_counter() - t0,
        "decoders": decoders,
        "heavy": [m for m in HEAVY if m in sys.modules],
    }


def _env(cache: str | None, tbnb_root: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=tbnb_root)
    if cache is not None:
        env.update(
            TBNB_CACHE_DIR=os.path.join(cache, "tbnb"), NUMBA_CACHE_DIR=os.path.join(cache, "numba")
        )
    return env


def measure(case: str, logdir: Path, env: dict[str, str], tbnb_root: str) -> dict[str, Any]:
    if case == "tensorboard":
        return tensorboard_server(logdir)
    kind = "tbnb" if case.startswith("tbnb") else "tbparse"
    return run_child([__file__, "--child", kind, str(logdir), "--tbnb-root", tbnb_root], env=env)


def bench_logdir(logdir: Path, repeat: int, tbnb_root: str) -> list[dict[str, Any]]:
    runs: dict[str, list[dict[str, Any]]] = {
        c: []
        for c in (
            "tbnb first",
            "tbnb second",
            "tbnb",
            "tbnb first (no native)",
            "tbnb (no native)",
            "tbparse",
            "tensorboard",
        )
    }
    warm = tempfile.mkdtemp(prefix="tbnb-bench-warm-")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="tbnb-bench-fresh-") as cache:
            env = _env(cache, tbnb_root)
            runs["tbnb first"].append(measure("tbnb first", logdir, env, tbnb_root))
            runs["tbnb second"].append(measure("tbnb second", logdir, env, tbnb_root))
            wait_for_background(cache)
    for _ in range(repeat + 1):  # the first one may fill the warm caches
        run = measure("tbnb", logdir, _env(warm, tbnb_root), tbnb_root)
        wait_for_background(warm)
        runs["tbnb"].append(run)
    runs["tbnb"] = runs["tbnb"][1:]
    for _ in range(repeat):
        with tempfile.TemporaryDirectory(prefix="tbnb-bench-fresh-") as cache:
            env = dict(_env(cache, tbnb_root), TBNB_NATIVE="0")
            runs["tbnb first (no native)"].append(measure("tbnb", logdir, env, tbnb_root))
            wait_for_background(cache)
        runs["tbnb (no native)"].append(
            measure("tbnb", logdir, dict(_env(warm, tbnb_root), TBNB_NATIVE="0"), tbnb_root)
        )
    for _ in range(repeat):
        runs["tbparse"].append(measure("tbparse", logdir, _env(None, tbnb_root), tbnb_root))
        runs["tensorboard"].append(tensorboard_server(logdir))
    rows = []
    for case, results in runs.items():
        rows.append(
            {
                "logdir": logdir.name,
                "case": case,
                "bytes": logdir_bytes(logdir),
                "points": results[0].get("points"),
                "wall_s": median_of(results, "wall"),
                "max_wall_s": max(r["wall"] for r in results),
                "cpu_s": median_of(results, "cpu"),
                "peak_rss": median_of(results, "peak_rss"),
                "decoders": sorted({d for r in results for d in r.get("decoders", [])}),
                "heavy": sorted({m for r in results for m in r.get("heavy", [])}),
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| logdir | case | wall s (median) | wall s (max) | CPU s | peak RSS MB "
        "| wall / tbparse | RSS / tbparse | decoder | heavy imports |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        base = next(b for b in rows if b["logdir"] == r["logdir"] and b["case"] == "tbparse")
        lines.append(
            f"| {r['logdir']} ({r['bytes'] / 1e6:.2f} MB) | {r['case']} | {r['wall_s']:.2f} "
            f"| {r['max_wall_s']:.2f} | {r['cpu_s']:.2f} | {r['peak_rss'] / 1e6:.0f} "
            f"| {r['wall_s'] / base['wall_s']:.2f} | {r['peak_rss'] / base['peak_rss']:.2f} "
            f"| {','.join(r['decoders']) or '-'} | {','.join(r['heavy']) or '-'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--logdirs",
        nargs="+",
        type=Path,
        default=[HERE / "data" / n for n in ("tiny", "small3", "lightning")],
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--tbnb-root",
        default=str(ROOT),
        help="the checkout whose tbnb is measured (default: this one)",
    )
    parser.add_argument("--child", nargs=2, metavar=("CASE", "LOGDIR"), help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        Path(args.report).write_text(json.dumps(child(*args.child, args.tbnb_root)))
        return
    rows = []
    for logdir in args.logdirs:
        if not logdir.exists():
            raise SystemExit(f"{logdir} missing: run benchmarks/make_small_logdirs.py first")
        rows += bench_logdir(logdir.resolve(), args.repeat, args.tbnb_root)
        print(f"{logdir.name}: done", file=sys.stderr)
    text = table(rows) + f"\n\n{os.cpu_count()} CPUs; medians of {args.repeat} runs.\n"
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (results / f"first-use-{stamp}.md").write_text(text)
    (results / f"first-use-{stamp}.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
