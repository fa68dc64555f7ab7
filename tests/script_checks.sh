# Sourced by the ctest checks of the resumable scripts (fine_tune_linker_check.sh,
# fit_line_judge_check.sh). Each check exits non-zero, saying why, when it fails.
#
#   check_links_every_word BUILD SOURCE MODEL OUT   MODEL links every word of the bundled example tile once
#   check_foreign_run_refused OUT SCRIPT            `run bash SCRIPT OUT/other` (the caller's `run`) refuses
#                                                   a folder SCRIPT did not make, naming it, and leaves it as it was

check_links_every_word() {
  local build=$1 source=$2 model=$3 out=$4
  "$build/light" link --model "$model" --words "$source/data/synth-example/annotations.json" --images "$source/data/synth-example" -o "$out" -q
  local in words
  in=$(grep -o '"vertices"' "$source/data/synth-example/annotations.json" | wc -l)
  words=$(grep -o '"vertices"' "$out" | wc -l)
  [ "$in" = "$words" ] || { echo "linked $words words of $in" >&2; exit 1; }
}

check_foreign_run_refused() {
  local out=$1 script=$2
  mkdir "$out/other" && echo keep > "$out/other/file"
  if run bash "$script" "$out/other" 2> "$out/err.txt"; then echo "a foreign RUN was accepted" >&2; exit 1; fi
  grep -q "$out/other exists and is not a run of this script" "$out/err.txt" || { cat "$out/err.txt" >&2; exit 1; }
  [ "$(ls "$out/other")" = file ] && [ "$(cat "$out/other/file")" = keep ] || { echo "the foreign RUN was changed" >&2; exit 1; }
}
