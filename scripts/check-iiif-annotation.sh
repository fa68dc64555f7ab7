#!/usr/bin/env bash
# Parses IIIF Georeference Annotations (`light georef --from-names` writes OUT/NAME.iiif.json) with
# Allmaps' own parser, the npm package @allmaps/annotation (pinned), and prints what it reads: the
# image, the transformation and the first control points; exits 1 when one does not parse. Needs node;
# the package is fetched once into build/allmaps (scripts/fetch-allmaps.sh: the registry must be
# reachable then).
#
#   bash scripts/check-iiif-annotation.sh OUT/NAME.iiif.json [...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 ANNOTATION.json [...]" >&2; exit 2; }
DIR=build/allmaps
command -v node > /dev/null || { echo "node: not installed (apt-get install nodejs)" >&2; exit 1; }
bash scripts/fetch-allmaps.sh > /dev/null
check=$(mktemp "$DIR/check-XXXXXX.mjs")
trap 'rm -f "$check"' EXIT
cat > "$check" <<'JS'
import fs from 'fs'
import { parseAnnotation } from '@allmaps/annotation'
let failed = 0
for (const path of process.argv.slice(2)) {
  try {
    const maps = parseAnnotation(JSON.parse(fs.readFileSync(path, 'utf8')))
    const m = maps[0]
    console.log(`${path}: parsed: ${m.resource.type} ${m.resource.id} (${m.resource.width} x ${m.resource.height}), ` +
                `${JSON.stringify(m.transformation)}, ${m.gcps.length} GCPs, first ${JSON.stringify(m.gcps[0])}`)
  } catch (e) {
    console.error(`${path}: not parsed: ${e.message.replace(/\s+/g, ' ').slice(0, 300)}`)
    failed = 1
  }
}
process.exit(failed)
JS
paths=()
for p in "$@"; do paths+=("$(realpath "$p")"); done
node "$check" "${paths[@]}"
