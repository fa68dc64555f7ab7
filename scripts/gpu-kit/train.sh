#!/bin/bash
# On the GPU machine: build light-full against the machine's CUDA LibTorch (without GDAL), make
# training tiles with `light synth` on its cores, and train the linker from random weights on CUDA
# until DEADLINE seconds after the start; the run's best epoch comes back under $OUT (the weights in
# two parts: cat model.part-* > model.safetensors). Run with `bash scripts/gpu-kit/train.sh` after
# `bash scripts/gpu-kit/make.sh` here (.gpudeps carried). Here, for a dry run on the CPU:
#   LIGHT_FULL=build/light-full DEVICE=cpu TRAIN=4 VAL=2 EPOCHS=1 OUT=/tmp/o bash scripts/gpu-kit/train.sh
# The device copies the working tree and at most 64 MiB of it (2026-11-27: the tracked files are 78 MB);
# none of models/, tests/data/, data/ is needed to train. For the call, leave them out and put them back:
#   printf '/models/\n/tests/data/\n/data/\n' > .git/info/exclude && git rm -r --cached -q models tests/data data
#   ... (the device call, carrying .gpudeps) ...
#   git reset -q && rm .git/info/exclude
# (Anchored patterns: "data/" alone would also leave out src/light/data/.) EXTRA adds options, e.g.
# EXTRA="--focal-self-target --polygon-noise 0.15". Making 1,600 tiles there took 200 s (2026-11-27).
T0=$(date +%s)
cd "$(dirname "$0")/../.."
OUT=${OUT:?} DEVICE=${DEVICE:-cuda} TRAIN=${TRAIN:-1600} VAL=${VAL:-40} EPOCHS=${EPOCHS:-40} DEADLINE=${DEADLINE:-540}
BATCH=${BATCH:-4} HEAD=${HEAD:-pairwise} LR=${LR:-3e-4} WARMUP=${WARMUP:-300} EXTRA=${EXTRA:---focal-self-target}
D=/tmp/light-train; mkdir -p $D
source scripts/gpu-kit/common.sh
make_sets 2301 2311
# The first epoch is timed; the run then resumes with as many epochs as fit before DEADLINE (at most
# EPOCHS), so that its cosine schedule ends when the time does (the first epoch's rate differs by <1 %).
train() {  # train ARGS...: the time left as its limit; appends to train.log
  timeout -s KILL $(( DEADLINE - ( $(date +%s) - T0 ) )) $LIGHT_FULL train --threads 0 --device $DEVICE "$@" >> $OUT/train.log 2>&1
}
log "training: the first epoch timed (batch $BATCH, lr $LR)"
train --train $D/train/annotations.json --train-images $D/train/images --val $D/val/annotations.json --val-images $D/val/images \
  --out $D/run --overwrite --tokenizer bytes --config small --head $HEAD --window-word-height 0.022 $EXTRA --lr $LR \
  --warmup-steps $WARMUP --lr-decay cosine --batch-size $BATCH --seed 1 --max-epochs $EPOCHS --stop-after-epoch 1
T1=$(python3 -c "import json;print(int(json.loads(open('$D/run/log.jsonl').readline())['seconds'])+1)")
FIT=$(( 1 + ( DEADLINE - ( $(date +%s) - T0 ) - ${RELOAD:-25} ) / T1 ))
[ $FIT -gt $EPOCHS ] && FIT=$EPOCHS
log "first epoch $T1 s: resumed for $FIT epochs in all"
[ $FIT -gt 1 ] && train --resume $D/run --max-epochs $FIT
log "training ended ($?): $(wc -l < $D/run/log.jsonl) epoch(s)"
tail -c 1500 $OUT/train.log | tr '\r' '\n' | tail -4
cat $D/run/log.jsonl
split -b 13M -d $D/run/best/model.safetensors $OUT/model.part-
tar cf $OUT/run.tar -C $D/run best/config.json best/vocab.json best/merges.txt log.jsonl options.json
log "done"
