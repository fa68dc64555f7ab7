#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: install dependencies, build `light`,
# then run the main job on the bundled default data and show the result.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)"
echo
echo "== light eval: the bundled MapText example (data/maptext-example), task detrecedges =="
./build/light eval --gt data/maptext-example/example_gt.json --pred data/maptext-example/example_pred.json \
  --task detrecedges
