#!/usr/bin/env bash
# Writes what `light spot` and `light link` make of fixed inputs into OUT, so that two builds (before
# and after a refactor) can be compared byte for byte:
#   bash scripts/outputs-check.sh /tmp/before      # with the old build
#   bash scripts/outputs-check.sh /tmp/after       # with the new one
#   diff -r /tmp/before /tmp/after && echo same
# Inputs: the bundled tile (data/synth-example), the quick start's scan (data/schagen-1689), two
# synthetic tiles read through several windows (light synth, fixed seed), the bundled tile with
# decoding settings given on the command line, three calibration-style tiles (seed 2212, every style)
# spotted with the default stages, with --small-lettering and --upright, and a 2000 px tile of the
# bench's density spotted and linked. LIGHT: the binary (default build/light).
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
"$L" synth --out "$syn/cal" --count 3 --seed 2212 --threads 2 -q
"$L" spot --images "$syn/cal" -o "$OUT/cal-spot.json" --threads 2 -q
"$L" spot --images "$syn/cal" -o "$OUT/cal-spot-small.json" --threads 2 -q --small-lettering
"$L" spot --images "$syn/cal" -o "$OUT/cal-spot-upright.json" --threads 2 -q --upright
"$L" synth --out "$syn/bench" --count 1 --seed 11 --size 2000 --density 1.6 --threads 2 -q
"$L" link --images "$syn/bench" -o "$OUT/bench-link.json" --threads 2 -q
echo "outputs-check: $(ls "$OUT" | wc -l) files in $OUT"
