#!/usr/bin/env bash
# Data-parallel training on this machine: starts N ranks of a `light` training command (train,
# pretrain-poly or pretrain), each with --world-size N --rank R and a fresh store folder; rank 0 shows
# progress and writes the run folder. Give each rank its share of the cores with --threads.
#
#   scripts/launch.sh 2 build/light pretrain --data D.json --images IMG --out RUN --threads 1
#
# On several machines, start `light ... --world-size N --rank R --store HOST:PORT` on each instead
# (rank 0's machine listens on HOST:PORT).
set -uo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N LIGHT-COMMAND [ARGS...]" >&2
  exit 2
fi
n=$1
shift
store=$(mktemp -d "${TMPDIR:-/tmp}/light-store.XXXXXX")
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$store"' EXIT
pids=()
for ((r = 1; r < n; r++)); do
  "$@" --world-size "$n" --rank "$r" --store "$store" -q &
  pids+=($!)
done
"$@" --world-size "$n" --rank 0 --store "$store"
rc=$?
for p in "${pids[@]}"; do
  wait "$p" || rc=$?
done
pids=()
exit $rc
