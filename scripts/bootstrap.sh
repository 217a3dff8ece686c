#!/usr/bin/env bash
# Tally's one entry point for a fresh Debian 12 machine (run as root, or with sudo available):
#   scripts/bootstrap.sh run    install what is missing, build, start Tally on its default plan
#   scripts/bootstrap.sh test   install what is missing, build, run every test
set -euo pipefail

mode="${1:-run}"
case "$mode" in
  run|test) ;;
  *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build/release}"

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6sql6-sqlite libxkbcommon-dev
  libsqlite3-dev nlohmann-json3-dev libcli11-dev libfmt-dev libbenchmark-dev libopenblas-dev
  libtomlplusplus-dev libyaml-cpp-dev
  xvfb xauth fonts-dejavu-core
  qt6-l10n-tools qt6-translations-l10n fonts-noto-cjk
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "tally: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

jobs="$(nproc 2>/dev/null || echo 2)"
# Warnings are errors here (-Wall -Wextra -Wpedantic, CMakeLists.txt): a new warning fails the
# test command, as it fails CI.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DTALLY_WERROR=ON
cmake --build "$build" -j "$jobs"

if [ "$mode" = test ]; then
  ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 600
  # Speed is measured, not asserted: print the evaluate() benchmark's medians.
  if [ -x "$build/tests/bench_evaluate" ]; then
    "$build/tests/bench_evaluate" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
  fi
  exit 0
fi

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/app/tally"
fi
echo "tally: no display (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open here."
echo "tally: here is the built-in default plan in the terminal; run $build/app/tally on a desktop"
echo "tally: for the window, or 'xvfb-run -a $build/app/tally --screenshot tally.png' for a picture."
echo
exec "$build/app/tally" plan "$root/resources/examples/seed-70b-15t-1024-h100.json"
