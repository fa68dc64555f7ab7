#!/usr/bin/env bash
# Scores a LIGHT model beside both heuristics, in both orderings, on held-out synthetic test sets of
# every scale band and map style, the classic and curvy sets of the first experiments, and spotter-like
# predictions (docs/default-model.md; the bundled model's card holds the result).
#
#   bash scripts/score-model.sh [MODEL] [OUT]     (defaults: models/light-small, build/score)
#
# Writes OUT/table.md (link F, %, task detedges on ground-truth words; detrecedges on predictions),
# OUT/classes.md (link recall and false links by where the next word lies: same line near or spread,
# next line, above, backwards; `light eval --link-classes`) for the model and both heuristics in path
# order, each set and all sets of ground-truth words pooled, and OUT/seconds.txt (linking time per set). Test sets are made once (seeds 3101-3112, never used in
# training) and kept in OUT. Settings (environment): COUNT=40 tiles a set, THREADS=0, LIGHT=build/light.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:-models/light-small}
OUT=${2:-build/score}
LIGHT=${LIGHT:-build/light}
COUNT=${COUNT:-40} THREADS=${THREADS:-0}
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
mkdir -p "$OUT"

source scripts/test-sets.sh  # SETS: name | light synth arguments

fscore() {  # fscore GT PRED TASK -> F in %
  "$LIGHT" eval --gt "$1" --pred "$2" --task "$3" | grep -o '"edges_fscore": [0-9.e-]*' | awk '{ printf "%.1f", 100 * $2 }'
}

classes() {  # classes GT PRED TASK -> "near R (n) | spread ... | backwards ... | false links n/n/n/n/n"
  "$LIGHT" eval --gt "$1" --pred "$2" --task "$3" --link-classes | tail -n 1 | tee -a "$OUT/classes.jsonl.tmp" | python3 -c '
import json, sys
c = json.load(sys.stdin)
cells = ["%s (%d)" % ("-" if v["recall"] is None else "%.1f" % (100 * v["recall"]), v["links"]) for v in c.values()]
print(" | ".join(cells) + " | " + "/".join(str(v["false_links"]) for v in c.values()))'
}

{
  echo "| test set | tiles | words | LIGHT | distance, path | distance, y-then-x | MST, path | MST, y-then-x |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$OUT/table.md"
{
  echo "| test set | linker | near: recall % (links) | spread | next line | above | backwards | false links near/spread/next/above/back |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$OUT/classes.md"
: > "$OUT/classes.jsonl.tmp"
: > "$OUT/seconds.txt"
i=0
for entry in "${SETS[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  i=$((i + 1))
  dir="$OUT/set$i"
  # shellcheck disable=SC2086
  [ -f "$dir/annotations.json" ] || "$LIGHT" synth --out "$dir" --count "$COUNT" $args --threads "$THREADS" -q --overwrite
  words="$dir/annotations.json" task=detedges
  if [[ $args == *--predictions* ]]; then words="$dir/predictions.json" task=detrecedges; fi
  t0=$(date +%s.%N)
  "$LIGHT" link --model "$MODEL" --words "$words" --images "$dir/images" -o "$dir/light.json" -q --threads "$THREADS" 2>/dev/null
  t1=$(date +%s.%N)
  echo "$name: LIGHT $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" >> "$OUT/seconds.txt"
  row="| $name | $COUNT | $(grep -o '"vertices"' "$words" | wc -l) | **$(fscore "$dir/annotations.json" "$dir/light.json" $task)**"
  echo "| $name | LIGHT | $(classes "$dir/annotations.json" "$dir/light.json" $task) |" >> "$OUT/classes.md"
  for m in distance mst; do
    for o in path yx; do
      "$LIGHT" link --method $m --order $o --words "$words" -o "$dir/$m-$o.json" -q
      row="$row | $(fscore "$dir/annotations.json" "$dir/$m-$o.json" $task)"
      if [ $o = path ]; then echo "| $name | $m | $(classes "$dir/annotations.json" "$dir/$m-$o.json" $task) |" >> "$OUT/classes.md"; fi
    done
  done
  echo "$row |" >> "$OUT/table.md"
done
# All sets of ground-truth words pooled (the first 10; the spotter sets' links are their own), by linker.
python3 - "$OUT/classes.jsonl.tmp" >> "$OUT/classes.md" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
names = ["LIGHT", "distance", "mst"]
for k, name in enumerate(names):
    pooled = {}
    for r in rows[k:30:3]:  # sets 1-10, one row per linker in this order
        for c, v in r.items():
            p = pooled.setdefault(c, {"links": 0, "found": 0, "false_links": 0})
            for f in p: p[f] += v[f]
    cells = ["%s (%d)" % ("-" if v["links"] == 0 else "%.1f" % (100.0 * v["found"] / v["links"]), v["links"]) for v in pooled.values()]
    print("| **all ground-truth sets** | %s | %s | %s |" % (name, " | ".join(cells), "/".join(str(v["false_links"]) for v in pooled.values())))
PY
rm -f "$OUT/classes.jsonl.tmp"
cat "$OUT/table.md"
echo
cat "$OUT/classes.md"
