#!/bin/bash
# On the GPU machine: build light-full against the machine's CUDA LibTorch (without GDAL), make
# training tiles with `light synth` on its cores, and fine-tune the spotter's detector on CUDA in
# several variants at once (RUNS: "name:options;name:options"), until DEADLINE seconds after the start.
# Each variant's epochs come back in $OUT/epochs.tar.part-* (NAME/epoch-N.safetensors, NAME/log.jsonl), to be
# scored on the CPU with a copy of models/spotter whose detector.safetensors is replaced. Carry .gpudeps
# (scripts/gpu-kit/make.sh) and leave out of the copy what the build does not need (the device takes
# 64 MiB at most; models/spotter is the starting point and stays):
#   printf '/models/light-small/\n/models/ppocr-v4/\n/tests/data/\n/data/\n/docs/*.png\n' > .git/info/exclude
#   git rm -r --cached -q models/light-small models/ppocr-v4 tests/data data 'docs/*.png'
#   ... (the device call: bash scripts/gpu-kit/train-detector.sh, carrying .gpudeps) ...
#   git reset -q && rm .git/info/exclude
# The real scans too (issue 69): REAL_REPEAT=N draws each tile of data/real/train.json N times as often
# beside the synthetic ones, and validates on data/real/dev.json (keep data/real in the copy: exclude
# /data/* and re-include /data/real, 9 MB); the CPU recipe's settings are
#   REAL_REPEAT=2 RUNS="h:--learn head --lr 1e-5 --kernel-unclip 1.5" COMMON="--units words --steps 250 --max-epochs 40 --batch-size 4"
# and each kept epoch is then chosen on dev as scripts/fine-tune-real.sh chooses (scripts/score-real.sh).
# Dry run here: LIGHT_FULL=build/light-full DEVICE=cpu TRAIN=4 VAL=2 DEADLINE=120 OUT=/tmp/o bash scripts/gpu-kit/train-detector.sh
T0=$(date +%s)
cd "$(dirname "$0")/../.."
OUT=${OUT:?} DEVICE=${DEVICE:-cuda} TRAIN=${TRAIN:-600} VAL=${VAL:-40} DEADLINE=${DEADLINE:-500} DATA_THREADS=${DATA_THREADS:-5}
KEEP=${KEEP-"2 4 8 12 16"}  # epochs kept; a run's own: KEEP_<name>
# The threshold branch at its own learning rate: warmed up alone for 2 epochs (w), not (n), and with
# the detector learning 3 times slower (s).
RUNS=${RUNS:-"w:--lr 1e-5 --kernel-unclip 1.5 --threshold-branch --threshold-lr 1e-3 --threshold-warmup 500;n:--lr 1e-5 --kernel-unclip 1.5 --threshold-branch --threshold-lr 1e-3;s:--kernel-unclip 1.5 --threshold-branch --threshold-lr 1e-3 --threshold-warmup 500 --lr 3e-6"}
KEEP_w=${KEEP_w-"3 4 6 10"} KEEP_n=${KEEP_n-"1 2 4 8"} KEEP_s=${KEEP_s-"3 4 8 14"}
COMMON=${COMMON:-"--units lines --steps 250 --max-epochs 40 --batch-size 4"}
D=/tmp/light-det; mkdir -p $D
source scripts/gpu-kit/common.sh
make_sets 2201 2211
TRAIN_SET=$D/train/annotations.json TRAIN_IMAGES=$D/train/images VAL_SET=$D/val/annotations.json VAL_IMAGES=$D/val/images
if [ "${REAL_REPEAT:-0}" -gt 0 ]; then
  rm -rf $D/mix
  python3 scripts/mix-tiles.py $D/mix "data/real/train.json:data/real/images:$REAL_REPEAT" "$D/train/annotations.json:$D/train:1"
  TRAIN_SET=$D/mix/train.json TRAIN_IMAGES=$D/mix/images VAL_SET=data/real/dev.json VAL_IMAGES=data/real/images
  log "training tiles: $(ls $D/mix/images | wc -l) (the real train split x $REAL_REPEAT and $TRAIN synthetic); validation: data/real/dev.json"
fi
IFS=';' read -ra R <<< "$RUNS"
for r in "${R[@]}"; do
  name=${r%%:*}; opts=${r#*:}
  # shellcheck disable=SC2086
  timeout -s KILL $(( DEADLINE - ( $(date +%s) - T0 ) )) $LIGHT_FULL train-spotter --part detector --device $DEVICE --threads 2 \
    --data-threads $DATA_THREADS --keep-epochs -q --train $TRAIN_SET --train-images $TRAIN_IMAGES \
    --val $VAL_SET --val-images $VAL_IMAGES --out $D/$name --seed 1 $COMMON $opts > $D/train-$name.log 2>&1 &
done
# The device gives back at most 8 files (2026-11-27: the rest are left out): the epochs go into one
# tar, cut into parts of 13 MB (3 runs of 4 epochs, 4.7 MB each, make 5 parts; 64 MiB come back at most).
while [ $(( $(date +%s) - T0 )) -lt $DEADLINE ] && [ -n "$(jobs -r)" ]; do sleep 5; done
wait
files=()
for r in "${R[@]}"; do
  name=${r%%:*}; log "$name: $(tr '\n' ' ' < $D/$name/log.jsonl 2>/dev/null)"; tail -c 300 $D/train-$name.log
  files+=("$name/log.jsonl")
  k=KEEP_$name; keep=${!k-$KEEP}
  for f in $D/$name/epoch-*.safetensors; do
    e=${f##*/epoch-}; e=${e%.safetensors}
    [ -z "$keep" ] || [[ " $keep " == *" $e "* ]] && files+=("$name/epoch-$e.safetensors")
  done
done
tar cf - -C $D "${files[@]}" | split -b 13M -d - $OUT/epochs.tar.part-
log "done: ${#files[@]} files in $(ls $OUT/epochs.tar.part-* | wc -l) parts (cat $OUT/epochs.tar.part-* | tar x)"
