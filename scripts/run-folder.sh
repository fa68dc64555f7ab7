# Sourced by the resumable scripts (fine-tune-linker.sh, fit-line-judge.sh): a run folder of their own,
# and a log line with the time.
#
#   claim_run_folder NAME RUN   RUN made, or kept when NAME made it before (marked RUN/.NAME); a folder
#                               NAME did not make is refused, unchanged, naming it
#   log MESSAGE...              "[HH:MM:SS] MESSAGE"

claim_run_folder() {
  local name=$1 run=$2
  if [ -e "$run" ] && [ ! -f "$run/.$name" ]; then
    echo "$name: $run exists and is not a run of this script: give a new folder" >&2
    exit 1
  fi
  mkdir -p "$run"
  touch "$run/.$name"
}

log() { echo "[$(date +%T)] $*"; }
