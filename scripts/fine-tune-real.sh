#!/usr/bin/env bash
# Fine-tunes the spotter on the hand-annotated real scans (data/real/, the train split) with `light
# synth` tiles beside them, on the CPU, and chooses on the dev split: the detector first (each epoch
# kept, each read as the spotter on dev), then the recogniser from the chosen detector's spotter.
# Every candidate, the starting spotter included, is scored with scripts/score-real.sh; the one with
# the most dev words found and read (det F x characters) becomes RUN/spotter. Test is never read.
#
#   bash scripts/fine-tune-real.sh RUN
#
# Resumable: run it again with the same RUN and what is finished is kept (the synthetic tiles, each
# model's epochs, each candidate's scores); a model's run continues after its last finished epoch.
# Settings (environment), with their defaults:
#   THREADS=2 SPOTTER=models/spotter LIGHT=build/light
#   SYNTH=80 SYNTH_SEED=2201 REAL_REPEAT=2   synthetic tiles; each real training tile drawn so many times as often
#   OVERLAY=0                                1: each synthetic tile also printed over a real training tile
#                                            (scripts/overlay-tiles.py), its words and the real ones learnt
#   DET_EPOCHS=6 DET_STEPS=200 DET_LR=1e-5 DET_LEARN=head
#                                            detector: epochs of DET_STEPS batches of 4 crops (0 epochs: kept as
#                                            it is), its neck and head learning (all: every weight)
#   REC_EPOCHS=2 REC_LR=1e-5 REC_LINES=20000 recogniser: epochs over at most REC_LINES training lines (0 epochs: kept as it is)
# On 2 cores the defaults take about 30 minutes: the detector's part 20 (2 steps a second, half a
# minute a dev scoring), the recogniser's 10. A candidate links to SPOTTER's files and its scores are
# kept: leave SPOTTER as it is until the run is done.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=${1:?usage: bash scripts/fine-tune-real.sh RUN}
THREADS=${THREADS:-2} SPOTTER=${SPOTTER:-models/spotter} LIGHT=${LIGHT:-build/light}
SYNTH=${SYNTH:-80} SYNTH_SEED=${SYNTH_SEED:-2201} REAL_REPEAT=${REAL_REPEAT:-2} OVERLAY=${OVERLAY:-0}
DET_EPOCHS=${DET_EPOCHS:-6} DET_STEPS=${DET_STEPS:-200} DET_LR=${DET_LR:-1e-5} DET_LEARN=${DET_LEARN:-head}
REC_EPOCHS=${REC_EPOCHS:-2} REC_LR=${REC_LR:-1e-5} REC_LINES=${REC_LINES:-20000}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
[ -f "$SPOTTER/spotter.json" ] || { echo "$SPOTTER: not a spotter folder (no spotter.json)" >&2; exit 1; }
for v in THREADS SYNTH REAL_REPEAT OVERLAY DET_EPOCHS DET_STEPS REC_EPOCHS REC_LINES; do
  [[ ${!v} =~ ^[0-9]+$ ]] || { echo "$v=${!v}: a whole number is wanted" >&2; exit 1; }
done
if [ -e "$RUN" ] && [ ! -f "$RUN/fine-tune-real" ]; then
  echo "$RUN: exists and is not a fine-tune-real.sh run (no $RUN/fine-tune-real); give a new RUN" >&2; exit 1
fi
mkdir -p "$RUN/candidates" "$RUN/scores"
touch "$RUN/fine-tune-real"
SPOTTER=$(realpath "$SPOTTER")
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$RUN/log.txt"; }

# The training tiles: synthetic tiles and the real training tiles, one JSON, one folder of links.
if [ ! -f "$RUN/synth/annotations.json" ]; then
  "$LIGHT" synth --out "$RUN/synth" --count "$SYNTH" --seed "$SYNTH_SEED" --threads "$THREADS" --overwrite -q
fi
overlaid=()
if [ "$OVERLAY" -gt 0 ]; then
  if [ ! -f "$RUN/overlay/annotations.json" ]; then
    rm -rf "$RUN/overlay"
    "$PY" scripts/overlay-tiles.py "$RUN/overlay" "$RUN/synth/annotations.json:$RUN/synth" data/real/train.json:data/real/images "$SYNTH_SEED" > /dev/null
  fi
  overlaid=("$RUN/overlay/annotations.json:$RUN/overlay/images:$OVERLAY")
fi
if [ ! -f "$RUN/mix/train.json" ]; then
  rm -rf "$RUN/mix"
  "$PY" scripts/mix-tiles.py "$RUN/mix" "data/real/train.json:data/real/images:$REAL_REPEAT" "$RUN/synth/annotations.json:$RUN/synth:1" \
    "${overlaid[@]}" > /dev/null
fi
log "training tiles: $(ls "$RUN/mix/images" | wc -l) ($SYNTH synthetic, the real train split x $REAL_REPEAT, overlaid x $OVERLAY)"

# A candidate: a spotter folder of links to BASE's files, MODEL (detector or recognizer) from FILE.
candidate() {  # NAME BASE MODEL FILE
  local dir=$RUN/candidates/$1
  [ -d "$dir" ] && return 0
  mkdir -p "$dir.part"
  for f in "$2"/*; do ln -s "$(realpath "$f")" "$dir.part/$(basename "$f")"; done
  if [ -n "$3" ]; then rm "$dir.part/$3.safetensors"; ln -s "$(realpath "$4")" "$dir.part/$3.safetensors"; fi
  mv "$dir.part" "$dir"
}
# Dev words found and read: det F x characters (scores kept, so a resumed run does not read again).
dev_score() {  # NAME
  local out=$RUN/scores/$1
  [ -f "$out/scores.txt" ] || THREADS=$THREADS bash scripts/score-real.sh "$RUN/candidates/$1" dev "$out" > /dev/null 2>> "$RUN/log.txt"
  "$PY" -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().split("detrec:",1)[1].split("\n")[0]); print("%.4f %.3f %.3f" % (d["fscore"]*d["char_accuracy"], d["fscore"], d["char_accuracy"]))' "$out/scores.txt"
}
# Trains one part unless its epochs are done; a run stopped in its first epoch starts again.
train() {  # PART EPOCHS OUT OPTIONS...
  local part=$1 epochs=$2 out=$3; shift 3
  local done_epochs=0
  [ -f "$out/state.json" ] && done_epochs=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["epoch"])' "$out/state.json")
  [ "$done_epochs" -ge "$epochs" ] && return 0
  local resume=()
  if [ -f "$out/state.json" ]; then resume=(--resume); else rm -rf "$out"; fi
  log "$part: epochs $((done_epochs + 1))-$epochs -> $out"
  "$LIGHT" train-spotter --part "$part" --train "$RUN/mix/train.json" --train-images "$RUN/mix/images" \
    --val data/real/dev.json --val-images data/real/images --max-epochs "$epochs" --threads "$THREADS" -q \
    "${resume[@]}" --out "$out" "$@" 2>&1 | tee -a "$RUN/log.txt"
}

candidate start "$SPOTTER" "" ""
best=start; best_score=$(dev_score start)
log "start ($SPOTTER): dev det F x characters, det F, characters: $best_score"
choose() {  # NAME: kept when it finds and reads more on dev
  local s; s=$(dev_score "$1")
  log "$1: dev det F x characters, det F, characters: $s"
  if "$PY" -c 'import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)' "${s%% *}" "${best_score%% *}"; then
    best=$1 best_score=$s
  fi
}

if [ "$DET_EPOCHS" -gt 0 ]; then
  train detector "$DET_EPOCHS" "$RUN/detector" --spotter "$SPOTTER" --units words --kernel-unclip 1.5 \
    --lr "$DET_LR" --learn "$DET_LEARN" --steps "$DET_STEPS" --batch-size 4 --keep-epochs
  for e in $(seq 1 "$DET_EPOCHS"); do
    candidate "detector-$e" "$SPOTTER" detector "$RUN/detector/epoch-$e.safetensors"
    choose "detector-$e"
  done
fi
log "detector chosen: $best ($best_score)"
if [ "$REC_EPOCHS" -gt 0 ]; then
  det=$best
  train recognizer "$REC_EPOCHS" "$RUN/recognizer" --spotter "$(realpath "$RUN/candidates/$det")" --units lines \
    --lr "$REC_LR" --batch-size 16 --max-words "$REC_LINES"
  candidate "$det+recognizer" "$RUN/candidates/$det" recognizer "$RUN/recognizer/best/recognizer.safetensors"
  choose "$det+recognizer"
fi
log "chosen: $best ($best_score)"
rm -rf "$RUN/spotter.part" && mkdir "$RUN/spotter.part"
for f in "$RUN/candidates/$best"/*; do cp -L "$f" "$RUN/spotter.part/"; done
rm -rf "$RUN/spotter" && mv "$RUN/spotter.part" "$RUN/spotter"
log "$RUN/spotter: light spot --spotter $RUN/spotter (scores: $RUN/scores/$best/scores.txt)"
