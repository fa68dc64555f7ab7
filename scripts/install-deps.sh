#!/usr/bin/env bash
# Installs every Debian package `light` needs to build, test and run. Non-interactive, idempotent:
# packages already present are left alone. Run as root or with sudo available.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config git
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizers
  clang libclang-rt-dev
  # LibTorch (CPU) and a fast BLAS/allocator for it
  libtorch-dev libopenblas0-openmp libtcmalloc-minimal4 libgoogle-perftools-dev
  # oneDNN's headers: the models' matrix products through its sgemm (LibTorch already loads it)
  libdnnl-dev
  # data-parallel training: the Gloo headers LibTorch's c10d needs
  libgloo-dev
  # geometry, images, JSON, command line
  libgeos-dev libre2-dev libonnx-dev libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev
  nlohmann-json3-dev libcli11-dev libutf8proc-dev
  # georeferencing (GeoTIFF, world files, GCPs; PROJ comes with it) and its command-line tools (tests)
  libgdal-dev gdal-bin
  # synthetic maps: rendering, real fonts, a gazetteer of place names
  libcairo2-dev libpango1.0-dev libtimezonemap-data
  fonts-texgyre fonts-oldstandard fonts-ebgaramond fonts-junicode fonts-dejavu-core
  # the Python module (pybind11) and its tests
  python3-dev pybind11-dev python3-numpy python3-pytest
  # tests and benchmarks; `light view` pages are tested in a headless Chromium driven by node
  libgtest-dev libgmock-dev libbenchmark-dev chromium nodejs
  # the default gazetteer's and Allmaps' parser's downloads (scripts/fetch-gazetteer.sh, fetch-allmaps.sh)
  curl
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "install-deps: done"
fi
# Allmaps' parser, which the tests read light's IIIF Georeference Annotations with (npm registry).
bash "$(dirname "$0")/fetch-allmaps.sh"
