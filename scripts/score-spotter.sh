#!/usr/bin/env bash
# Scores a spotter (light spot) beside Tesseract 5 (its word boxes, --psm 11) on held-out synthetic
# test sets of every scale band and map style (the seeds of score-model.sh, never used in training),
# with the official metrics: word detection (IoU 0.5), recognition (char accuracy of matched words),
# and link F after linking the spotted words with the bundled model (detrecedges) beside linking the
# ground-truth words (detedges), and beside the best any linker could do on the spotted words
# (scripts/perfect-linker.py); with 95 % intervals over the tiles for detection F and for the gap
# between the two links (scripts/tile-intervals.py). docs/spotter.md holds the result.
#
#   bash scripts/score-spotter.sh [SPOTTER] [OUT]     (defaults: models/spotter, build/score-spotter;
#                                                       build/score-spotter-seed+N with SEED_SHIFT=N)
#
# Writes OUT/table.md. Settings (environment): COUNT=10 tiles a set, THREADS=0, LIGHT=build/light;
# SEED_SHIFT=0 (20: fresh tiles of the same styles, seeds 3121-3130, on which no setting was chosen;
# 40: a third such draw, seeds 3141-3150; 60: a fourth, seeds 3161-3170);
# PYTHON=/usr/bin/python3 (Debian's, with python3-numpy: perfect-linker.py and tile-intervals.py
# need numpy);
# TESSERACT=tesseract (a column is left out when it is not installed: apt install tesseract-ocr).
set -euo pipefail
cd "$(dirname "$0")/.."
SPOTTER=${1:-models/spotter}
COUNT=${COUNT:-10} THREADS=${THREADS:-0} SEED_SHIFT=${SEED_SHIFT:-0}
OUT=${2:-build/score-spotter$([ "$SEED_SHIFT" = 0 ] || echo "-seed+$SEED_SHIFT")}
LIGHT=${LIGHT:-build/light}
TESSERACT=${TESSERACT:-tesseract}
PYTHON=${PYTHON:-/usr/bin/python3}
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
command -v "$TESSERACT" > /dev/null || TESSERACT=""
mkdir -p "$OUT"

source scripts/test-sets.sh
SETS=("${SETS[@]:0:10}")  # every style and scale band (the spotter-prediction sets are for linkers)

# Tesseract's word boxes (level 5 of its TSV, --psm 11) of every image -> MapText predictions.
tesseract_words() {  # IMAGES_DIR OUT_JSON
  "$PYTHON" scripts/tesseract-words.py "$1/images" "$2" --prefix images/
}

metric() {  # EVAL_JSON_LINE KEY -> percent
  python3 -c "import json,sys; print('%.1f' % (100*json.loads(sys.argv[1])[sys.argv[2]]))" "$1" "$2"
}

shifted() {  # a set's synth arguments with its seed moved by SEED_SHIFT
  local args=$1
  [[ $args =~ --seed\ ([0-9]+) ]] && args=${args/--seed ${BASH_REMATCH[1]}/--seed $((BASH_REMATCH[1] + SEED_SHIFT))}
  echo "$args"
}
# A set's tiles are made once and kept; tiles made with other arguments (another SEED_SHIFT or COUNT
# into the same OUT) are not scored as these: refused before anything is written.
i=0
for s in "${SETS[@]}"; do
  i=$((i + 1)) made="$OUT/set$i/synth-args" args="--count $COUNT $(shifted "${s#*|}")"
  if [ -f "$made" ] && [ "$(cat "$made")" != "$args" ]; then
    echo "$OUT/set$i: its tiles were made with $(cat "$made"), not $args: give another OUT" >&2
    exit 1
  fi
done

{
  echo "| test set | words | spotter: det F / P / R | char acc. | Tesseract: det F | char acc. | link F: spotted words | spotted, perfect linker | ground-truth words | 95 % over tiles: det F; gap |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$OUT/table.md"
i=0
for s in "${SETS[@]}"; do
  i=$((i + 1))
  name=${s%%|*} args=${s#*|}
  args=$(shifted "$args")
  dir="$OUT/set$i"
  if [ ! -f "$dir/annotations.json" ]; then
    "$LIGHT" synth --count "$COUNT" $args --out "$dir" -q
    echo "--count $COUNT $args" > "$dir/synth-args"
  fi
  "$LIGHT" spot --spotter "$SPOTTER" --images "$dir" -o "$dir/spotted.json" --threads "$THREADS" -q
  det=$("$LIGHT" eval --gt "$dir/annotations.json" --pred "$dir/spotted.json" --task detrec | head -1)
  "$LIGHT" link --words "$dir/spotted.json" --images "$dir" -o "$dir/spotted-linked.json" --threads "$THREADS" -q
  e2e=$("$LIGHT" eval --gt "$dir/annotations.json" --pred "$dir/spotted-linked.json" --task detrecedges | head -1)
  "$PYTHON" scripts/perfect-linker.py "$dir/annotations.json" "$dir/spotted.json" "$dir/spotted-perfect.json"
  best=$("$LIGHT" eval --gt "$dir/annotations.json" --pred "$dir/spotted-perfect.json" --task detrecedges | head -1)
  "$LIGHT" link --words "$dir/annotations.json" --images "$dir" -o "$dir/gt-linked.json" --threads "$THREADS" -q
  ref=$("$LIGHT" eval --gt "$dir/annotations.json" --pred "$dir/gt-linked.json" --task detedges | head -1)
  tess_f="-" tess_c="-"
  if [ -n "$TESSERACT" ]; then
    tesseract_words "$dir" "$dir/tesseract.json"
    t=$("$LIGHT" eval --gt "$dir/annotations.json" --pred "$dir/tesseract.json" --task detrec | head -1)
    tess_f=$(metric "$t" fscore) tess_c=$(metric "$t" char_accuracy)
  fi
  iv=$("$PYTHON" scripts/tile-intervals.py "$LIGHT" "$dir/annotations.json" "$dir/spotted.json" "$dir/spotted-linked.json" "$dir/gt-linked.json")
  iv=$(python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('%.1f-%.1f; %.1f (%.1f-%.1f)' % (*d['det_fscore'][1:], *d['gap']))" "$iv")
  words=$(python3 -c "import json,sys; print(sum(len(g) for t in json.load(open(sys.argv[1])) for g in t['groups']))" "$dir/annotations.json")
  echo "| $name | $words | $(metric "$det" fscore) / $(metric "$det" precision) / $(metric "$det" recall) | $(metric "$det" char_accuracy) | $tess_f | $tess_c | $(metric "$e2e" edges_fscore) | $(metric "$best" edges_fscore) | $(metric "$ref" edges_fscore) | $iv |" >> "$OUT/table.md"
  echo "score-spotter: $name done" >&2
done
cat "$OUT/table.md"
