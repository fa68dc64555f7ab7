#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: install dependencies, build `light`,
# then run the main job on the bundled default data and show the result.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)"
mkdir -p build/quickstart
echo
echo "== light link: the words of the bundled MapText example (data/maptext-example) into phrases =="
./build/light link --method distance --words data/maptext-example/example_gt.json -o build/quickstart/linked.json
python3 - build/quickstart/linked.json <<'PY' 2>/dev/null || cat build/quickstart/linked.json
import json, sys
for tile in json.load(open(sys.argv[1])):
    print(tile["image"] + ":", " | ".join(" ".join(w.get("text", "?") for w in g) for g in tile["groups"]))
PY
echo
echo "== light eval: how well those links match the ground truth (task detedges) =="
./build/light eval --gt data/maptext-example/example_gt.json --pred build/quickstart/linked.json --task detedges
echo
echo "== light eval: the bundled spotter prediction (task detrecedges) =="
./build/light eval --gt data/maptext-example/example_gt.json --pred data/maptext-example/example_pred.json \
  --task detrecedges
