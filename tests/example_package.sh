#!/usr/bin/env bash
# examples/ against the installed package: `cmake --install` into a fresh prefix, find_package(light)
# from a separate project, and the example run on the bundled MapText example; its edge scores must
# be those `light eval` gives for the same linking.
#   tests/example_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The C++ package alone (the Python module, component python, goes to its interpreter's site-packages).
cmake --install "$build" --prefix "$work/prefix" --component Unspecified > "$work/install.log"
test -f "$work/prefix/include/light/light.h" && test -f "$work/prefix/lib/cmake/light/lightConfig.cmake" || test -f "$work/prefix/lib/x86_64-linux-gnu/cmake/light/lightConfig.cmake"
gen=(); command -v ninja > /dev/null && gen=(-G Ninja)
cmake -S "$src/examples" -B "$work/build" "${gen[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
words="$src/data/maptext-example/example_pred.json" gt="$src/data/maptext-example/example_gt.json"
"$work/build/link_and_score" "$words" "$work/phrases.json" "$gt" | tee "$work/example.out"
# The same linking and scoring through the installed `light` command.
"$work/prefix/bin/light" link --method mst --words "$words" -o "$work/cli.json" -q 2> /dev/null
cmp "$work/phrases.json" "$work/cli.json"
"$work/prefix/bin/light" eval --gt "$gt" --pred "$work/cli.json" --task detedges > "$work/eval.out"
fscore=$(grep '^edges_fscore ' "$work/example.out" | cut -d' ' -f2)
expected=$(python3 -c "import json,sys; print('%.4f' % json.load(open(sys.argv[1]))['edges_fscore'])" "$work/eval.out" 2>/dev/null ||
           sed -E 's/.*"edges_fscore": ([0-9.e-]+).*/\1/' "$work/eval.out" | xargs printf '%.4f')
if [ "$fscore" != "$expected" ]; then
  echo "example edges_fscore $fscore, light eval $expected" >&2
  exit 1
fi
# The installed `light` finds the installed default model (bin/../share/light/models/light-small).
if [ -f "$src/models/light-small/config.json" ]; then
  env -u LIGHT_MODEL "$work/prefix/bin/light" info > "$work/info.out" 2>&1
  grep -q "default model (light link): $work/prefix/bin/../share/light/models/light-small\|default model (light link): $work/prefix/share/light/models/light-small" "$work/info.out" ||
    { echo "the installed light does not find the installed default model:" >&2; cat "$work/info.out" >&2; exit 1; }
fi
echo "example built against the installed package; edges_fscore $fscore as light eval"
