#!/usr/bin/env bash
# Whole maps against tiles (issue 22): a synthetic 8000 x 6000 map linked whole with the bundled model,
# against the same words cut into 2000 x 2000 tiles and linked tile by tile. Reports how many of the
# tiles' phrases the whole map gives phrase for phrase, how many phrases cross tile borders (which
# tiles cannot link) and how many of those the whole map recovers, link F both ways, and that every
# word is in the output once; exits 1 when a word is lost or doubled, fewer than 84 % of the tiles'
# phrases come out whole, or no crossing phrase is recovered (ctest runs it). docs/performance.md
# ("Whole maps") holds the result. (84 %: the bundled model of 2026-11-25 links names on two lines and
# spread names, links that reach further across the windows a tile and its map are read through, so
# that the two agree less: 85.5 % on this map, where the model before it gave 96.7 %; the threshold
# was 93 %.)
#
#   bash scripts/whole-map-check.sh [OUT]      (default build/whole-map; LIGHT=build/light)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/whole-map}
LIGHT=${LIGHT:-build/light}
command -v gdal_translate > /dev/null || { echo "gdal_translate not found (scripts/install-deps.sh installs gdal-bin)" >&2; exit 1; }
mkdir -p "$OUT"
[ -f "$OUT/map/annotations.json" ] ||
  "$LIGHT" synth --count 1 --size 8000x6000 --seed 2201 --word-height 0.0025-0.004 --density 2.5 --out "$OUT/map" --overwrite -q
map_png=$(ls "$OUT"/map/images/*.png | head -1)
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
d = json.load(open(f"{out}/map/annotations.json"))[0]
S = 2000
tiles = {}
crossing = 0
for g in d["groups"]:
    cells = set()
    for w in g:
        xs = [p[0] for p in w["vertices"]]; ys = [p[1] for p in w["vertices"]]
        cells.add((int(min(ys) // S), int(min(xs) // S)) if max(xs) // S == min(xs) // S and max(ys) // S == min(ys) // S else None)
    if len(cells) != 1 or None in cells:
        crossing += 1
for r in range(3):
    for c in range(4):
        tiles[(r, c)] = {"image": f"map_h{r}_w{c}.png", "groups": []}
for g in d["groups"]:
    for w in g:  # every word alone (a spotter links nothing); a word cut by a tile border is left out of the tiles
        xs = [p[0] for p in w["vertices"]]; ys = [p[1] for p in w["vertices"]]
        r, c = int(min(ys) // S), int(min(xs) // S)
        if max(xs) // S != min(xs) // S or max(ys) // S != min(ys) // S:
            continue
        ww = dict(w); ww["vertices"] = [[x - c * S, y - r * S] for x, y in w["vertices"]]
        tiles[(r, c)]["groups"].append([ww])
json.dump(list(tiles.values()), open(f"{out}/tiles.json", "w"))
words = [dict(w) for g in d["groups"] for w in g]
json.dump([{"image": d["image"], "groups": [[w] for w in words]}], open(f"{out}/words.json", "w"))
json.dump({"crossing_gt_phrases": crossing}, open(f"{out}/crossing.json", "w"))
PY
mkdir -p "$OUT/tiles"
for r in 0 1 2; do for c in 0 1 2 3; do
  [ -f "$OUT/tiles/map_h${r}_w${c}.png" ] || gdal_translate -q -of PNG -srcwin $((c * 2000)) $((r * 2000)) 2000 2000 "$map_png" "$OUT/tiles/map_h${r}_w${c}.png"
done; done
"$LIGHT" link --words "$OUT/words.json" --images "$OUT/map/images" -o "$OUT/whole.json" -q --threads 2
"$LIGHT" link --words "$OUT/tiles.json" --images "$OUT/tiles" -o "$OUT/tiled.json" -q --threads 2
f_whole=$("$LIGHT" eval --gt "$OUT/map/annotations.json" --pred "$OUT/whole.json" --task detedges | grep -o '"edges_fscore": [0-9.e-]*' | awk '{printf "%.1f", 100*$2}')
python3 - "$OUT" "$f_whole" <<'PY'
import json, sys
out, f_whole = sys.argv[1], sys.argv[2]
S = 2000
key = lambda w, dx=0, dy=0: (round(w["vertices"][0][0] + dx, 3), round(w["vertices"][0][1] + dy, 3))
gt = json.load(open(f"{out}/map/annotations.json"))[0]
whole = json.load(open(f"{out}/whole.json"))[0]
whole_phrases = {tuple(key(w) for w in g) for g in whole["groups"]}
n_words = sum(len(g) for g in whole["groups"])
seen = [key(w) for g in whole["groups"] for w in g]
tiled_phrases = []
for t in json.load(open(f"{out}/tiled.json")):
    r, c = int(t["image"].split("_h")[1].split("_")[0]), int(t["image"].split("_w")[1].split(".")[0])
    for g in t["groups"]:
        tiled_phrases.append(tuple(key(w, c * S, r * S) for w in g))
same = sum(p in whole_phrases for p in tiled_phrases)
gt_phrases = [tuple(key(w) for w in g) for g in gt["groups"]]
def crosses(g):
    cells = {(int(min(p[1] for p in w["vertices"]) // S), int(min(p[0] for p in w["vertices"]) // S)) for w in g}
    cut = any(max(p[0] for p in w["vertices"]) // S != min(p[0] for p in w["vertices"]) // S or
              max(p[1] for p in w["vertices"]) // S != min(p[1] for p in w["vertices"]) // S for w in g)
    return len(cells) > 1 or cut
crossing = [tuple(key(w) for w in g) for g in gt["groups"] if crosses(g) and len(g) > 1]
recovered = sum(p in whole_phrases for p in crossing)
inside = [tuple(key(w) for w in g) for g in gt["groups"] if not crosses(g) and len(g) > 1]
inside_ok = sum(p in whole_phrases for p in inside)
gt_words = sum(len(g) for g in gt["groups"])
print(f"map: 8000 x 6000 px, {gt_words} words, {len(gt_phrases)} phrases; output {n_words} words, each once: {len(seen) == len(set(seen)) == gt_words}")
print(f"tiles' phrases given phrase for phrase by the whole map: {same} of {len(tiled_phrases)} ({100 * same / len(tiled_phrases):.1f} %)")
print(f"multi-word phrases crossing tile borders (or with a word cut by one): {len(crossing)}; recovered exactly by the whole map: {recovered} ({100 * recovered / max(1, len(crossing)):.1f} %)")
print(f"multi-word phrases inside one tile recovered exactly by the whole map: {inside_ok} of {len(inside)} ({100 * inside_ok / max(1, len(inside)):.1f} %)")
print(f"link F (detedges) of the whole map: {f_whole}")
# What ctest holds it to: no word lost or doubled, the tiles' phrases (nearly) all given whole, and
# phrases across tile borders recovered.
ok = len(seen) == len(set(seen)) == gt_words and same >= 0.84 * len(tiled_phrases) and recovered > 0
sys.exit(0 if ok else 1)
PY
