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
  ensure_browser_packages
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

# The browser tests drive Debian's Chromium (Playwright cannot download its own
# browsers here), and click its notifications on a private D-Bus session bus
# (dbus-daemon, and python3-gi for tests/browser/notification_daemon.py). As
# root, install what is missing; otherwise those tests skip and say why.
ensure_browser_packages() {
  local want=()
  [ -x "${ESCOBA_CHROMIUM:-/usr/bin/chromium}" ] || want+=(chromium)
  command -v dbus-daemon >/dev/null 2>&1 || want+=(dbus-daemon)
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import gi' >/dev/null 2>&1 || want+=(python3-gi)
  if [ ${#want[@]} = 0 ] || [ "$(id -u)" != 0 ]; then
    return 0
  fi
  if command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${want[*]} for the browser tests (apt-get)..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } \
      || echo "${want[*]} could not be installed: some browser tests will skip." >&2
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
