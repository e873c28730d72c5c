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
