# Sourced by common.sh on the GPU machine (log() defined, in the repository root):
# unpacks the kit's Debian packages (never over the image's own files) and builds light-full against
# the machine's CUDA LibTorch without GDAL, into /tmp/b; sets LIGHT_FULL. Logs in /tmp (the device
# gives back at most 8 files); their errors are printed.
mkdir -p /tmp/root && tar xJf .gpudeps/deps.tar.xz -C /tmp/root
cp -an /tmp/root/usr/. /usr/ 2>/dev/null; cp -an /tmp/root/etc/. /etc/ 2>/dev/null
cp -n .gpudeps/extra/libGL* .gpudeps/extra/libjpeg.so.62 /usr/lib/x86_64-linux-gnu/; cp -f .gpudeps/extra/libopencv_imgcodecs.so.4.6.0 /usr/lib/x86_64-linux-gnu/; ldconfig
TD=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')/Torch
export PATH=/usr/local/cuda/bin:$PATH
log "unpacked; configuring"
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DTorch_DIR=$TD -DLIGHT_GDAL=OFF -DLIGHT_BUILD_TESTS=OFF \
  -DLIGHT_BUILD_BENCH=OFF > /tmp/cmake.log 2>&1 || { tail -30 /tmp/cmake.log; exit 1; }
ninja -C /tmp/b light-full > /tmp/build.log 2>&1 || { grep -m5 -B2 -A8 error /tmp/build.log | head -60; exit 1; }
LIGHT_FULL=/tmp/b/light-full
log "built"; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee -a $OUT/device.log
