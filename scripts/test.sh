#!/usr/bin/env bash
# The README's test command: set everything up, then run the whole suite
# (loader, widgets, notebooks, real JupyterLab in headless Chromium, lint and types).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
