#!/usr/bin/env bash
# Reproduces the bundled default model (models/light-small) from nothing: synthetic training and
# validation maps (`light synth`, every style and scale), then `light train` from random weights with
# the recipe below, then the best epoch copied into the model folder.
#
#   bash scripts/train-default-model.sh [OUT]      (default OUT: build/default-model)
#   bash scripts/train-default-model.sh --smoke OUT  (a few tiny tiles, the tiny config, one epoch: minutes)
#
# Reruns skip what is done; an interrupted training resumes from OUT/run/last; a run with at least
# EPOCHS epochs in its log goes straight to calibration and the model folder (EPOCHS=7 on the run
# stopped after its 7th epoch: what is bundled now, docs/default-model.md). On the reference machine
# (2 cores) the data take about 15 minutes, loading them 3, an epoch of 1,600 tiles 7-10 minutes.
# Settings (environment): TRAIN=1600 VAL=60 tiles, EPOCHS=14, LR=3e-4, WARMUP=300, DECAY=cosine, CONFIG=small,
# HEAD=pairwise, WINDOW=0.022 (median word height over a window's side), THREADS=0 (all cores),
# BIASES="1 2 3 3.5 4 4.5" (the no-successor factors tried on the validation tiles), INSTALL=models/light-small
# (where the result is copied; empty: nowhere), LIGHT=build/light.
set -euo pipefail
cd "$(dirname "$0")/.."
SMOKE=0
if [ "${1:-}" = "--smoke" ]; then SMOKE=1; shift; fi
OUT=${1:-build/default-model}
LIGHT=${LIGHT:-build/light}
if [ $SMOKE = 1 ]; then
  TRAIN=${TRAIN:-6} VAL=${VAL:-2} EPOCHS=${EPOCHS:-1} CONFIG=${CONFIG:-tiny} SIZE_ARGS="--size 600-1200" BIASES=${BIASES:-"1 3"}
  INSTALL=${INSTALL:-}
else
  TRAIN=${TRAIN:-1600} VAL=${VAL:-60} EPOCHS=${EPOCHS:-14} CONFIG=${CONFIG:-small} SIZE_ARGS=""
  INSTALL=${INSTALL-models/light-small}
fi
BIASES=${BIASES:-"1 2 3 3.5 4 4.5"}
LR=${LR:-3e-4} WARMUP=${WARMUP:-300} DECAY=${DECAY:-cosine} HEAD=${HEAD:-pairwise} WINDOW=${WINDOW:-0.022} THREADS=${THREADS:-0}
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$OUT"
start=$(date +%s)

# 1. Data: every map style, tile side, density and word height of `light synth`'s default.
[ -f "$OUT/train/annotations.json" ] || "$LIGHT" synth --out "$OUT/train" --count "$TRAIN" --seed 2101 $SIZE_ARGS --threads "$THREADS" --overwrite
[ -f "$OUT/val/annotations.json" ] || "$LIGHT" synth --out "$OUT/val" --count "$VAL" --seed 2111 $SIZE_ARGS --threads "$THREADS" --overwrite

# 2. Training from random weights (resumed when a run is under way).
RUN="$OUT/run"
done_epochs=$([ -f "$RUN/log.jsonl" ] && wc -l < "$RUN/log.jsonl" || echo 0)
if [ -f "$RUN/last/state.json" ] && [ "$done_epochs" -ge "$EPOCHS" ]; then
  echo "training: $done_epochs epoch(s) done (EPOCHS=$EPOCHS)"
elif [ -f "$RUN/last/state.json" ]; then
  "$LIGHT" train --resume "$RUN" --max-epochs "$EPOCHS" --threads "$THREADS"
else
  "$LIGHT" train --train "$OUT/train/annotations.json" --train-images "$OUT/train/images" \
    --val "$OUT/val/annotations.json" --val-images "$OUT/val/images" --out "$RUN" --overwrite \
    --tokenizer bytes --config "$CONFIG" --head "$HEAD" --window-word-height "$WINDOW" \
    --lr "$LR" --warmup-steps "$WARMUP" --lr-decay "$DECAY" --batch-size 2 --max-epochs "$EPOCHS" --seed 1 --threads "$THREADS"
fi

# 3. Decoding calibrated on the validation tiles: the factor on each word's "no successor"
#    probability with the best link F (docs/default-model.md).
best_bias=1 best_f=-1
for b in $BIASES; do
  "$LIGHT" link --model "$RUN/best" --words "$OUT/val/annotations.json" --images "$OUT/val/images" \
    --no-successor-bias "$b" -o "$OUT/calibrate-$b.json" -q --threads "$THREADS" 2> /dev/null
  f=$("$LIGHT" eval --gt "$OUT/val/annotations.json" --pred "$OUT/calibrate-$b.json" --task detedges | grep -o '"edges_fscore": [0-9.e-]*' | awk '{ print $2 }')
  echo "calibration: no-successor bias $b: validation edges F $f"
  if awk -v f="$f" -v b="$best_f" 'BEGIN { exit !(f > b) }'; then best_bias=$b best_f=$f; fi
done
echo "calibration: no-successor bias $best_bias (validation edges F $best_f)"

# 4. The best epoch (lowest validation loss) with that bias is the model.
if [ -n "$INSTALL" ]; then
  mkdir -p "$INSTALL"
  cp "$RUN/best/model.safetensors" "$RUN/best/vocab.json" "$RUN/best/merges.txt" "$INSTALL/"
  grep -v '"no_successor_bias"' "$RUN/best/config.json" | sed "1a\\ \"no_successor_bias\": $best_bias," > "$INSTALL/config.json.tmp"
  mv "$INSTALL/config.json.tmp" "$INSTALL/config.json"
  cp "$RUN/log.jsonl" "$INSTALL/training-log.jsonl"
  echo "model: $INSTALL"
fi
echo "train-default-model: done in $(( ($(date +%s) - start) / 60 )) min (this call); run log: $RUN/log.jsonl"
