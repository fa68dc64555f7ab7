#!/usr/bin/env bash
# Fine-tunes the linker on labelled tiles of your own maps: the bundled model (or MODEL) trained on
# your tiles, each drawn REPEAT times an epoch, beside `light synth` tiles (half stacked as real sheets
# stack names, half the default mix) so that it keeps what it knew; validated on VAL and SYNTH_VAL synthetic
# tiles; then the "no successor" factor chosen again on VAL (the one of BIASES with the best edges F)
# and written into the new model's config.json. The new model is RUN/model; VAL's edges F before and
# after is printed. Take TRAIN and VAL from the series you will link: a factor chosen on other maps'
# tiles does not fit it (what it bought on a real atlas: docs/default-model.md, "Fine-tuning it on a
# few tiles").
#
#   bash scripts/fine-tune-linker.sh RUN
#
# Resumable: run it again with the same RUN and what is finished is kept (the synthetic tiles, the
# training's epochs). Settings (environment), with their defaults:
#   TRAIN=data/real/train.json TRAIN_IMAGES=data/real/images   your labelled tiles (MapText JSON, phrases in reading order)
#   VAL=data/real/dev.json VAL_IMAGES=data/real/images         tiles to choose the epoch and the factor on (not TRAIN's)
#   MODEL=models/light-small REPEAT=25 SYNTH=1200 SYNTH_VAL=40 SYNTH_SEED=2801 SYNTH_ARGS=   (more `light synth` arguments)
#   EPOCHS=4 LR=1e-4 SEED=23 THREADS=2 BIASES="0.3 0.45 0.6" LIGHT=build/light
# With the defaults, on 2 cores: the synthetic tiles about 10 minutes, an epoch 4-5 (8 tiles of some
# 150 words each, drawn 25 times, and 1,200 synthetic tiles).
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=${1:?usage: bash scripts/fine-tune-linker.sh RUN}
TRAIN=${TRAIN:-data/real/train.json} TRAIN_IMAGES=${TRAIN_IMAGES:-data/real/images}
VAL=${VAL:-data/real/dev.json} VAL_IMAGES=${VAL_IMAGES:-data/real/images}
MODEL=${MODEL:-models/light-small} REPEAT=${REPEAT:-25} SYNTH=${SYNTH:-1200} SYNTH_VAL=${SYNTH_VAL:-40} SYNTH_SEED=${SYNTH_SEED:-2801} SYNTH_ARGS=${SYNTH_ARGS:-}
EPOCHS=${EPOCHS:-4} LR=${LR:-1e-4} SEED=${SEED:-23} THREADS=${THREADS:-2} BIASES=${BIASES:-"0.3 0.45 0.6"} LIGHT=${LIGHT:-build/light}
for f in "$TRAIN" "$VAL"; do [ -f "$f" ] || { echo "fine-tune-linker: $f: no such file (TRAIN, VAL)" >&2; exit 1; }; done
for d in "$TRAIN_IMAGES" "$VAL_IMAGES" "$MODEL"; do [ -d "$d" ] || { echo "fine-tune-linker: $d: no such folder (TRAIN_IMAGES, VAL_IMAGES, MODEL)" >&2; exit 1; }; done
[ "$(realpath "$TRAIN")" != "$(realpath "$VAL")" ] || { echo "fine-tune-linker: VAL is TRAIN ($VAL): choose on other tiles" >&2; exit 1; }
source scripts/run-folder.sh
claim_run_folder fine-tune-linker "$RUN"

half=$((SYNTH / 2))
for part in "real $half $SYNTH_SEED real" "mix $((SYNTH - half)) $((SYNTH_SEED + 1)) aligned" "val $SYNTH_VAL $((SYNTH_SEED + 2)) real"; do
  read -r name count seed stacks <<< "$part"
  [ "$count" -gt 0 ] || continue
  # shellcheck disable=SC2086
  [ -f "$RUN/synth-$name/annotations.json" ] || "$LIGHT" synth --out "$RUN/synth-$name" --count "$count" --seed "$seed" --stacks "$stacks" $SYNTH_ARGS --threads "$THREADS" --overwrite -q
  log "synthetic tiles: $name ($count)"
done

# One training set of links: each tile's image under a name of its own (a symlink), the real tiles REPEAT times.
python3 - "$RUN" "$TRAIN" "$TRAIN_IMAGES" "$VAL" "$VAL_IMAGES" "$REPEAT" <<'PY'
import json, os, sys
run, train, train_images, val, val_images, repeat = sys.argv[1:7]

def add(out, tiles, images, prefix, merged):
    os.makedirs(f'{run}/{out}/images', exist_ok=True)
    for t in tiles:
        base = os.path.basename(t['image'])
        link = f'{run}/{out}/images/{prefix}_{base}'
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(images, base)), link)
        merged.append(dict(t, image=f'images/{prefix}_{base}'))

def tiles(path):
    try:
        with open(path) as f:
            t = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f'fine-tune-linker: {path}: cannot read a MapText JSON ({e})')
    if not isinstance(t, list) or any(not isinstance(x, dict) or 'image' not in x or 'groups' not in x for x in t):
        sys.exit(f'fine-tune-linker: {path}: not a MapText JSON (a list of tiles, each with "image" and "groups")')
    return t

for out, parts in (('train', [(train, train_images, 'real%d' % k) for k in range(int(repeat))] +
                             [(f'{run}/synth-{p}/annotations.json', f'{run}/synth-{p}/images', p) for p in ('real', 'mix')]),
                   ('val', [(val, val_images, 'val'), (f'{run}/synth-val/annotations.json', f'{run}/synth-val/images', 'synth')])):
    merged = []
    for path, images, prefix in parts:
        if os.path.exists(path):
            add(out, tiles(path), images, prefix, merged)
    tmp = f'{run}/{out}/annotations.json.part'
    with open(tmp, 'w') as f:
        json.dump(merged, f)
    os.replace(tmp, f'{run}/{out}/annotations.json')
    print(f'{out}: {len(merged)} tiles')
PY

if [ -f "$RUN/run/last/state.json" ]; then
  "$LIGHT" train --resume "$RUN/run" --max-epochs "$EPOCHS" --threads "$THREADS"
elif [ ! -f "$RUN/run/best/model.safetensors" ]; then
  "$LIGHT" train --init "$MODEL" --tokenizer "$MODEL" --train "$RUN/train/annotations.json" --train-images "$RUN/train/images" \
    --val "$RUN/val/annotations.json" --val-images "$RUN/val/images" --out "$RUN/run" --overwrite --focal-self-target \
    --lr "$LR" --warmup-steps 100 --lr-decay cosine --batch-size 2 --max-epochs "$EPOCHS" --seed "$SEED" --threads "$THREADS"
fi
log trained

edges_f() {  # model, extra link arguments: VAL's edges F
  local m=$1; shift
  "$LIGHT" link --model "$m" --words "$VAL" --images "$VAL_IMAGES" -o "$RUN/val-linked.json" -q --threads "$THREADS" "$@"
  "$LIGHT" eval --gt "$VAL" --pred "$RUN/val-linked.json" --task detedges | python3 -c 'import json, sys; print(round(json.load(sys.stdin)["edges_fscore"], 4))'
}
before=$(edges_f "$MODEL")
best_b="" best_f=-1
for b in $BIASES; do
  f=$(edges_f "$RUN/run/best" --no-successor-bias "$b")
  log "no-successor factor $b: VAL edges F $f"
  if python3 -c "import sys; sys.exit(0 if $f > $best_f else 1)"; then best_b=$b best_f=$f; fi
done
rm -rf "$RUN/model.part"
cp -r "$RUN/run/best" "$RUN/model.part"
python3 - "$RUN/model.part/config.json" "$best_b" <<'PY'
import json, sys
path, b = sys.argv[1], float(sys.argv[2])
with open(path) as f:
    c = json.load(f)
c['no_successor_bias'] = b
with open(path, 'w') as f:
    json.dump(c, f, indent=2)
PY
rm -rf "$RUN/model"
mv "$RUN/model.part" "$RUN/model"
rm -f "$RUN/val-linked.json"
log "VAL edges F: $MODEL $before; $RUN/model $best_f (no-successor factor $best_b)"
