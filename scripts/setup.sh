#!/usr/bin/env bash
# Setup: installs Node (when needed) and the locked packages, then fetches and verifies the reference data.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. scripts/env.sh

if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi
node scripts/fetch-data.ts
