"""What `pip install tbnb` alone can do: load a logdir, build every widget and the dashboard.

    python scripts/check_core.py LOGDIR

Run by .ci/run in a venv holding only the core install, and by
tests/install/test_core.py in a process that can import only the core's packages.
Prints one JSON line: the widgets built, the dashboard's tabs, what the features of
the extras say when their packages are missing, and which heavy packages were
imported (exit status 1 if any was).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

HEAVY = ("numba", "llvmlite", "scipy", "sklearn", "umap", "openTSNE", "plotly", "torch")
"""Packages the core must neither need nor import."""


def check(logdir: str) -> dict[str, Any]:
    """Load ``logdir`` and build everything the core offers; what happened, as a dict."""
    import numpy as np

    import tbnb
    from tbnb.analysis.projection.engine import Projection
    from tbnb.extras import MissingExtraError
    from tbnb.kinds import KINDS

    exp = tbnb.load(logdir, progress=False)
    built = {}
    for key, kind in KINDS.items():
        if kind.tab is not None:
            factory = getattr(tbnb, kind.tab.factory.rpartition(":")[2])
            built[key] = type(factory(exp)).__name__
    dash = tbnb.Dashboard(exp)
    tabs = {key: type(dash.views[key]).__name__ for key in dash.views}
    hparams = dash.views["hparams"]
    hparams.wait_ready()  # importance is computed in the background
    note = next(iter(hparams._importance.values()), {}).get("note", "")
    extras: dict[str, Callable[[], object]] = {
        "ci95": lambda: tbnb.scalars(exp, group_by=r"(lr=[^,]+)", agg="mean", band="ci95"),
        "importance": hparams.importance,
        "umap": lambda: Projection(np.eye(8, dtype=np.float32)).layout("umap"),
    }
    errors = {}
    for what, call in extras.items():
        try:
            call()
            errors[what] = ""
        except MissingExtraError as error:
            errors[what] = str(error)
    heavy = sorted({name.partition(".")[0] for name in sys.modules} & set(HEAVY))
    return {
        "rows": len(exp.scalars),
        "built": built,
        "tabs": tabs,
        "importance_note": note,
        "extras": errors,
        "heavy": heavy,
    }


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    result = check(sys.argv[1])
    print(json.dumps(result))
    return 1 if result["heavy"] else 0


if __name__ == "__main__":
    sys.exit(main())
