#!/usr/bin/env bash
# Writes what `light spot` and `light link` make of fixed inputs into OUT, so that two builds (before
# and after a refactor) can be compared byte for byte:
#   bash scripts/outputs-check.sh /tmp/before      # with the old build
#   bash scripts/outputs-check.sh /tmp/after       # with the new one
#   diff -r /tmp/before /tmp/after && echo same
# Inputs: the bundled tile (data/synth-example), the quick start's scan (data/schagen-1689), two
# synthetic tiles read through several windows (light synth, fixed seed), and the bundled tile with
# decoding settings given on the command line. LIGHT: the binary (default build/light).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: outputs-check.sh OUT}
L=${LIGHT:-build/light}
mkdir -p "$OUT"
syn=$(mktemp -d)
trap 'rm -rf "$syn"' EXIT
"$L" synth --out "$syn/syn" --count 2 --size 1800 --density 3 --word-height 0.012 --threads 2 -q
"$L" link --words data/synth-example/annotations.json --images data/synth-example -o "$OUT/tile.json" --threads 2 -q
"$L" link --words "$syn/syn/annotations.json" --images "$syn/syn" -o "$OUT/windows.json" --threads 2 -q
"$L" spot --images data/synth-example -o "$OUT/spot.json" --threads 2 -q
"$L" link --images data/schagen-1689 -o "$OUT/scan.json" --threads 2 -q
"$L" link --words data/synth-example/annotations.json --images data/synth-example -o "$OUT/tile-settings.json" --threads 2 -q \
  --lettering-prior 2 --polygon-height 0.7 --no-successor-bias 0.5
echo "outputs-check: $(ls "$OUT" | wc -l) files in $OUT"
