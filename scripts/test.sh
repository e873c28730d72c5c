#!/usr/bin/env bash
# Test run: sets up what is missing, typechecks, then runs every vitest project; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
. scripts/env.sh || exit 1

# Install when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || exit 1
fi
# Fast when the data is present: it only re-checks the sums.
node scripts/fetch-data.ts || exit 1

# The browser tests drive Debian's Chromium; install it when missing and apt can (as root, or with sudo).
# Without it they are skipped, and the test run says why.
if [ -z "${TAU2_EDGE_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    as_root=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then as_root="sudo -n"; fi
    if [ "$(id -u)" -eq 0 ] || [ -n "$as_root" ]; then
      echo "installing chromium for the browser tests (apt-get)"
      { $as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || echo "browser tests will be skipped: apt-get install chromium failed" >&2
    else
      echo "browser tests will be skipped: chromium is missing and apt-get needs root" >&2
    fi
  else
    echo "browser tests will be skipped: chromium is missing and there is no apt-get" >&2
  fi
fi

# Plain output when read by a program rather than a person.
if [ -n "${CI:-}" ] || [ ! -t 1 ]; then export NO_COLOR=1; fi

typecheck_status=0
npm run --silent typecheck || typecheck_status=$?
if [ "$typecheck_status" -ne 0 ]; then
  echo "typecheck failed (exit $typecheck_status); running the tests anyway" >&2
fi

npx vitest run --reporter=default --reporter=./test/plain-summary-reporter.ts
test_status=$?

if [ "$test_status" -ne 0 ]; then exit "$test_status"; fi
exit "$typecheck_status"
