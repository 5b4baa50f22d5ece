#!/usr/bin/env bash
# The project's two entry points on a fresh machine (Python 3.11+, Node/npm):
#   bash dev.sh run    set up what serving needs, then run the app (SQLite by default)
#   bash dev.sh test   set up everything the tests need too, then run ruff, mypy, lint-imports and the suite
#   bash dev.sh test tests/engine   (any test file or folder) those tests alone, without the
#                      whole tree's checks: seconds for one room (the full run and CI check the tree)
# Set-up is idempotent: a virtualenv in .venv with the pinned packages of
# requirements.lock (`run`: the app's own; `test`: with the dev extras), and
# the front-end packages of package-lock.json (`run`: without the devDependencies).
# Each step says what it does on stderr; a step already done is skipped.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON=${PYTHON:-python3}
VENV=.venv

say() {
  echo "dev.sh: $*" >&2
}

# What is installed is kept in a stamp, "<hash of the pins> <kind>": `serve`
# (what `run` needs) or `dev` (`test`'s, which serves too).
installed() {
  local stamp=$1 want=$2 kind=$3 have
  [ -f "$stamp" ] || return 1
  have=$(cat "$stamp")
  [ "$have" = "$want dev" ] || [ "$have" = "$want $kind" ]
}

# $1: serve (the app's packages) or dev (and the tests' tools)
setup_python() {
  local kind=$1
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating the virtualenv ($VENV)"
    "$PYTHON" -m venv "$VENV"
  fi
  local stamp="$VENV/.escoba-installed"
  local want
  want=$(cat pyproject.toml requirements.lock | sha256sum | cut -d' ' -f1)
  if ! installed "$stamp" "$want" "$kind"; then
    local target=. what="the app's Python packages"
    if [ "$kind" = dev ]; then
      target='.[dev]' what="the Python packages, with the tests' tools"
    fi
    say "installing $what (requirements.lock)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      -c requirements.lock -e "$target"
    echo "$want $kind" > "$stamp"
  fi
}

NPM_STAMP=node_modules/.escoba-installed

npm_pins() {  # the lock, and .npmrc's choices
  cat package-lock.json .npmrc 2>/dev/null | sha256sum | cut -d' ' -f1
}

# $1: serve (package.json's dependencies) or dev (and its devDependencies)
setup_front_end() {
  local kind=$1
  # .npmrc leaves out the peer dependencies (Redoc's React and the like: we
  # serve its standalone bundle only) and runs no package's install script;
  # an --omit on the command line replaces .npmrc's, so `peer` is said again.
  local args=(ci --no-audit --no-fund --loglevel=error)
  if [ "$kind" = serve ]; then
    args+=(--omit=dev --omit=peer)
    say "installing the front-end packages (npm ci --omit=dev)"
  else
    say "installing the front-end packages (npm ci)"
  fi
  npm "${args[@]}"
  echo "$(npm_pins) $kind" > "$NPM_STAMP"
}

# Both set-ups at once: npm's in the background, from the start, while the
# virtualenv is made and pip installs; then wait for it (a failure of
# either ends this script, after its own words).
setup() {
  local kind=$1 front_end=
  if [ -f package.json ] && ! installed "$NPM_STAMP" "$(npm_pins)" "$kind"; then
    if ! command -v npm >/dev/null 2>&1; then
      say "npm is needed for the front-end packages (htmx, package.json): install Node.js and npm"
      exit 1
    fi
    setup_front_end "$kind" &
    front_end=$!
  fi
  setup_python "$kind"
  if [ -n "$front_end" ]; then
    wait "$front_end"
  fi
}

# The browser tests drive Debian's Chromium (Playwright cannot download its own
# browsers here), and click its notifications on a private D-Bus session bus
# (dbus-daemon, and python3-gi for tests/browser/notification_daemon.py). As
# root, install what is missing; otherwise those tests skip and say why.
# Only `test` needs them: `run` never installs them.
ensure_browser_packages() {
  local want=()
  [ -x "${ESCOBA_CHROMIUM:-/usr/bin/chromium}" ] || want+=(chromium)
  command -v dbus-daemon >/dev/null 2>&1 || want+=(dbus-daemon)
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import gi' >/dev/null 2>&1 || want+=(python3-gi)
  if [ ${#want[@]} = 0 ] || [ "$(id -u)" != 0 ]; then
    return 0
  fi
  if command -v apt-get >/dev/null 2>&1; then
    say "installing ${want[*]} for the browser tests (apt-get)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } \
      || say "${want[*]} could not be installed: some browser tests will skip"
  fi
}

# Whether pytest's arguments name tests of their own (a file, a folder, or
# a test's node id `file::name`): then only those run, without the checks.
names_tests() {
  local arg
  for arg in "$@"; do
    case "$arg" in -*) continue ;; esac
    [ -e "${arg%%::*}" ] && return 0
  done
  return 1
}

cmd=${1:-}
shift || true
case "$cmd" in
  run)
    setup serve
    exec "$VENV/bin/escoba" serve "$@"
    ;;
  test)
    setup dev
    ensure_browser_packages
    if ! names_tests "$@"; then
      "$VENV/bin/ruff" check src tests bench
      "$VENV/bin/ruff" format --check src tests bench
      "$VENV/bin/mypy" src
      "$VENV/bin/lint-imports" --no-cache
    fi
    exec "$VENV/bin/pytest" "$@"
    ;;
  *)
    echo "usage: bash dev.sh run|test [args]" >&2
    exit 2
    ;;
esac
