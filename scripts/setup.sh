#!/usr/bin/env bash
# Setup: installs Node (when needed) and the locked packages, then fetches and verifies the reference data.
# `npm ci` is skipped when node_modules was installed from this very package-lock.json (its sum is kept there).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

if [ -f package-lock.json ]; then
  installed=node_modules/.tau2-edge-lock.sha256
  lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ -f "$installed" ] && [ "$(cat "$installed")" = "$lock_sum" ]; then
    echo "node_modules matches package-lock.json: npm ci skipped"
  else
    npm ci --no-audit --no-fund
    echo "$lock_sum" > "$installed"
  fi
else
  npm install --no-audit --no-fund
fi
node scripts/fetch-data.ts
