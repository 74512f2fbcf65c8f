#!/usr/bin/env bash
# tbnb demo: set up, write the sample logdir, open JupyterLab on demo/quickstart.ipynb, a
# copy of notebooks/quickstart.ipynb (demo/tour.ipynb, beside it, shows every kind of data
# on the same sample). The copies are git-ignored and made once: run, edit and save them
# freely; the tracked notebooks never change (delete demo/ to start again from them).
#
#   ./scripts/demo.sh                  # JupyterLab on 127.0.0.1 (opens a browser when there is a display)
#   DEMO_SMOKE=1 ./scripts/demo.sh     # run the quick start and the tour headless instead (CI)
#   DEMO_PORT=8899 ./scripts/demo.sh   # pick the port (default: a free one)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

bash scripts/setup.sh demo
PY=$ROOT/.venv/bin/python
# This checkout's tbnb, whether or not it is installed in .venv.
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"

STARTED=$SECONDS
echo "demo: preparing the sample logdir (written once with tensorboardX, then cached) ..."
LOGDIR=$("$PY" -c "from tbnb.notebook.samples import sample_logdir; print(sample_logdir())")
echo "demo: sample logdir: $LOGDIR ($((SECONDS - STARTED)) s)"

# JupyterLab saves what it runs: it gets copies, so the tracked notebooks stay as they are.
mkdir -p demo
for nb in notebooks/*.ipynb; do
  [ -e "demo/${nb##*/}" ] || cp "$nb" "demo/${nb##*/}"
done

if [ "${DEMO_SMOKE:-0}" = "1" ]; then
  echo "demo: DEMO_SMOKE=1: running demo/quickstart.ipynb and demo/tour.ipynb headless"
  "$PY" - <<'PYEOF'
import sys
import time

import nbformat
from nbclient import NotebookClient

for path, min_widgets in (("demo/quickstart.ipynb", 3), ("demo/tour.ipynb", 13)):
    nb = nbformat.read(path, as_version=4)
    print(f"demo: running {path} in a fresh kernel ...", flush=True)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": "demo"}}).execute()
    code = [c for c in nb.cells if c.cell_type == "code"]
    widgets = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                  for c in code for o in c.outputs)
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    if errors or widgets < min_widgets:
        sys.exit(f"demo smoke FAILED ({path}): {len(errors)} errors, {widgets} widget outputs")
    print(f"demo smoke OK ({path}): {len(code)} code cells ran, {widgets} widgets shown, "
          f"{time.perf_counter() - t0:.1f} s")
PYEOF
  exit 0
fi

PORT=${DEMO_PORT:-$("$PY" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
TOKEN=$("$PY" -c "import secrets; print(secrets.token_hex(16))")
ARGS=(--ip=127.0.0.1 "--port=$PORT" --ServerApp.port_retries=0 "--IdentityProvider.token=$TOKEN"
      "--ServerApp.root_dir=$ROOT")
if [ "$(uname -s)" != "Darwin" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  ARGS+=(--no-browser)
  echo "demo: no display found: not opening a browser"
fi
if [ "$(id -u)" = "0" ]; then
  ARGS+=(--allow-root)
fi
URL="http://127.0.0.1:$PORT/lab/tree/demo/quickstart.ipynb?token=$TOKEN"
echo
echo "demo: open $URL"
echo "demo: (Ctrl+C stops JupyterLab)"
echo
exec "$ROOT/.venv/bin/jupyter-lab" "${ARGS[@]}" demo/quickstart.ipynb
