#!/usr/bin/env bash
# Continues a linker model (the bundled one by default) on synthetic maps whose names on several lines
# are set as real sheets set them (`light synth --stacks real`: unaligned, indented and staggered lines,
# tight and loose spacing, a line in smaller or larger letters, lines at angles of their own; issue 70,
# docs/synth.md), then chooses its decoding on validation tiles of the same kind: the alignment prior
# (a factor that assumed a name's lines line up), the reading prior on a candidate above, and the
# factor on "no successor", the triple with the best link F.
#
#   bash scripts/fine-tune-stacks.sh [OUT]       (default OUT: build/stacks-model)
#
# Reruns skip what is done; an interrupted training resumes from OUT/run/last. Writes OUT/model (the
# best epoch with the decoding chosen: a model folder for `light link --model`) and OUT/decoding.txt.
# Settings (environment), with their defaults: INIT=models/light-small TRAIN=1200 VAL=40 CALIB=60 (tiles),
# EPOCHS=3 LR=1e-4 BATCH=2 THREADS=0 (all cores), HEAD= (pairwise-lines: the head widened by the line features), ALIGNS="1 1.5 3" ABOVES="0.1 0.4 1" BIASES="0.45 0.6 0.75",
# LIGHT=build/light. With THREADS=1 beside another job on 2 cores: the tiles 13 minutes, an epoch 5-6,
# the calibration's 27 decodings 20 (about 50 minutes in all).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/stacks-model}
LIGHT=${LIGHT:-build/light}
INIT=${INIT:-models/light-small}
TRAIN=${TRAIN:-1200} VAL=${VAL:-40} CALIB=${CALIB:-60} EPOCHS=${EPOCHS:-3} LR=${LR:-1e-4} BATCH=${BATCH:-2} THREADS=${THREADS:-0}
HEAD=${HEAD:-}
ALIGNS=${ALIGNS:-"1 1.5 3"} ABOVES=${ABOVES:-"0.1 0.4 1"} BIASES=${BIASES:-"0.45 0.6 0.75"}
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
[ -f "$INIT/config.json" ] || { echo "$INIT: not a model folder (no config.json)" >&2; exit 1; }
for v in TRAIN VAL CALIB EPOCHS BATCH THREADS; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "$v=${!v}: a whole number is wanted" >&2; exit 1; }
done
if [ -e "$OUT" ] && [ ! -f "$OUT/fine-tune-stacks" ]; then
  echo "$OUT: exists and is not a fine-tune-stacks.sh run (no $OUT/fine-tune-stacks); give a new OUT" >&2; exit 1
fi
mkdir -p "$OUT"
touch "$OUT/fine-tune-stacks"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$OUT/log.txt"; }
# 1. Tiles: every style and scale of the default mix, names on several lines set as real sheets set them.
for part in "train $TRAIN 2601" "val $VAL 2611" "calib $CALIB 3311"; do
  read -r name count seed <<< "$part"
  [ -f "$OUT/$name/annotations.json" ] || "$LIGHT" synth --out "$OUT/$name" --count "$count" --seed "$seed" --stacks real \
    --threads "$THREADS" --overwrite -q
done
log "tiles: train $TRAIN (seed 2601), val $VAL (2611), calib $CALIB (3311), --stacks real"
# 2. Training from INIT, resumed when under way.
RUN=$OUT/run
done_epochs=$([ -f "$RUN/log.jsonl" ] && grep -c '"epoch"' "$RUN/log.jsonl" || echo 0)
if [ -f "$RUN/last/state.json" ] && [ "$done_epochs" -ge "$EPOCHS" ]; then
  log "training: $done_epochs epoch(s) done"
elif [ -f "$RUN/last/state.json" ]; then
  log "training: resumed after epoch $done_epochs"
  "$LIGHT" train --resume "$RUN" --max-epochs "$EPOCHS" --threads "$THREADS"
else
  log "training: from $INIT${HEAD:+ (head $HEAD)}, $EPOCHS epochs, lr $LR"
  "$LIGHT" train --init "$INIT" --train "$OUT/train/annotations.json" --train-images "$OUT/train/images" \
    --val "$OUT/val/annotations.json" --val-images "$OUT/val/images" --out "$RUN" --overwrite --tokenizer bytes \
    ${HEAD:+--head "$HEAD"} --focal-self-target --lr "$LR" --warmup-steps 100 --lr-decay cosine --batch-size "$BATCH" --max-epochs "$EPOCHS" --seed 5 \
    --threads "$THREADS"
fi
# 3. The decoding chosen on the calibration tiles (apart from the validation tiles that chose the epoch).
best="" best_f=-1
: > "$OUT/decoding.txt"
for al in $ALIGNS; do
  for ab in $ABOVES; do
    for b in $BIASES; do
      "$LIGHT" link --model "$RUN/best" --words "$OUT/calib/annotations.json" --images "$OUT/calib/images" \
        --alignment-prior "$al" --reading-prior-above "$ab" --no-successor-bias "$b" -o "$OUT/calibrate.json" -q --threads "$THREADS" 2> /dev/null
      f=$("$LIGHT" eval --gt "$OUT/calib/annotations.json" --pred "$OUT/calibrate.json" --task detedges | grep -o '"edges_fscore": [0-9.e-]*' | awk '{ print $2 }')
      echo "alignment prior $al, reading prior above $ab, no-successor bias $b: link F $f" | tee -a "$OUT/decoding.txt"
      if awk -v f="$f" -v b="$best_f" 'BEGIN { exit !(f > b) }'; then best="$al $ab $b" best_f=$f; fi
    done
  done
done
[ -n "$best" ] || { echo "$OUT: no decoding scored on the calibration tiles (see $OUT/decoding.txt)" >&2; exit 1; }
read -r al ab b <<< "$best"
log "decoding: alignment prior $al, reading prior above $ab, no-successor bias $b (calibration link F $best_f)"
# 4. The model folder: the best epoch with that decoding.
rm -rf "$OUT/model.part" && mkdir "$OUT/model.part"
cp "$RUN/best/model.safetensors" "$RUN/best/vocab.json" "$RUN/best/merges.txt" "$OUT/model.part/"
grep -v '"alignment_prior"\|"reading_prior_above"\|"no_successor_bias"' "$RUN/best/config.json" |
  sed "1a\\ \"no_successor_bias\": $b,\n \"reading_prior_above\": $ab,\n \"alignment_prior\": $al," > "$OUT/model.part/config.json"
cp "$RUN/log.jsonl" "$OUT/model.part/training-log-stacks.jsonl"
rm -rf "$OUT/model" && mv "$OUT/model.part" "$OUT/model"
log "$OUT/model: light link --model $OUT/model"
