#!/usr/bin/env bash
# ctest: scripts/fit-line-judge.sh end to end on a few small tiles (two of each kind drawn, and a real
# labelled tile): it writes RUN/weights.json, weights the bundled model's config takes, under which the
# rows of links to the next line, spread and above find their true successor more often than before;
# the weights written into a copy of the model's config (INTO) make a model that links every word once;
# a RUN it did not make is refused unchanged; the fit refuses rows that are not light's and an -o that
# is one of its inputs.
set -euo pipefail
BUILD=$1 SOURCE=$2
source "$SOURCE/tests/script_checks.sh"
# A Python with numpy (the fit's): python3, else the system's; none: skipped.
PYTHON=$(for p in python3 /usr/bin/python3; do "$p" -c "import numpy" 2> /dev/null && echo "$p" && break; done || true)
[ -n "$PYTHON" ] || { echo "fit-line-judge check: no Python with numpy: skipped"; exit 77; }
export PYTHON
OUT="$BUILD/fit-line-judge-check"
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r "$SOURCE/models/light-small" "$OUT/model"
run() { LIGHT="$BUILD/light" THREADS=2 COUNT=2 REAL="$SOURCE/data/real/test.json" REAL_IMAGES="$SOURCE/data/real/images" "$@"; }
run env INTO="$OUT/model/config.json" bash "$SOURCE/scripts/fit-line-judge.sh" "$OUT/run" > "$OUT/log.txt"
cat "$OUT/log.txt"
"$PYTHON" - "$OUT/run/weights.json" "$OUT/model/config.json" "$OUT/log.txt" <<'PY'
import json, re, sys
w = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
assert c["line_judge"] == 1 and c["line_judge_weights"] == w, "the weights are not in the config"
assert "end" in w and len(w) >= 20, f"weights: {sorted(w)}"
rows = re.findall(r"^(\S+)\s+(\d+) rows\s+best entry true\s+([\d.]+) % ->\s+([\d.]+) %", open(sys.argv[3]).read(), re.M)
assert rows and sum(int(n) for _, n, _, _ in rows) > 100, rows
hard = [r for r in rows if r[0] in ("next_line_aligned", "next_line_unaligned", "spread", "above")]
before = sum(int(n) * float(b) for _, n, b, _ in hard)
after = sum(int(n) * float(a) for _, n, _, a in hard)
assert hard and after > before, f"the next-line, spread and above rows not lifted: {before} -> {after}"
PY
check_links_every_word "$BUILD" "$SOURCE" "$OUT/model" "$OUT/linked.json"
check_foreign_run_refused "$OUT" "$SOURCE/scripts/fit-line-judge.sh"
# The fit refuses rows that are not light's, naming the file and the line, and never writes over an input.
fit() { "$PYTHON" "$SOURCE/scripts/fit-line-judge.py" "$@" 2> "$OUT/err.txt"; }
printf '{"features": ["end"]}\n{oops\n' > "$OUT/bad.jsonl"
if fit "$OUT/bad.jsonl" -o "$OUT/w.json"; then echo "rows that are not JSON were accepted" >&2; exit 1; fi
grep -q "$OUT/bad.jsonl: line 2: not JSON" "$OUT/err.txt" && [ ! -e "$OUT/w.json" ] || { cat "$OUT/err.txt" >&2; exit 1; }
cp "$OUT/run/real.jsonl" "$OUT/rows.jsonl"
if fit "$OUT/rows.jsonl:2" -o "$OUT/rows.jsonl"; then echo "-o over its rows was accepted" >&2; exit 1; fi
grep -q "is an input" "$OUT/err.txt" && cmp -s "$OUT/rows.jsonl" "$OUT/run/real.jsonl" || { cat "$OUT/err.txt" >&2; exit 1; }
rm -rf "$OUT"
echo "fit-line-judge check: ok"
