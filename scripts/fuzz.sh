#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with clang, ASan and UBSan (the `fuzz` preset,
# in build/fuzz) and runs each for SECONDS (default 60). New inputs go to build/fuzz/corpus/<harness>
# (seeded from tests/fuzz/corpus/<harness>); a crash is written to build/fuzz/findings/<harness>/
# and stops that harness. Prints a table: harness, seconds, executions, findings.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]     e.g. scripts/fuzz.sh 180 spec_json hf_config
#
# Environment: JOBS (build jobs, default 2), FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
shift || true
all=(spec_json hf_config einsum op_spec number_formats probe_protocol hardware_profile probe_import training_log)
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=("${all[@]}")
fi

build="$root/build/fuzz"
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake --preset fuzz -S "$root" -G Ninja "${launcher[@]}" > /dev/null
targets=()
for h in "${harnesses[@]}"; do
  targets+=("fuzz_$h")
done
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}"

summary="$build/last-run.md"
printf '| Harness | Seconds | Executions | Findings |\n|---|---|---|---|\n' > "$summary"
status=0
for h in "${harnesses[@]}"; do
  corpus="$build/corpus/$h"
  findings="$build/findings/$h"
  mkdir -p "$corpus" "$findings"
  log="$build/fuzz_$h.log"
  echo "== fuzz_$h for ${seconds}s"
  set +e
  # -max_total_time stops the run; -artifact_prefix keeps crash inputs apart per harness.
  # halt_on_error/abort_on_error: UBSan reports abort, so libFuzzer saves the input.
  UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1 \
    "$build/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings/" ${FUZZ_ARGS:-} \
    "$corpus" "$root/tests/fuzz/corpus/$h" > "$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "$findings" -type f | wc -l)
  printf '| %s | %s | %s | %s |\n' "$h" "$seconds" "${execs:-?}" "$found" >> "$summary"
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "   finding(s) in $findings (log: $log)"
    status=1
  fi
done
cat "$summary"
exit $status
