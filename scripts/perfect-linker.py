#!/usr/bin/env python3
"""Links spotted words as a perfect linker would: the best link F any linker could reach on them.

    python3 scripts/perfect-linker.py GT.json SPOTTED.json OUT.json

Each spotted word that lies on a drawn word of the ground truth (IoU at least 0.5, or at least 60 % of
its own outline inside the drawn word's) goes into that word's phrase, at its place (several pieces of
one drawn word in their order along it); every other spotted word stays alone. Scoring OUT.json with
`light eval --task detrecedges` then gives what no linker could better on these words, so that a gap
to the ground truth's own linking splits into the spotter's share (100 minus this) and the linker's
(docs/spotter.md, "Where the remaining gaps lie"). Outlines are compared on a grid of at most 120
cells a side over the two words' bounds.
"""
import json
import os
import sys

import numpy as np


def inside(poly, xs, ys):
    """Whether each grid point lies inside the polygon (even-odd rule)."""
    x, y = poly[:, 0], poly[:, 1]
    res = np.zeros(xs.shape, bool)
    j = len(poly) - 1
    for i in range(len(poly)):
        res ^= ((y[i] > ys) != (y[j] > ys)) & (xs < (x[j] - x[i]) * (ys - y[i]) / (y[j] - y[i] + 1e-12) + x[i])
        j = i
    return res


def overlap(a, b):
    """(IoU of a and b, the share of a inside b), on a grid over their bounds."""
    lo, hi = np.minimum(a.min(0), b.min(0)), np.maximum(a.max(0), b.max(0))
    step = max(0.5, (hi - lo).max() / 120)
    xs, ys = np.meshgrid(np.arange(lo[0], hi[0], step) + step / 2, np.arange(lo[1], hi[1], step) + step / 2)
    A, B = inside(a, xs, ys), inside(b, xs, ys)
    both, either, own = (A & B).sum(), (A | B).sum(), A.sum()
    return (both / either if either else 0.0), (both / own if own else 0.0)


def perfect_tile(gt_tile, spotted):
    drawn = [(gi, k, w, np.array(w["vertices"], float)) for gi, g in enumerate(gt_tile["groups"]) for k, w in enumerate(g)]
    words = [w for g in spotted for w in g]
    places = {}  # spotted index -> (phrase, place, position along the drawn word)
    for j, w in enumerate(words):
        p = np.array(w["vertices"], float)
        best = None
        for gi, k, d, q in drawn:
            if (p.min(0) > q.max(0)).any() or (p.max(0) < q.min(0)).any():
                continue
            iou, own = overlap(p, q)
            if (iou >= 0.5 or own >= 0.6) and (best is None or max(iou, own) > best[0]):
                n = len(q) // 2
                along = float(np.dot(p.mean(0) - q[0], q[n - 1] - q[0]))
                best = (max(iou, own), gi, k, along)
        if best:
            places[j] = best[1:]
    phrases = {}
    for j, (gi, k, along) in places.items():
        phrases.setdefault(gi, []).append((k, along, j))
    groups = [[words[j] for _, _, j in sorted(members)] for _, members in sorted(phrases.items())]
    groups += [[words[j]] for j in range(len(words)) if j not in places]
    return groups


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    gt_path, spotted_path, out_path = sys.argv[1:]
    for given in (gt_path, spotted_path):
        if os.path.exists(out_path) and os.path.samefile(given, out_path):
            sys.exit(f"perfect-linker.py: {out_path}: the output would overwrite an input ({given})")
    def read(path, what):
        try:
            data = json.load(open(path, encoding="utf-8"))
            return [(t["image"], t["groups"]) for t in data]
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit(f"perfect-linker.py: {path}: not MapText {what} (a list of {{image, groups}}): {e}")
    gt = [{"image": image, "groups": groups} for image, groups in read(gt_path, "ground truth")]
    spotted = dict(read(spotted_path, "predictions"))
    out = [{"image": t["image"], "groups": perfect_tile(t, spotted.get(t["image"], []))} for t in gt]
    partial = out_path + ".partial"  # written whole, then put in place: never half a file
    with open(partial, "w", encoding="utf-8") as f:
        json.dump(out, f)
    os.replace(partial, out_path)


if __name__ == "__main__":
    main()
