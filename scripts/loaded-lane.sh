#!/usr/bin/env bash
# The loaded lane: the default suite and a fixed subset of the e2e tests beside `stress-ng --cpu 2`, as a busy CI
# runner would run them. Every count must hold there as on a quiet machine: the tests assert counts, verdicts of
# count thresholds and the presence of time bounds, and test/e2e/default-suite.test.ts fails on any count threshold
# judged inconclusive.
#
#   scripts/loaded-lane.sh [TEST FILE...]    default: the subset below
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v stress-ng >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null
fi
files=("$@")
[[ ${#files[@]} -eq 0 ]] && files=(
  test/e2e/default-suite.test.ts
  test/e2e/verdict-counts.test.ts
  test/e2e/known-answers.test.ts
  test/e2e/inert.test.ts
  test/e2e/application.test.ts
)
stress-ng --cpu 2 --timeout 3600s --quiet &
burners=$!
trap 'kill "$burners" 2>/dev/null; wait "$burners" 2>/dev/null || true' EXIT
sleep 2
echo "loaded lane: stress-ng --cpu 2 beside ${files[*]} (load $(cut -d' ' -f1-3 /proc/loadavg))"
# Two test files at once, as the lane was measured (vitest.config.ts runs three elsewhere).
FAULTLINE_TEST_WORKERS=2 npx vitest run "${files[@]}"
echo "loaded lane: done (load $(cut -d' ' -f1-3 /proc/loadavg))"
