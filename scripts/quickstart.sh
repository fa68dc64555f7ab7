#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: install dependencies, build `light`, then
# link the words of a bundled map tile with the bundled model, show and score the phrases, draw them,
# write a page to browse them and search them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)"
Q=build/quickstart
mkdir -p "$Q"
TILE=data/synth-example

echo
echo "== light link: the words of a bundled map tile ($TILE) into phrases, with the bundled model =="
./build/light link --words "$TILE/annotations.json" --images "$TILE" -o "$Q/linked.json" -q
python3 - "$Q/linked.json" <<'PY' 2>/dev/null || cat "$Q/linked.json"
import json, sys
for tile in json.load(open(sys.argv[1])):
    print(tile["image"] + ":")
    print("  " + " | ".join(" ".join(w.get("text", "?") for w in g) for g in tile["groups"]))
PY
echo
echo "== light eval: those links against the tile's ground truth (task detedges), then the distance heuristic's =="
./build/light eval --gt "$TILE/annotations.json" --pred "$Q/linked.json" --task detedges
./build/light link --method distance --words "$TILE/annotations.json" -o "$Q/distance.json" -q
./build/light eval --gt "$TILE/annotations.json" --pred "$Q/distance.json" --task detedges
echo
echo "== light draw: the phrases over the tile =="
./build/light draw --words "$Q/linked.json" --images "$TILE" --out "$Q/drawn" --scale 0.6
echo "see $Q/drawn/"
echo
echo "== light view: a web page to browse the links (coloured by the evaluator's verdict) and search the phrases =="
rm -rf "$Q/view"
./build/light view --words "$Q/linked.json" --images "$TILE" --gt "$TILE/annotations.json" -o "$Q/view" -q
echo "open $Q/view/index.html in a browser (it works from disk, offline)"
echo
echo "== light search: a place name, two letters misread =="
./build/light search "Hendersen Rivr" --in "$Q/linked.json"
echo
echo "== light eval: the MapText competition example, a spotter's prediction (task detrecedges) =="
./build/light eval --gt data/maptext-example/example_gt.json --pred data/maptext-example/example_pred.json \
  --task detrecedges
