#!/usr/bin/env bash
# Runs examples/ as a user of the package would: packs Faultline (built first), installs the tarball into
# a new temporary project together with vitest, TypeScript and the examples' own dependencies (from the registry),
# checks that the installed CLI runs without a TypeScript loader, type-checks the examples against the packed
# type declarations, and runs them.
#
#   scripts/examples-ci.sh [NODE]      NODE: the node binary to run everything with (default: node on PATH)
#   FAULTLINE_TGZ=path.tgz scripts/examples-ci.sh [NODE]   reuse a tarball already packed (scripts/node-matrix.sh)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
node_bin=${1:-node}
work=$(mktemp -d "${TMPDIR:-/tmp}/faultline-examples-XXXXXX")
trap 'rm -rf "$work"' EXIT

cd "$root"
tgz=${FAULTLINE_TGZ:-}
if [[ -z "$tgz" ]]; then
  npm run --silent build
  tgz="$work/$(npm pack --ignore-scripts --pack-destination "$work" --loglevel=error | tail -n 1)"
fi
# The examples' tools at the versions this repository tests with; server-memory pinned for repeatable runs.
dev() { node -p "require('./package.json').devDependencies['$1'] ?? require('./package.json').dependencies['$1']"; }
deps=(
  "$tgz"
  "vitest@$(dev vitest)"
  "typescript@$(dev typescript)"
  "@types/node@$(dev @types/node)"
  "@modelcontextprotocol/sdk@$(dev @modelcontextprotocol/sdk)"
  "@modelcontextprotocol/server-memory@2026.8.31"
)

project="$work/project"
mkdir -p "$project"
cp -R examples "$project/examples"
cd "$project"
cat > package.json <<'JSON'
{ "name": "faultline-examples", "private": true, "type": "module" }
JSON
cat > tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": false,
    "types": ["node"]
  },
  "include": ["examples"]
}
JSON
echo "examples-ci: installing $(basename "$tgz") into $project"
npm install --no-audit --no-fund --loglevel=error "${deps[@]}"

echo "examples-ci: $("$node_bin" --version), faultline $("$node_bin" node_modules/faultline/bin/faultline.js --version)"
if [[ -e node_modules/tsx ]]; then
  echo "examples-ci: tsx was installed with the package; it must not be a runtime dependency" >&2
  exit 1
fi
"$node_bin" node_modules/faultline/bin/faultline.js --help > /dev/null
"$node_bin" node_modules/faultline/bin/faultline.js validate node_modules/faultline/chaos-profiles
"$node_bin" node_modules/typescript/bin/tsc -p tsconfig.json
echo "examples-ci: types ok"
"$node_bin" node_modules/vitest/vitest.mjs run --root . --dir examples --maxWorkers 2
