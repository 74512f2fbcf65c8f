#!/usr/bin/env bash
# Set up everything tbnb's demo and tests need, on a fresh machine or an existing checkout:
#   - .venv with tbnb installed editable, with its test and dev extras;
#   - torch (CPU) for the torch.utils.tensorboard writer tests, when a local wheel is available;
#   - Debian's chromium for the real-browser widget tests (when running as root).
# Safe to run again: every step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
PIP=(.venv/bin/python -m pip --disable-pip-version-check)
"${PIP[@]}" install -q --upgrade pip

stamp=.venv/.tbnb-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing tbnb[dev] (editable)"
  "${PIP[@]}" install -q -e ".[dev]"
  touch "$stamp"
fi

# torch is large: take it only from a wheel already on this machine (pip's find-links), never a
# multi-GB download. Without it the torch-writer tests skip locally and fail under CI=true.
if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  if "${PIP[@]}" install -q --no-index --no-deps "torch==2.13.0" 2>/dev/null \
     && "${PIP[@]}" install -q "torch==2.13.0"; then
    echo "setup: installed torch (CPU)"
  else
    echo "setup: no local torch wheel; torch writer tests will be skipped"
  fi
fi

# Compile the loader's numba kernels once into their on-disk cache (a one-time cost of tens of
# seconds; afterwards every process loads them in well under a second).
.venv/bin/python -c "from tbnb.io.records import scan_records; from tbnb.decode.warmup import warm_decoder; \
scan_records(b''); warm_decoder().join()"

# Chromium for the JupyterLab browser tests (Debian packages; never a browser download).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing chromium"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
  else
    echo "setup: chromium missing (as root: apt-get install -y chromium chromium-driver);" \
         "browser tests will be skipped"
  fi
fi
echo "setup: done"
