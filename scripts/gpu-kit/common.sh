# Sourced by train.sh and train-detector.sh on the GPU machine, in the repository root, with OUT, T0,
# D, TRAIN and VAL set: log() into $OUT/device.log; light-full built (build-light-full.sh) unless
# LIGHT_FULL names one; make_sets TRAIN_SEED VAL_SEED makes the synthetic training and validation
# tiles in $D/train and $D/val.
log() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $OUT/device.log; }
[ -n "$LIGHT_FULL" ] || source scripts/gpu-kit/build-light-full.sh
make_sets() {
  $LIGHT_FULL synth --out $D/train --count $TRAIN --seed "$1" --threads 0 --overwrite -q 2>&1 | tail -3
  $LIGHT_FULL synth --out $D/val --count $VAL --seed "$2" --threads 0 --overwrite -q 2>&1 | tail -3
  log "synth: $(ls $D/train/images | wc -l) training tiles, $(ls $D/val/images | wc -l) validation tiles"
}
