#!/usr/bin/env bash
# Allmaps' parser of IIIF Georeference Annotations, the npm package @allmaps/annotation and its one
# dependency (zod), pinned and checked against the registry's sha512, unpacked into build/allmaps
# (scripts/check-iiif-annotation.sh and the tests run it with node). curl only: no npm needed. Run by
# scripts/install-deps.sh; does nothing when both are there at their versions.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=build/allmaps/node_modules

fetch() {
  local name=$1 version=$2 integrity=$3
  local dest=$DIR/$name
  if [ -f "$dest/package.json" ] && grep -q "\"version\": \"$version\"" "$dest/package.json"; then return 0; fi
  command -v curl > /dev/null || { echo "fetch-allmaps: curl is not installed (apt-get install curl)" >&2; return 1; }
  local tmp
  tmp=$(mktemp -d)
  curl -sSfL -o "$tmp/package.tgz" "https://registry.npmjs.org/$name/-/${name##*/}-$version.tgz"
  local got
  got=$(python3 -c 'import base64, hashlib, sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$tmp/package.tgz")
  if [ "$got" != "$integrity" ]; then
    echo "fetch-allmaps: $name@$version: the tarball's digest is not the pinned one ($got)" >&2
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$dest.part" && mkdir -p "$dest.part"
  tar -xzf "$tmp/package.tgz" -C "$dest.part" --strip-components=1
  rm -rf "$dest" && mv "$dest.part" "$dest"
  rm -rf "$tmp"
}

fetch @allmaps/annotation 1.0.0-beta.38 sha512-6VdPV1XQGFsIo4cvVaioEJOxyXHrkNRNfAZ7nN12cL96yr8nZzVh5Hp3Ma0fVhd0EocW2foy1M7MZhtPAK76cw==
fetch zod 4.6.7 sha512-g8W2D2kU6a8untc053fX1uVBKzM7yqAxW/3zwk83+6RyF2+SKOuV+c0wBDhUwzV1PaGapmZH+rmcUzPf+3CGwg==
echo "fetch-allmaps: @allmaps/annotation 1.0.0-beta.38 (zod 4.6.7) in $DIR"
