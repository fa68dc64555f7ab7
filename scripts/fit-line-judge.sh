#!/usr/bin/env bash
# Fits the line judge (src/light/link/line_judge.h) of a model: draws synthetic tiles of every kind the
# judge must weigh (names stacked as real sheets stack them and the default mix, half of each with
# outlines as boxes drawn by hand), links them and the labelled real tiles with the model writing each
# word's decoding row (`light link --judge-rows`), and fits the judge's weights to those rows
# (scripts/fit-line-judge.py). The weights are RUN/weights.json; with INTO=MODEL/config.json they are
# written into that config (line_judge 1). A model trained anew needs its judge fitted anew: the rows
# are its own.
#
#   bash scripts/fit-line-judge.sh RUN
#
# Resumable: what is finished in RUN (tiles, rows) is kept. Settings (environment), with their defaults:
#   MODEL=models/light-small COUNT=300 SEED=4101 REAL=data/real/train.json REAL_IMAGES=data/real/images REAL_WEIGHT=3
#   CLASS_WEIGHTS=next_line_unaligned=4,above=2,spread=1.5 END_SHIFT=0 L2=1 THREADS=2 LIGHT=build/light INTO=
# With the defaults, on 2 cores: some 15 minutes (1,350 tiles drawn and linked).
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=${1:?usage: bash scripts/fit-line-judge.sh RUN}
MODEL=${MODEL:-models/light-small} COUNT=${COUNT:-300} SEED=${SEED:-4101} THREADS=${THREADS:-2} LIGHT=${LIGHT:-build/light}
REAL=${REAL:-data/real/train.json} REAL_IMAGES=${REAL_IMAGES:-data/real/images} REAL_WEIGHT=${REAL_WEIGHT:-3}
CLASS_WEIGHTS=${CLASS_WEIGHTS:-next_line_unaligned=4,above=2,spread=1.5} END_SHIFT=${END_SHIFT:-0} L2=${L2:-1}
INTO=${INTO:-}
[ -d "$MODEL" ] || { echo "fit-line-judge: $MODEL: no such folder (MODEL)" >&2; exit 1; }
[ -z "$REAL" ] || [ -f "$REAL" ] || { echo "fit-line-judge: $REAL: no such file (REAL)" >&2; exit 1; }
source scripts/run-folder.sh
claim_run_folder fit-line-judge "$RUN"

# name count seed-offset stacks hand-noise: the stacked names twice the default mix, as the model's training.
rows=()
for part in "real $((2 * COUNT)) 0 real 0" "mix $COUNT 1 aligned 0" "real-hand $COUNT 2 real 1" "mix-hand $((COUNT / 2)) 3 aligned 1"; do
  read -r name count offset stacks hand <<< "$part"
  [ "$count" -gt 0 ] || continue
  if [ ! -f "$RUN/$name/annotations.json" ]; then
    "$LIGHT" synth --out "$RUN/$name" --count "$count" --seed $((SEED + offset)) --stacks "$stacks" --world-names 0.5 \
      --hand-noise "$hand" --threads "$THREADS" --overwrite -q
  fi
  if [ ! -f "$RUN/$name.jsonl" ]; then
    "$LIGHT" link --model "$MODEL" --words "$RUN/$name/annotations.json" --images "$RUN/$name/images" --threads "$THREADS" -q \
      --judge-rows "$RUN/$name.jsonl.part" -o "$RUN/$name-linked.json"
    mv "$RUN/$name.jsonl.part" "$RUN/$name.jsonl"
  fi
  rows+=("$RUN/$name.jsonl")
  log "$name: $(($(wc -l < "$RUN/$name.jsonl") - 1)) rows"
done
if [ -n "$REAL" ]; then
  if [ ! -f "$RUN/real-tiles.jsonl" ]; then
    "$LIGHT" link --model "$MODEL" --words "$REAL" --images "$REAL_IMAGES" --threads "$THREADS" -q \
      --judge-rows "$RUN/real-tiles.jsonl.part" -o "$RUN/real-tiles-linked.json"
    mv "$RUN/real-tiles.jsonl.part" "$RUN/real-tiles.jsonl"
  fi
  rows+=("$RUN/real-tiles.jsonl:$REAL_WEIGHT")
fi
"${PYTHON:-python3}" scripts/fit-line-judge.py "${rows[@]}" --class-weights "$CLASS_WEIGHTS" --end-shift "$END_SHIFT" --l2 "$L2" \
  -o "$RUN/weights.json" ${INTO:+--config "$INTO"} | tee "$RUN/fit.txt"
log "weights: $RUN/weights.json${INTO:+ (written into $INTO)}"
