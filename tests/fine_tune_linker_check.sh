#!/usr/bin/env bash
# ctest: scripts/fine-tune-linker.sh end to end on a few tiny tiles (a real labelled tile learnt beside
# two synthetic ones, one epoch): it makes RUN/model, whose config carries the factor it chose among
# BIASES and whose weights moved from the bundled model's, and that model links every word of VAL once;
# a RUN it did not make, VAL the same file as TRAIN, and a TRAIN that is no MapText JSON are refused with
# the reason and no model written.
set -euo pipefail
BUILD=$1 SOURCE=$2
source "$SOURCE/tests/script_checks.sh"
OUT="$BUILD/fine-tune-linker-check"
rm -rf "$OUT"
mkdir -p "$OUT"
run() { LIGHT="$BUILD/light" THREADS=2 TRAIN="$SOURCE/data/real/test.json" TRAIN_IMAGES="$SOURCE/data/real/images" \
  VAL="$SOURCE/data/synth-example/annotations.json" VAL_IMAGES="$SOURCE/data/synth-example" REPEAT=1 SYNTH=2 SYNTH_VAL=1 \
  SYNTH_ARGS="--size 600-700" EPOCHS=1 BIASES="0.6 0.3" "$@"; }
run bash "$SOURCE/scripts/fine-tune-linker.sh" "$OUT/run" > "$OUT/log.txt"
cat "$OUT/log.txt"
grep -q "VAL edges F: .* $OUT/run/model .* (no-successor factor 0\.[36])" "$OUT/log.txt" || { echo "no before/after line" >&2; exit 1; }
b=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["no_successor_bias"])' "$OUT/run/model/config.json")
[ "$b" = 0.6 ] || [ "$b" = 0.3 ] || { echo "the model's factor $b is not one of BIASES" >&2; exit 1; }
! cmp -s "$OUT/run/model/model.safetensors" "$SOURCE/models/light-small/model.safetensors" || { echo "the weights did not move" >&2; exit 1; }
check_links_every_word "$BUILD" "$SOURCE" "$OUT/run/model" "$OUT/linked.json"
# Refusals: a folder this script did not make, and choosing on the training tiles.
check_foreign_run_refused "$OUT" "$SOURCE/scripts/fine-tune-linker.sh"
if run env VAL="$SOURCE/data/real/test.json" bash "$SOURCE/scripts/fine-tune-linker.sh" "$OUT/same" 2> "$OUT/err.txt"; then echo "VAL = TRAIN was accepted" >&2; exit 1; fi
grep -q "VAL is TRAIN" "$OUT/err.txt" && [ ! -e "$OUT/same" ] || { cat "$OUT/err.txt" >&2; exit 1; }
echo '{"a": 1}' > "$OUT/bad.json"
if run env TRAIN="$OUT/bad.json" SYNTH=0 SYNTH_VAL=0 bash "$SOURCE/scripts/fine-tune-linker.sh" "$OUT/bad" 2> "$OUT/err.txt"; then echo "a TRAIN that is no MapText JSON was accepted" >&2; exit 1; fi
grep -q "$OUT/bad.json: not a MapText JSON" "$OUT/err.txt" && [ ! -e "$OUT/bad/model" ] || { cat "$OUT/err.txt" >&2; exit 1; }
echo "fine-tune-linker: every word linked once by the fine-tuned model (factor $b); refusals hold"
rm -rf "$OUT"
