#!/bin/bash
# On the GPU machine: unpack Debian's GEOS/OpenCV/Pango (never over the image's own files), build
# light, light-full and bench_model against the machine's CUDA LibTorch, check parity on the GPU, benchmark.
cd "$(dirname "$0")/.."
S=$PWD
mkdir -p /tmp/root && tar xJf .gpudeps/deps.tar.xz -C /tmp/root
cp -an /tmp/root/usr/. /usr/ 2>/dev/null; cp -an /tmp/root/etc/. /etc/ 2>/dev/null
cp -n .gpudeps/extra/libGL* /usr/lib/x86_64-linux-gnu/; cp -f .gpudeps/extra/libopencv_imgcodecs.so.4.6.0 /usr/lib/x86_64-linux-gnu/; ldconfig
TD=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')/Torch
export PATH=/usr/local/cuda/bin:$PATH
build() {  # build DIR STD
  cmake -S . -B $1 -G Ninja -DCMAKE_BUILD_TYPE=Release -DTorch_DIR=$TD -DCMAKE_CXX_STANDARD=$2 -DLIGHT_BUILD_TESTS=OFF \
    > $OUT/cmake-$2.log 2>&1 && ninja -C $1 light light-full bench_model > $OUT/build-$2.log 2>&1
}
if [ -x /tmp/bb/light ]; then ninja -C /tmp/bb light light-full bench_model > $OUT/build-17.log 2>&1 || { grep -m5 -A8 error $OUT/build-17.log; exit 1; }
else
  if build /tmp/b 17; then ln -sfn /tmp/b /tmp/bb
  else
    grep -m5 -B2 -A8 "error" $OUT/build-17.log | head -60; tail -20 $OUT/cmake-17.log; exit 1; fi
fi
B=/tmp/bb
grep -i "light:\|gloo\|cuda" $OUT/cmake-*.log | head -5
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
P=.gpudeps/parity
for d in cuda cpu; do $B/light forward --model $P --inputs $P/inputs.safetensors --out /tmp/fw-$d.safetensors --device $d; done
python3 - <<'PY'
from safetensors.torch import load_file
e=load_file('.gpudeps/parity/outputs.safetensors')
for d in ['cuda','cpu']:
    g=load_file(f'/tmp/fw-{d}.safetensors'); worst={}
    for k,v in g.items():
        if k not in e: continue
        x=e[k]
        if x.shape!=v.shape: x=x[tuple(slice(0,s) for s in v.shape)]
        n=k.split('.',1)[1]; worst[n]=max(worst.get(n,0),(x.float()-v.float()).abs().max().item())
    print(d, 'compared', len(g), {k:f'{v:.1e}' for k,v in sorted(worst.items())})
PY
[ -n "$1" ] || exit 0
(while true; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits >> /tmp/mem.txt; sleep 0.2; done) &
LIGHT_BENCH_DEVICE=cuda timeout 400 $B/bench_model --benchmark_filter="$1" 2>&1 | grep -v "^\*\*\*"
kill %1; echo "GPU memory used, peak MiB: $(sort -n /tmp/mem.txt | tail -1)"
