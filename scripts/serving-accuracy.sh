#!/usr/bin/env bash
# Regenerates docs/serving.md's accuracy table from docs/cases/serving/*.json: builds the test
# that compares them with the predictions and runs it in its writing mode.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build/release}"
ninja -C "$build" tst_serving_cases
TALLY_WRITE_SERVING_TABLE=1 "$build/tests/tst_serving_cases" accuracyTableIsCurrent
"$build/tests/tst_serving_cases"
