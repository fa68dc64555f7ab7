#!/usr/bin/env bash
# ctest's python_module test: pytest over bindings/python/tests with the module of this build.
#   bindings/python/tests/run.sh BUILD_DIR SOURCE_DIR PYTHON LIGHT_BINARY
# Skipped (77) where there is no Python module or no pytest, except under CI=true, where it fails.
# The interpreter is the one the module was built for; when it lacks pytest or numpy (a pyenv or
# other Python beside Debian's), Debian's python3-pytest and python3-numpy of the same Python
# version are borrowed for this run, on PYTHONPATH.
set -uo pipefail
build=$1 src=$2 py=$3 light=$4
skip() {
  if [ "${CI:-}" = "true" ]; then echo "python_module: $1 (CI=true: failing rather than skipping)" >&2; exit 1; fi
  echo "python_module: skipped: $1" >&2
  exit 77
}
[ -f "$build/python/light/__init__.py" ] || skip "no Python module in $build/python (python3-dev, pybind11-dev missing at configure time?)"
command -v "$py" > /dev/null || skip "no interpreter $py"
path="$build/python"
if ! "$py" -c "import pytest, numpy" 2> /dev/null; then
  version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  debian=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2> /dev/null || true)
  if [ "$version" = "$debian" ] && [ -d /usr/lib/python3/dist-packages/pytest ]; then
    path="$path:/usr/lib/python3/dist-packages"
  fi
fi
PYTHONPATH="$path" "$py" -c "import pytest" 2> /dev/null || skip "no pytest for $py (Debian: python3-pytest)"
export LIGHT_SOURCE_DIR="$src" LIGHT_BINARY="$light" LIGHT_BUILD_DIR="$build"
cd "$build" || exit 1
PYTHONPATH="$path" exec "$py" -m pytest -q -p no:cacheprovider "$src/bindings/python/tests" "${@:5}"
