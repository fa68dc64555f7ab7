#!/usr/bin/env bash
# Builds .gpudeps/ (git-ignored) so that `light` can be built on a machine that has a CUDA LibTorch but
# none of Debian's GEOS/OpenCV/Pango (e.g. an Ubuntu GPU image without network): the installed Debian
# packages `light` needs, as one tarball (OpenCV imgcodecs replaced by a libpng stand-in, since
# Debian's pulls in GDAL), plus the parity fixtures. On the GPU machine: `bash .gpudeps/run.sh [BENCH_FILTER]`
# unpacks it (never over the image's own files), builds against the machine's LibTorch, checks
# `light forward --device cuda` against the fixtures and runs bench_model on CUDA.
set -euo pipefail
cd "$(dirname "$0")/../.."
K=.gpudeps
mkdir -p $K/parity $K/extra /tmp/gpu-kit/stage/usr/lib/x86_64-linux-gnu
python3 scripts/gpu-kit/collect_packages.py            # -> /tmp/devfiles.txt
L=/tmp/gpu-kit/stage/usr/lib/x86_64-linux-gnu
for f in libtbb.so.12 libblas.so.3 liblapack.so.3 libopenblas.so.0 libgfortran.so.5 libquadmath.so.0; do cp -L /usr/lib/x86_64-linux-gnu/$f $L/; done
mkdir -p /tmp/gpu-kit/stage/usr/include/opencv4/opencv2 && cp -r /usr/include/opencv4/opencv2/imgcodecs* /tmp/gpu-kit/stage/usr/include/opencv4/opencv2/
g++ -O2 -shared -fPIC -o $K/extra/libopencv_imgcodecs.so.4.6.0 -Wl,-soname,libopencv_imgcodecs.so.406 scripts/gpu-kit/imgcodecs_png.cpp \
  -I/usr/include/opencv4 -I/usr/include/x86_64-linux-gnu/opencv4 -lopencv_core -lpng16 -ljpeg
cp $K/extra/libopencv_imgcodecs.so.4.6.0 $L/ && ln -sf libopencv_imgcodecs.so.4.6.0 $L/libopencv_imgcodecs.so.406 && ln -sf libopencv_imgcodecs.so.406 $L/libopencv_imgcodecs.so
for f in libGLX.so.0 libGLdispatch.so.0 libjpeg.so.62; do cp -L /usr/lib/x86_64-linux-gnu/$f $K/extra/; done
grep -v "^/usr/share/texmf/doc" /tmp/devfiles.txt > /tmp/gpu-kit/files.txt
tar cf /tmp/gpu-kit/deps.tar --no-recursion -T /tmp/gpu-kit/files.txt 2>/dev/null || true
tar rf /tmp/gpu-kit/deps.tar -C /tmp/gpu-kit/stage usr
xz -T0 -6 -f /tmp/gpu-kit/deps.tar && mv /tmp/gpu-kit/deps.tar.xz $K/
cp ../shared/fixtures/parity/model/{config.json,model.safetensors,inputs.safetensors,outputs.safetensors} $K/parity/
cp scripts/gpu-kit/run.sh $K/run.sh
du -sh $K
