#!/usr/bin/env bash
# ctest: scripts/train-default-model.sh --smoke runs end to end (synthetic data, a one-epoch first
# stage of a two-epoch schedule, a one-epoch second stage, calibration, the model folder), and the model it makes links every word of its validation tiles once.
set -euo pipefail
BUILD=$1 SOURCE=$2
OUT="$BUILD/smoke-default-model"
rm -rf "$OUT"
LIGHT="$BUILD/light" INSTALL="$OUT/model" THREADS=2 bash "$SOURCE/scripts/train-default-model.sh" --smoke "$OUT"
for f in config.json model.safetensors vocab.json merges.txt training-log.jsonl training-log-stage2.jsonl; do
  [ -f "$OUT/model/$f" ] || { echo "missing $OUT/model/$f" >&2; exit 1; }
done
grep -q '"successor_head"' "$OUT/model/config.json" || { echo "the model has no pairwise head" >&2; exit 1; }
grep -q '"window_word_height": 0.022' "$OUT/model/config.json" || { echo "the model has no scale windows" >&2; exit 1; }
grep -q '"focal_self_target": true' "$OUT/model/config.json" || { echo "the model is not the second stage's" >&2; exit 1; }
[ "$(wc -l < "$OUT/run/log.jsonl")" = 1 ] || { echo "the first stage ran $(wc -l < "$OUT/run/log.jsonl") epochs, not STOP1=1" >&2; exit 1; }
"$BUILD/light" link --model "$OUT/model" --words "$OUT/val/annotations.json" --images "$OUT/val/images" -o "$OUT/linked.json" -q
in=$(grep -o '"vertices"' "$OUT/val/annotations.json" | wc -l)
out=$(grep -o '"vertices"' "$OUT/linked.json" | wc -l)
[ "$in" = "$out" ] || { echo "linked $out words of $in" >&2; exit 1; }
echo "smoke: $in words linked by the smoke model"
rm -rf "$OUT"
