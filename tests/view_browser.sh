#!/usr/bin/env bash
# `light view` pages driven in a real headless Chromium (tests/view_browser.js): the bundled tile
# linked by the bundled model with ground truth (verdicts, probabilities), and two synthetic tiles
# linked by the distance heuristic without. Skipped (77) without node or chromium, except under CI,
# where scripts/install-deps.sh has installed both and their absence is a failure.
#   bash tests/view_browser.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1 SRC=$2
LIGHT=$BUILD/light
OUT=$BUILD/view-test
for tool in node chromium; do
  if ! command -v "$tool" > /dev/null; then
    echo "view_browser: $tool is not installed (scripts/install-deps.sh installs it)" >&2
    [ "${CI:-}" = true ] && exit 1
    exit 77
  fi
done
rm -rf "$OUT"
mkdir -p "$OUT"
EX=$SRC/data/synth-example
"$LIGHT" link --words "$EX/annotations.json" --images "$EX" -o "$OUT/model.json" -q --threads 2
"$LIGHT" eval --gt "$EX/annotations.json" --pred "$OUT/model.json" --task detedges --counts | tail -1 > "$OUT/model-counts.json"
"$LIGHT" view --words "$OUT/model.json" --images "$EX" --gt "$EX/annotations.json" -o "$OUT/model-page" -q
node "$SRC/tests/view_browser.js" "$OUT/model-page" "$OUT/model.json" "$OUT/model-counts.json" ${SCREENSHOT:+"$SCREENSHOT"}

"$LIGHT" synth --out "$OUT/synth" --count 2 --seed 77 --size 1200 --density 1.5 -q
"$LIGHT" link --method distance --words "$OUT/synth/annotations.json" -o "$OUT/distance.json" -q
"$LIGHT" view --words "$OUT/distance.json" --images "$OUT/synth" -o "$OUT/distance-page" -q
echo null > "$OUT/none.json"
node "$SRC/tests/view_browser.js" "$OUT/distance-page" "$OUT/distance.json" "$OUT/none.json"
