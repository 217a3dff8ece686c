#!/bin/bash
# Retakes the documentation's screenshots (docs/screenshots/*.png) with the build at hand, from a
# scratch HOME and workspace, under Xvfb, so they show what a new user sees. The workspace gets
# a quick CPU probe run, two custom profiles and two saved plans first.
#
#   scripts/screenshots.sh [--zh] [path/to/tally]        (default: build/release/app/tally)
#
# --zh takes the same pictures with the window in Simplified Chinese (tally --lang zh_CN) into
# docs/screenshots/zh_CN/, for README.zh_CN.md.
#
# docs/screenshots/bad-input.png needs typing into the window; see docs/DEVELOPING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
LANG_ARGS=()
OUT=docs/screenshots
if [ "${1:-}" = "--zh" ]; then
    LANG_ARGS=(--lang zh_CN)
    OUT=docs/screenshots/zh_CN
    shift
fi
BIN=$(realpath "${1:-build/release/app/tally}")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
TMP=$(mktemp -d)
export HOME=$TMP/home XDG_CONFIG_HOME= XDG_DATA_HOME=
mkdir -p "$HOME"
DISPLAY_NUMBER=${TALLY_SHOT_DISPLAY:-97}
Xvfb ":$DISPLAY_NUMBER" -screen 0 1600x1000x24 >/dev/null 2>&1 &
XPID=$!
trap 'kill $XPID 2>/dev/null; rm -rf "$TMP"' EXIT
export DISPLAY=":$DISPLAY_NUMBER"
sleep 1

WS=$TMP/workspace.sqlite
EX=resources/examples
"$BIN" probe --backend cpu --quick --db "$WS" >/dev/null 2>&1
"$BIN" profiles add --from h100-sxm --id h100-40gb --name "H100 40GB (copy)" \
    --memory-bytes 40e9 --price-per-gpu-hour 2.0 --db "$WS" >/dev/null
"$BIN" profiles add --from a100-80gb --id a100-capped --name "A100 80GB, power-capped" \
    --peak bf16=78e12 --tdp-w 250 --price-per-gpu-hour 1.2 --db "$WS" >/dev/null
"$BIN" plans save "$EX/llama-2-70b-2048-h100.json" --name "Llama 2 70B, 2048 H100" \
    --db "$WS" >/dev/null
"$BIN" plans save "$EX/seed-70b-15t-1024-h100.json" --name "CS336: 70B on 1024 H100" \
    --db "$WS" >/dev/null
# Llama 2 70B at micro-batch 4, the plan the Compare screenshot evaluates.
sed 's/"micro_batch": 1/"micro_batch": 4/' "$EX/llama-2-70b-2048-h100.json" > "$TMP/mb4.json"

shot() {  # NAME PANEL [more options]
    local name=$1 panel=$2
    shift 2
    "$BIN" "${LANG_ARGS[@]}" --screenshot "$OUT/$name.png" --panel "$panel" --db "$WS" "$@"
    echo "$OUT/$name.png"
}
shot memory memory
shot time time
shot roofline roofline
shot formats formats
shot profiles profiles
shot saved-plans plans
shot compare compare --spec "$TMP/mb4.json"
shot probe probe --probe-run 1
shot roofline-measured roofline --probe-run 1
for panel in $("$BIN" --help | sed -n 's/.*the panel in front (\(.*\))/\1/p' | tr -d ','); do
    case $panel in
        memory | time | roofline | formats | profiles | plans | compare | probe) ;;
        inference) shot inference inference --spec "$EX/llama-3-70b-serve-4xh100-fp8.json" ;;
        *) shot "$panel" "$panel" ;;
    esac
done
# Without --db the window gets an empty scratch workspace; this machine has no CUDA device.
"$BIN" "${LANG_ARGS[@]}" --screenshot "$OUT/probe-no-cuda.png" --panel probe
echo "$OUT/probe-no-cuda.png"
