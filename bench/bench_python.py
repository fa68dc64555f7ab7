#!/usr/bin/env python3
"""The overhead of a Python call over the C++ one: linking one 2000 x 2000 tile (bench_api's, about
180 words) with the bundled model through `import light` and through the C++ API (bench_api), in the
same session, medians of each. docs/python.md holds the numbers.

    python3 bench/bench_python.py BUILD_DIR [--rounds 5] [--runs 7]
(with BUILD_DIR/python on the module path; Debian's numpy for the array case).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def median_ms(fn, runs):
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=7, help="Python calls a round (their median is the round's)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds of C++ and Python")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import light

    # bench_api makes the tile (light synth) and times the same two calls in C++ (glibc's malloc, as here).
    # The machine's speed drifts over minutes: C++ and Python are timed in alternating rounds.
    tile = os.path.join(build, "bench-data", "api-tile")
    cpp_times, py_times = {}, {}
    linkers = {}
    for _ in range(a.rounds):
        out = subprocess.run([os.path.join(build, "bench_api"), "--benchmark_format=json", "--benchmark_min_time=1"],
                             check=True, capture_output=True, text=True).stdout
        for b in json.loads(out)["benchmarks"]:
            name = b["run_name"].split("/min_time")[0].split("/real_time")[0]
            cpp_times.setdefault(name, []).append(b["real_time"])
        words = json.load(open(os.path.join(tile, "annotations.json")))
        pixels = light.read_image(os.path.join(tile, words[0]["image"]))
        for threads in (1, 2):
            linker = linkers.setdefault(threads, light.Linker(threads=threads))
            for name, images in (("FromFile", tile), ("FromPixels", pixels)):
                key = "BM_ApiLinkTile%s/%d" % (name, threads)
                py_times.setdefault(key, []).append(median_ms(lambda: linker.link(words, images=images), a.runs))
    rows = []
    for threads in (1, 2):
        for name in ("FromFile", "FromPixels"):
            key = "BM_ApiLinkTile%s/%d" % (name, threads)
            c, py = statistics.median(cpp_times[key]), statistics.median(py_times[key])
            rows.append((name, threads, c, py, 100 * (py - c) / c))
    # The Python layer's own cost, paired in one process: light.Linker.link against the binding's C++ call
    # on the same JSON text (what light/__init__.py adds: dicts to JSON and back, the image checks).
    paired = []
    text = json.dumps(words)
    for threads in (1, 2):
        linker = linkers[threads]
        for name, images in (("file", tile), ("pixels (numpy)", pixels)):
            core = (lambda: linker._core.link(text, "words", tile)) if name == "file" else \
                   (lambda: linker._core.link_pixels(text, "words", pixels))
            diffs, base = [], []
            for _ in range(a.runs):
                t0 = time.perf_counter()
                core()
                t1 = time.perf_counter()
                linker.link(words, images=images)
                t2 = time.perf_counter()
                base.append((t1 - t0) * 1e3)
                diffs.append((t2 - t1 - (t1 - t0)) * 1e3)
            paired.append((name, threads, statistics.median(base), statistics.median(diffs)))
    n = sum(len(g) for g in words[0]["groups"])
    print(f"one 2000 x 2000 tile, {n} words, bundled model; medians of {a.rounds} alternating rounds "
          f"(C++: bench_api, Google Benchmark, 1 s a case; Python: the median of {a.runs} calls)")
    print("| image | threads | C++ API ms | Python ms | overhead |")
    print("|---|---|---|---|---|")
    for name, threads, c, py, over in rows:
        print(f"| {'file' if name == 'FromFile' else 'pixels (numpy)'} | {threads} | {c:.1f} | {py:.1f} | {over:+.1f} % |")

    print()
    print("the Python layer alone, paired in one process (light.Linker.link against the binding's C++ call):")
    print("| image | threads | C++ call ms | Python layer adds |")
    print("|---|---|---|---|")
    for name, threads, base, diff in paired:
        print(f"| {name} | {threads} | {base:.1f} | {diff:+.1f} ms ({100 * diff / base:+.1f} %) |")


if __name__ == "__main__":
    main()
