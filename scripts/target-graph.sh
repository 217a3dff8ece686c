#!/usr/bin/env bash
# Rewrites the target graph in docs/DEVELOPING.md (between its target-graph markers) from the
# graph CMake writes at configure time (build/release/target_graph.md, cmake/TallyLayers.cmake).
# ctest's `layering` test fails until the two agree.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build/release}"
cmake -S "$root" -B "$build" >/dev/null
graph="$build/target_graph.md"
doc="$root/docs/DEVELOPING.md"
tmp="$(mktemp "$doc.XXXXXX")"
awk -v graph="$graph" '
  /<!-- target-graph:begin -->/ { print; while ((getline line < graph) > 0) print line; skip = 1; next }
  /<!-- target-graph:end -->/ { skip = 0 }
  !skip { print }
' "$doc" > "$tmp"
mv "$tmp" "$doc"
echo "docs/DEVELOPING.md: target graph rewritten from $graph"
