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
# Safe to run again: every step is skipped when already done. Each step says what it does
# and how long it took; pip shows what it downloads and installs.
set -euo pipefail
cd "$(dirname "$0")/.."
STARTED=$SECONDS
STEP_STARTED=$SECONDS
# step "what": announce a step; done_step: say how long it took (and the total so far).
step() { STEP_STARTED=$SECONDS; echo "setup: $* ..."; }
done_step() {
  echo "setup:   done in $((SECONDS - STEP_STARTED)) s (setup so far: $((SECONDS - STARTED)) s)"
}
PROFILE=${1:-test}
case "$PROFILE" in
  demo) EXTRAS="demo" ;;
  test) EXTRAS="dev" ;;
  *) echo "setup: unknown profile '$PROFILE' (demo or test)" >&2; exit 2 ;;
esac

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  step "creating .venv with $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m venv .venv
  done_step
fi
PIP=(.venv/bin/python -m pip --disable-pip-version-check)
# pip's own lines say what it fetches and installs; progress bars only on a terminal.
[ -t 1 ] || export PIP_PROGRESS_BAR=off

if [ "$PROFILE" = test ] && ! .venv/bin/python -c "import torch" 2>/dev/null; then
  # torch is large: take it only from a wheel already on this machine (pip's find-links), never
  # a multi-GB download. Without it the torch and Lightning writer tests skip locally and fail
  # under CI=true.
  step "installing torch (CPU) from a local wheel, if this machine has one"
  if "${PIP[@]}" install -q --no-index --no-deps "torch==2.13.0" 2>/dev/null \
     && "${PIP[@]}" install -q "torch==2.13.0"; then
    echo "setup:   installed torch (CPU)"
  else
    echo "setup:   no local torch wheel; torch writer tests will be skipped"
  fi
  done_step
fi
if [ "$PROFILE" = test ] && .venv/bin/python -c "import torch" 2>/dev/null; then
  EXTRAS="dev,torch"  # Lightning on top of the torch already installed
fi

# A C compiler for the native loader kernels (most machines have one; the tests need it).
if [ "$PROFILE" = test ] && ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1 \
   && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  step "installing gcc (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq gcc libc6-dev >/dev/null
  done_step
fi

stamp=.venv/.tbnb-installed-${EXTRAS/,/-}
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  # The front ends come prebuilt (tbnb/static): no node or npm is needed here.
  step "installing tbnb[$EXTRAS] (editable) and its dependencies with pip"
  if ! "${PIP[@]}" install -e ".[$EXTRAS]" 2>&1 \
       | { grep -v "^Requirement already satisfied" || true; }; then
    echo "setup: pip failed (see above)" >&2
    exit 1
  fi
  touch "$stamp"
  done_step
fi
# The native loader kernels (C, compiled by the editable install): rebuilt here when their
# sources changed since (an existing checkout skips the install above). Without a compiler
# this warns and the loader uses its numpy kernels.
.venv/bin/python -m tbnb.native || echo "setup: native kernels not built (no C compiler?)"
if [ "$PROFILE" = demo ]; then
  echo "setup: done (demo) in $((SECONDS - STARTED)) s"
  exit 0
fi

# Compile the numba kernels (the projector's, and the large-data ones) once into the user
# cache: a one-time cost of a minute or two; afterwards a process loads them in well under
# a second. Nothing waits for this: without it, they compile in the background when needed.
step "compiling the numba kernels into the user cache (once per machine and version)"
.venv/bin/python -m tbnb.jit
done_step

# Chromium for the JupyterLab browser tests (Debian packages; never a browser download).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing chromium (apt)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
    done_step
  else
    echo "setup: chromium missing (as root: apt-get install -y chromium chromium-driver);" \
         "browser tests will be skipped"
  fi
fi

# Node for the front ends' build and checks (esbuild, biome, typescript, from the npm registry).
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
then
  step "installing nodejs and npm (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
  done_step
fi
if command -v npm >/dev/null 2>&1 \
   && [ js/package-lock.json -nt js/node_modules/.package-lock.json ]; then
  step "installing js/ node modules (npm ci)"
  (cd js && npm ci --no-audit --no-fund --loglevel=error)
  done_step
fi
echo "setup: done (test) in $((SECONDS - STARTED)) s"
