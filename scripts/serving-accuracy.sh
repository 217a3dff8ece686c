#!/usr/bin/env bash
# Regenerates docs/serving.md's accuracy table and resources/cases/serving_accuracy.json (the
# bands `tally infer` shows) from docs/cases/serving/*.json: builds the test that compares them
# with the predictions, runs it in its writing mode, rebuilds what embeds the table and checks.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build/release}"
ninja -C "$build" tst_serving_cases
TALLY_WRITE_SERVING_TABLE=1 "$build/tests/tst_serving_cases" accuracyTableIsCurrent \
  shippedBandsAreTheCasesToday
# Everything that embeds the table (tally, the window, the tests) picks up the new one.
ninja -C "$build"
"$build/tests/tst_serving_cases"
