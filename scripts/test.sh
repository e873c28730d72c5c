#!/usr/bin/env bash
# Test run: sets up what is missing, then runs the test tiers (every one, or those named: see scripts/test-tiers.ts)
# with the typecheck beside them; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
. scripts/env.sh || exit 1

# The reference data (fast when present: it only re-checks the sums) needs Node alone, not node_modules: on a
# fresh clone its download runs beside the install.
node scripts/fetch-data.ts &
data_pid=$!
# Install when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || { wait "$data_pid"; exit 1; }
fi
wait "$data_pid" || exit 1

# Installs Debian packages when apt can (as root, or with sudo); otherwise says what follows ($1).
apt_install() {
  local without="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then echo "$without: there is no apt-get" >&2; return; fi
  local as_root=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then as_root="sudo -n"; fi
  if [ "$(id -u)" -ne 0 ] && [ -z "$as_root" ]; then echo "$without: apt-get needs root" >&2; return; fi
  echo "installing $* (apt-get)"
  { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq "$@"; } >/dev/null 2>&1 \
    || echo "$without: apt-get install $* failed" >&2
}

# The browser tests drive Debian's Chromium; without it they are skipped, and the test run says why.
if [ -z "${TAU2_EDGE_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  apt_install "browser tests will be skipped: chromium is missing" chromium
fi
# The Python client's tests run /usr/bin/python3 with Debian's websockets.
if ! /usr/bin/python3 -c 'import websockets' >/dev/null 2>&1; then
  apt_install "Python client tests will fail: python3-websockets is missing" python3-websockets
fi
# The Python package's tests install its wheel into a fresh virtual environment of /usr/bin/python3.
if ! /usr/bin/python3 -c 'import venv' >/dev/null 2>&1 || ! /usr/bin/python3 -m pip --version >/dev/null 2>&1; then
  apt_install "Python package tests will fail: python3-venv or python3-pip is missing" python3-venv python3-pip
fi

# Plain output when read by a program rather than a person.
if [ -n "${CI:-}" ] || [ ! -t 1 ]; then export NO_COLOR=1; fi

# The typecheck runs beside the tests (one core for a short while); its output follows them, so that the test
# summary stays the last line of stdout.
typecheck_log="$(mktemp)"
npm run --silent typecheck >"$typecheck_log" 2>&1 &
typecheck_pid=$!

node scripts/test-tiers.ts "$@"
test_status=$?

typecheck_status=0
wait "$typecheck_pid" || typecheck_status=$?
if [ "$typecheck_status" -ne 0 ]; then
  cat "$typecheck_log" >&2
  echo "typecheck failed (exit $typecheck_status)" >&2
fi
rm -f "$typecheck_log"

if [ "$test_status" -ne 0 ]; then exit "$test_status"; fi
exit "$typecheck_status"
