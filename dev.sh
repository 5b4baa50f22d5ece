#!/usr/bin/env bash
# The project's two entry points on a fresh machine (Python 3.11+, Node/npm):
#   bash dev.sh run    set everything up, then run the app (SQLite by default)
#   bash dev.sh test   set everything up, then run ruff, mypy and the test suite
# Set-up is idempotent: a virtualenv in .venv with the pinned packages of
# requirements.lock, and the front-end packages of package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
VENV=.venv

setup() {
  if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
  fi
  local stamp="$VENV/.escoba-installed"
  local want
  want=$(cat pyproject.toml requirements.lock | sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$VENV/bin/python" -m pip install --quiet --upgrade pip
    "$VENV/bin/python" -m pip install --quiet -c requirements.lock -e '.[dev]'
    echo "$want" > "$stamp"
  fi
  if [ -f package.json ]; then
    local nstamp=node_modules/.escoba-installed
    local nwant
    nwant=$(sha256sum package-lock.json | cut -d' ' -f1)
    if [ ! -f "$nstamp" ] || [ "$(cat "$nstamp")" != "$nwant" ]; then
      npm ci --no-audit --no-fund --loglevel=error
      echo "$nwant" > "$nstamp"
    fi
  fi
}

cmd=${1:-}
shift || true
case "$cmd" in
  run)
    setup
    exec "$VENV/bin/escoba" serve "$@"
    ;;
  test)
    setup
    "$VENV/bin/ruff" check src tests bench
    "$VENV/bin/ruff" format --check src tests bench
    "$VENV/bin/mypy" src
    exec "$VENV/bin/pytest" "$@"
    ;;
  *)
    echo "usage: bash dev.sh run|test [args]" >&2
    exit 2
    ;;
esac
