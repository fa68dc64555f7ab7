#!/usr/bin/env python3
"""How sure a test set's scores are: 95 % intervals over its tiles (a paired bootstrap).

    python3 scripts/tile-intervals.py LIGHT GT.json SPOTTED.json SPOTTED-LINKED.json GT-LINKED.json

LIGHT is the `light` binary. Each tile is scored: word detection of the spotted words (detrec,
`--per-image`: matched, drawn and spotted words, legible ones), their links after linking
(detrecedges: links right, wrong and missed, each tile alone with `--gt-regex --counts`) and the links
of the drawn words linked by the same linker (detedges). The set's scores pool those counts, as `light eval` does over the whole set, so they
equal its numbers. Tiles are then drawn with replacement, as many as the set has, 2,000 times; the
same draws serve every score, so the gap (drawn words' link F minus spotted words') keeps its pairing.
Prints one line of JSON: each score and its 2.5th and 97.5th percentiles (in percent).

A set of few tiles whose tiles differ (lettering of 5 px on one, 30 on the next) gives wide intervals:
docs/spotter.md, "Fresh tiles: the held-out numbers where no setting was chosen" and the 30-tile sets before it.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

DRAWS = 2000


def run_eval(light, gt, pred, task, *extra):
    """`light eval`'s output lines, parsed; a file it refuses ends the script, named."""
    run = subprocess.run([light, "eval", "--gt", gt, "--pred", pred, "--task", task, *extra], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"tile-intervals.py: {pred}: light eval --task {task} failed: {run.stderr.strip()}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def legible(tile):
    return sum(1 for g in tile["groups"] for w in g if not (w.get("illegible") or w.get("truncated")))


def link_counts(light, gt_path, gt, pred_path, task):
    """Per tile: (links right, drawn, found), each tile scored alone (`--counts` is set-wide)."""
    rows = []
    for tile in gt:
        pattern = "".join("[.]" if c == "." else c for c in tile["image"])  # --gt-regex: the name, literally
        c = run_eval(light, gt_path, pred_path, task, "--counts", "--gt-regex", pattern, "--threads", "1")[1]
        rows.append((c["edges_correct"], c["edges_correct"] + c["edges_missed"], c["edges_correct"] + c["edges_wrong"]))
    return np.array(rows, float)


def word_counts(light, gt_path, gt, pred_path):
    """Per tile: (words right, legible drawn words, spotted words counted), from one --per-image run:
    recall = right / drawn, precision = right / found."""
    try:
        spotted = {t["image"]: sum(len(g) for g in t["groups"]) for t in json.load(open(pred_path, encoding="utf-8"))}
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"tile-intervals.py: {pred_path}: not MapText predictions (a list of {{image, groups}}): {e}")
    with tempfile.TemporaryDirectory() as tmp:
        per_image = os.path.join(tmp, "per-image.json")
        run_eval(light, gt_path, pred_path, "detrec", "--per-image", per_image)
        metrics = json.load(open(per_image, encoding="utf-8"))["images"]
    rows = []
    for tile in gt:
        m = metrics[tile["image"]]
        drawn = legible(tile)
        right = m["recall"] * drawn
        # a tile with nothing right: its spotted words, counted whole
        rows.append((right, drawn, right / m["precision"] if m["precision"] > 0 else spotted.get(tile["image"], 0)))
    return np.array(rows, float)


def fscore(rows):
    right, drawn, found = rows.sum(0)
    return 2 * right / (drawn + found) if drawn + found > 0 else 0.0


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    light, gt_path, spotted, spotted_linked, gt_linked = sys.argv[1:]
    try:
        gt = json.load(open(gt_path, encoding="utf-8"))
        [t["image"] for t in gt]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"tile-intervals.py: {gt_path}: not MapText ground truth (a list of {{image, groups}}): {e}")
    det = word_counts(light, gt_path, gt, spotted)
    linked = link_counts(light, gt_path, gt, spotted_linked, "detrecedges")
    drawn = link_counts(light, gt_path, gt, gt_linked, "detedges")
    draws = np.random.default_rng(0).integers(0, len(gt), (DRAWS, len(gt)))
    scores = {
        "det_fscore": lambda t: fscore(det[t]),
        "link_fscore_spotted": lambda t: fscore(linked[t]),
        "link_fscore_drawn": lambda t: fscore(drawn[t]),
        "gap": lambda t: fscore(drawn[t]) - fscore(linked[t]),
    }
    out = {"tiles": len(gt)}
    everything = np.arange(len(gt))
    for name, score in scores.items():
        resampled = np.array([score(t) for t in draws])
        lo, hi = np.percentile(resampled, [2.5, 97.5])
        out[name] = [round(100 * score(everything), 1), round(100 * lo, 1), round(100 * hi, 1)]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
