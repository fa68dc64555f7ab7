#!/usr/bin/env python3
"""The overhead of a Python call over the C++ one: linking one 2000 x 2000 tile (bench_api's, about
180 words) with the bundled model through `import light` and through the C++ API, call by call: a
C++ process (`bench_api --serve`, glibc's malloc as here) stays alive beside this one and the two take
turns, one call each, the first turn alternating, so that the machine's drift over seconds falls on
both alike. Reported: the medians of each side and the median of the per-turn ratios.
docs/python.md holds the numbers.

    python3 bench/bench_python.py BUILD_DIR [--runs 15]
(with BUILD_DIR/python on the module path; Debian's numpy for the array case).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=15, help="turns of each case (one C++ call and one Python call a turn)")
    ap.add_argument("--turns", action="store_true", help="also print every turn's two times")
    ap.add_argument("--block", type=int, default=1, help="calls a side makes in a row each turn (a turn's time: their median)")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import light

    tile = os.path.join(build, "bench-data", "api-tile")
    server = subprocess.Popen([os.path.join(build, "bench_api"), "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if server.stdout.readline().strip() != "ready":  # it makes the tile (light synth) on first use
        sys.exit("bench_api --serve did not start")

    def cpp_call(how, threads):
        server.stdin.write(f"{how} {threads}\n")
        server.stdin.flush()
        return float(server.stdout.readline())

    words = json.load(open(os.path.join(tile, "annotations.json")))
    pixels = light.read_image(os.path.join(tile, words[0]["image"]))
    # Made when a case first needs one, as bench_api --serve makes its own.
    linkers = {}

    def py_call(how, threads):
        images = tile if how == "file" else pixels
        t = time.perf_counter()
        if threads not in linkers:
            linkers[threads] = light.Linker(threads=threads)
        linkers[threads].link(words, images=images)
        return (time.perf_counter() - t) * 1e3

    # One case at a time (a thread count's OpenMP workers, spinning after a call, would otherwise take a
    # core from the other process's next call of another count), its turns alternating who goes first.
    cases = [(how, t) for t in (1, 2) for how in ("file", "pixels")]
    times = {}
    for c in cases:
        for _ in range(2):  # warm-up: first forwards, allocator caches
            cpp_call(*c), py_call(*c)
        cpp, py = times[c] = ([], [])
        def block(call):
            return statistics.median(call(*c) for _ in range(a.block))

        for k in range(a.runs):
            if k % 2 == 0:
                cpp.append(block(cpp_call))
                py.append(block(py_call))
            else:
                py.append(block(py_call))
                cpp.append(block(cpp_call))
    server.stdin.write("quit\n")
    server.stdin.flush()
    server.wait()
    rows = []
    for (how, threads), (cpp, py) in times.items():
        if a.turns:
            print(how, threads, " ".join(f"{c:.0f}/{p:.0f}" for c, p in zip(cpp, py)), file=sys.stderr)
        ratio = statistics.median(p / c for c, p in zip(cpp, py))
        rows.append((how, threads, statistics.median(cpp), statistics.median(py), 100 * (ratio - 1)))
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
    print(f"one 2000 x 2000 tile, {n} words, bundled model; {a.runs} turns a case, C++ (bench_api --serve) and Python "
          f"taking turns call by call")
    print("| image | threads | C++ API ms (median) | Python ms (median) | overhead (median of the turns' ratios) |")
    print("|---|---|---|---|---|")
    for how, threads, c, py, over in rows:
        print(f"| {'file' if how == 'file' else 'pixels (numpy)'} | {threads} | {c:.1f} | {py:.1f} | {over:+.1f} % |")

    print()
    print("the Python layer alone, paired in one process (light.Linker.link against the binding's C++ call):")
    print("| image | threads | C++ call ms | Python layer adds |")
    print("|---|---|---|---|")
    for name, threads, base, diff in paired:
        print(f"| {name} | {threads} | {base:.1f} | {diff:+.1f} ms ({100 * diff / base:+.1f} %) |")


if __name__ == "__main__":
    main()
