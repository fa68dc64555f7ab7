#!/usr/bin/env bash
# Parses IIIF Georeference Annotations (`light georef --from-names` writes OUT/NAME.iiif.json) with
# Allmaps' own parser, the npm package @allmaps/annotation (pinned), and prints what it reads: the
# image, the transformation and the first control points. Needs node and npm; the package is fetched
# once into build/allmaps (the registry must be reachable then).
#
#   bash scripts/check-iiif-annotation.sh OUT/NAME.iiif.json [...]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 ANNOTATION.json [...]" >&2; exit 2; }
VERSION=1.0.0-beta.38
DIR=build/allmaps
command -v node > /dev/null || { echo "node: not installed (apt-get install nodejs)" >&2; exit 1; }
if [ ! -f "$DIR/node_modules/@allmaps/annotation/package.json" ] ||
   ! grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/@allmaps/annotation/package.json"; then
  command -v npm > /dev/null || { echo "npm: not installed (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$DIR"
  (cd "$DIR" && npm install --silent --no-audit --no-fund "@allmaps/annotation@$VERSION" > /dev/null)
fi
cat > "$DIR/check.mjs" <<'JS'
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
    console.error(`${path}: not parsed: ${e.message.split('\n')[0]}`)
    failed = 1
  }
}
process.exit(failed)
JS
paths=()
for p in "$@"; do paths+=("$(realpath "$p")"); done
(cd "$DIR" && node check.mjs "${paths[@]}")
