#!/usr/bin/env bash
# Scores a spotter on a split of data/real/ (the hand-annotated real scans) with the official
# metrics: word detection (IoU 0.5, det), recognition (character accuracy of the matched words,
# detrec) and, after linking the spotted words with the bundled linker, word edges (detrecedges).
# Per image and in all. Learn on train, choose on dev, report test (data/real/README.md).
#
#   bash scripts/score-real.sh [SPOTTER] [SPLIT] [OUT]   (defaults: models/spotter, dev,
#                                                           build/score-real/SPLIT-<spotter name>)
# SPOTTER is a spotter folder, or `tesseract` (Tesseract 5, scripts/tesseract-words.py --turned).
# Settings (environment): THREADS=2, LIGHT=build/light, SPOT_ARGS="" (more `light spot` options).
set -euo pipefail
cd "$(dirname "$0")/.."
SPOTTER=${1:-models/spotter}
SPLIT=${2:-dev}
OUT=${3:-build/score-real/$SPLIT-$(basename "$SPOTTER")}
THREADS=${THREADS:-2} SPOT_ARGS=${SPOT_ARGS:-}
LIGHT=${LIGHT:-build/light}
GT=data/real/$SPLIT.json
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
[ -f "$GT" ] || { echo "$GT: no such split (train, dev, test)" >&2; exit 1; }
# A folder this script made before (it holds scores.txt) is scored again; any other is left alone.
if [ -e "$OUT" ] && [ ! -f "$OUT/scores.txt" ]; then
  echo "$OUT: exists and is not a score-real.sh output (no scores.txt); give a new OUT" >&2; exit 1
fi
rm -rf "$OUT"; mkdir -p "$OUT/images"
# Only the split's images: spot reads a folder.
for img in $(grep -o '"image": *"[^"]*"' "$GT" | sed 's/.*"\([^"]*\)"$/\1/'); do
  ln -s "$(pwd)/data/real/images/$img" "$OUT/images/$img"
done
if [ "$SPOTTER" = tesseract ]; then  # Tesseract 5 (--psm 11), read upright and turned a quarter either way
  command -v "${TESSERACT:-tesseract}" > /dev/null || { echo "tesseract: not installed (apt install tesseract-ocr)" >&2; exit 1; }
  "${PYTHON:-/usr/bin/python3}" scripts/tesseract-words.py "$OUT/images" "$OUT/words.json" --turned
else
  # shellcheck disable=SC2086
  "$LIGHT" spot --images "$OUT/images" --spotter "$SPOTTER" -o "$OUT/words.json" --threads "$THREADS" -q $SPOT_ARGS
fi
"$LIGHT" link --words "$OUT/words.json" --images "$OUT/images" -o "$OUT/linked.json" --threads "$THREADS" -q
score() { "$LIGHT" eval --gt "$GT" --pred "$1" --task "$2" --threads "$THREADS" --per-image "$OUT/$2-per-image.json"; }
{
  echo "spotter $SPOTTER, split $SPLIT ($GT)"
  echo "det:         $(score "$OUT/words.json" det)"
  echo "detrec:      $(score "$OUT/words.json" detrec)"
  echo "detrecedges: $(score "$OUT/linked.json" detrecedges)"
} | tee "$OUT/scores.txt"
# One line to compare runs by (det R / P / F, characters, edges F), then one per image.
"${PYTHON:-/usr/bin/python3}" - "$OUT" <<'PY' | tee -a "$OUT/scores.txt"
import json, os, sys
out = sys.argv[1]
rows = {l.split(':', 1)[0]: json.loads(l.split(':', 1)[1]) for l in open(os.path.join(out, 'scores.txt')) if l.startswith('det')}
d, e = rows['detrec'], rows['detrecedges']
print('summary: det R/P/F %.3f / %.3f / %.3f, characters %.3f, edges F %.3f'
      % (d['recall'], d['precision'], d['fscore'], d['char_accuracy'], e['edges_fscore']))
per = {k: json.load(open(os.path.join(out, k + '-per-image.json')))['images'] for k in ('detrec', 'detrecedges')}
for image, m in sorted(per['detrec'].items()):
    print('  %s: det R/P/F %.3f / %.3f / %.3f, characters %.3f, edges F %.3f'
          % (image, m['recall'], m['precision'], m['fscore'], m.get('char_accuracy', 0), per['detrecedges'][image].get('edges_fscore', 0)))
PY
