#!/usr/bin/env bash
# Set up what tbnb's demo or its tests need, on a fresh machine or an existing checkout:
#
#   scripts/setup.sh demo   # .venv with tbnb (editable) and its demo extra: JupyterLab and
#                           # tensorboardX (the sample logdir's writer). Light and quick.
#   scripts/setup.sh test   # everything the suite needs: the dev extra (test writers, lint,
#                           # types, Notebook 7, Playwright), torch (CPU) from a local wheel,
#                           # the compiled kernels, Debian's chromium (as root), js/'s
#                           # node modules.
#
# Safe to run again: every step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${1:-test}
case "$PROFILE" in
  demo) EXTRAS="demo" ;;
  test) EXTRAS="dev" ;;
  *) echo "setup: unknown profile '$PROFILE' (demo or test)" >&2; exit 2 ;;
esac

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PYTHON" -m venv .venv
fi
PIP=(.venv/bin/python -m pip --disable-pip-version-check)

if [ "$PROFILE" = test ] && ! .venv/bin/python -c "import torch" 2>/dev/null; then
  # torch is large: take it only from a wheel already on this machine (pip's find-links), never
  # a multi-GB download. Without it the torch and Lightning writer tests skip locally and fail
  # under CI=true.
  if "${PIP[@]}" install -q --no-index --no-deps "torch==2.13.0" 2>/dev/null \
     && "${PIP[@]}" install -q "torch==2.13.0"; then
    echo "setup: installed torch (CPU)"
  else
    echo "setup: no local torch wheel; torch writer tests will be skipped"
  fi
fi
if [ "$PROFILE" = test ] && .venv/bin/python -c "import torch" 2>/dev/null; then
  EXTRAS="dev,torch"  # Lightning on top of the torch already installed
fi

# A C compiler for the native loader kernels (most machines have one; the tests need it).
if [ "$PROFILE" = test ] && ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1 \
   && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing gcc"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq gcc libc6-dev >/dev/null
fi

stamp=.venv/.tbnb-installed-${EXTRAS/,/-}
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "setup: installing tbnb[$EXTRAS] (editable)"
  "${PIP[@]}" install -q -e ".[$EXTRAS]"
  touch "$stamp"
fi
# The native loader kernels (C, compiled by the editable install): rebuilt here when their
# sources changed since (an existing checkout skips the install above). Without a compiler
# this warns and the loader uses its numba/numpy kernels.
.venv/bin/python -m tbnb.native || echo "setup: native kernels not built (no C compiler?)"
[ "$PROFILE" = demo ] && { echo "setup: done (demo)"; exit 0; }

# Compile the loader's numba kernels once into the user cache (a one-time cost of tens of
# seconds; afterwards every process loads them in well under a second). Loads never wait for
# this: without it, large loads decode with numpy and compile in the background.
.venv/bin/python -m tbnb.jit

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

# Node for the front ends' build and checks (esbuild, biome, typescript, from the npm registry).
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
then
  echo "setup: installing nodejs and npm"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
if command -v npm >/dev/null 2>&1 \
   && [ js/package-lock.json -nt js/node_modules/.package-lock.json ]; then
  echo "setup: installing js/ node modules"
  (cd js && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "setup: done (test)"
