#!/usr/bin/env bash
# Proof of learning (README "Does it learn?"): synthetic maps -> the two heuristic baselines and the
# paper's modality variants trained from scratch -> link R/P/F on held-out tiles, as a table.
#
#   bash scripts/proof-of-learning.sh [OUT]        (default OUT: build/proof)
#
# Settings (environment): TRAIN=300 VAL=50 TEST=100 tiles of SIZE=1000 px at DENSITY=2 with the
# synth's LAYOUTS=classic mix (the first sets' default) (curvy: mostly curved, rotated and along-feature lettering),
# CONFIG=small, EPOCHS=15, LR=3e-4, VARIANTS="LIG LI L G", LOSS_ABLATION=0 (1: also the paper's loss
# ablation on LIG: plain CE, +focal, +bidirectional), PRETRAIN=1 (0: skip the polygon-encoder
# pretraining on UNLABELLED=700 further tiles for POLY_STEPS=1500 steps, and LIG fine-tuned from it;
# then LIGHT pretraining (MLM, MIM, WPA) on the same tiles for LIGHT_STEPS=1500 steps from that
# polygon encoder, and LIG fine-tuned from that), THREADS=0 (all cores), LIGHT=build/light.
# Reruns skip finished steps (delete OUT to start over); an interrupted training run resumes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/proof}
LIGHT=${LIGHT:-build/light}
TRAIN=${TRAIN:-300} VAL=${VAL:-50} TEST=${TEST:-100} SIZE=${SIZE:-1000} DENSITY=${DENSITY:-2} LAYOUTS=${LAYOUTS:-classic}
CONFIG=${CONFIG:-small} EPOCHS=${EPOCHS:-15} LR=${LR:-3e-4} THREADS=${THREADS:-0}
VARIANTS=${VARIANTS:-"LIG LI L G"} LOSS_ABLATION=${LOSS_ABLATION:-0}
PRETRAIN=${PRETRAIN:-1} UNLABELLED=${UNLABELLED:-700} POLY_STEPS=${POLY_STEPS:-1500} LIGHT_STEPS=${LIGHT_STEPS:-1500}
mkdir -p "$OUT"
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }

seed=1
for split in train val test; do
  count=$(eval echo "\$${split^^}")
  [ -f "$OUT/$split/annotations.json" ] || "$LIGHT" synth --out "$OUT/$split" --count "$count" --seed "$seed" \
    --size "$SIZE" --density "$DENSITY" --word-height classic --layouts "$LAYOUTS" --threads "$THREADS" --overwrite
  seed=$((seed + 1))
done

score() {  # score NAME PRED.json -> one table row
  local json
  json=$("$LIGHT" eval --gt "$OUT/test/annotations.json" --pred "$2" --task detedges)
  echo "$json" > "$OUT/$1.eval.json"
  local r p f
  r=$(grep -o '"edges_recall": [0-9.e-]*' <<<"$json" | cut -d' ' -f2)
  p=$(grep -o '"edges_precision": [0-9.e-]*' <<<"$json" | cut -d' ' -f2)
  f=$(grep -o '"edges_fscore": [0-9.e-]*' <<<"$json" | cut -d' ' -f2)
  awk -v n="$1" -v r="$r" -v p="$p" -v f="$f" 'BEGIN { printf "| %s | %.1f | %.1f | %.1f |\n", n, 100 * r, 100 * p, 100 * f }' >> "$OUT/table.md"
}

train_variant() {  # train_variant NAME MODALITIES [extra train args]
  local name=$1 modalities=$2
  shift 2
  local run="$OUT/runs/$name"
  if [ -f "$run/done" ]; then :
  elif [ -f "$run/last/state.json" ]; then
    "$LIGHT" train --resume "$run" --threads "$THREADS"
  else
    "$LIGHT" train --train "$OUT/train/annotations.json" --train-images "$OUT/train/images" \
      --val "$OUT/val/annotations.json" --val-images "$OUT/val/images" --out "$run" --tokenizer bytes \
      --config "$CONFIG" --modalities "$modalities" --max-epochs "$EPOCHS" --lr "$LR" --seed 1 --threads "$THREADS" --overwrite "$@"
  fi
  touch "$run/done"
  "$LIGHT" link --model "$run/best" --images "$OUT/test/images" --words "$OUT/test/annotations.json" \
    -o "$OUT/$name.linked.json" --threads "$THREADS"
}

printf '| method | edges R | edges P | edges F |\n|---|---|---|---|\n' > "$OUT/table.md"
for method in distance mst; do
  "$LIGHT" link --method "$method" --words "$OUT/test/annotations.json" -o "$OUT/$method.linked.json" -q
  score "$method baseline" "$OUT/$method.linked.json"
done
for v in $VARIANTS; do
  train_variant "$v" "$v"
  score "$v" "$OUT/$v.linked.json"
done
if [ "$PRETRAIN" = 1 ]; then
  # Unlabelled tiles (their polygons only) -> polygon-encoder pretraining -> LIG fine-tuned from it.
  [ -f "$OUT/unlabelled/annotations.json" ] || "$LIGHT" synth --out "$OUT/unlabelled" --count "$UNLABELLED" \
    --seed 4 --size "$SIZE" --density "$DENSITY" --word-height classic --layouts "$LAYOUTS" --threads "$THREADS" --overwrite
  poly="$OUT/runs/poly"
  if [ -f "$poly/final/model.safetensors" ]; then :
  elif [ -f "$poly/last/state.json" ]; then
    "$LIGHT" pretrain-poly --resume "$poly" --threads "$THREADS"
  else
    "$LIGHT" pretrain-poly --data "$OUT/unlabelled/annotations.json" --images "$OUT/unlabelled/images" --out "$poly" \
      --config "$CONFIG" --max-steps "$POLY_STEPS" --lr "$LR" --log-every 25 --checkpoint-every 100 --threads "$THREADS" --overwrite
  fi
  train_variant LIG-poly LIG --init "$poly" && score "LIG, polygon encoder pretrained" "$OUT/LIG-poly.linked.json"
  pre="$OUT/runs/pretrain"
  if [ -f "$pre/final/model.safetensors" ]; then :
  elif [ -f "$pre/last/state.json" ]; then
    "$LIGHT" pretrain --resume "$pre" --threads "$THREADS"
  else
    "$LIGHT" pretrain --data "$OUT/unlabelled/annotations.json" --images "$OUT/unlabelled/images" --out "$pre" \
      --config "$CONFIG" --init-poly "$poly" --max-steps "$LIGHT_STEPS" --lr "$LR" --log-every 25 --checkpoint-every 100 \
      --threads "$THREADS" --overwrite
  fi
  train_variant LIG-pre LIG --init "$pre" && score "LIG, LIGHT pretrained (polygon encoder, then MLM/MIM/WPA)" "$OUT/LIG-pre.linked.json"
fi
if [ "$LOSS_ABLATION" = 1 ]; then
  train_variant LIG-plain LIG --no-bidirection --no-focal && score "LIG, CE only" "$OUT/LIG-plain.linked.json"
  train_variant LIG-focal LIG --no-bidirection && score "LIG, CE + focal" "$OUT/LIG-focal.linked.json"
  train_variant LIG-bidir LIG --no-focal && score "LIG, CE + bidirectional" "$OUT/LIG-bidir.linked.json"
fi
echo
echo "Link scores on $TEST held-out synthetic tiles (light eval --task detedges, %):"
cat "$OUT/table.md"
