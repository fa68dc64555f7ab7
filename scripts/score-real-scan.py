#!/usr/bin/env python3
"""Scores spotters' words on a real scan against hand-read words given as points (no polygons).

    python3 scripts/score-real-scan.py data/schagen-1689/words.json NAME=PRED.json [NAME=PRED.json ...]

WORDS.json (data/schagen-1689/words.json): a region of the image, its words (text and a point inside
each) and points to ignore (lettering cut by the region's edge or not legible). PRED.json: MapText
predictions (light spot, or Tesseract's boxes). A predicted word counts when its centre lies in the
region and it covers no ignored point. A hand-read word is found when a predicted word's polygon
contains its point; each predicted word finds one word at most (of those it contains, the one read most
alike). Detection P / R / F count words found; character accuracy is 1 - normalised edit distance,
averaged over the words found (as the MapText evaluator's char_accuracy).
"""
import json
import sys


def inside(pt, poly):
    x, y = pt
    hit = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def ned(a, b):
    return levenshtein(a, b) / max(len(a), len(b), 1)


def score(truth, pred_path):
    x0, y0, x1, y1 = truth["region"]
    tiles = json.load(open(pred_path, encoding="utf-8"))
    tile = next((t for t in tiles if t["image"].split("/")[-1] == truth["image"]), None)
    if tile is None:
        sys.exit(f"{pred_path}: no predictions for {truth['image']}")
    preds = []
    for g in tile["groups"]:
        for w in g:
            v = w["vertices"]
            cx, cy = sum(p[0] for p in v) / len(v), sum(p[1] for p in v) / len(v)
            if not (x0 <= cx <= x1 and y0 <= cy <= y1):
                continue
            if any(inside(i["point"], v) for i in truth["ignore"]):
                continue
            preds.append((w.get("text", ""), v))
    used, found = set(), []
    for word in truth["words"]:
        cands = [k for k, (t, v) in enumerate(preds) if k not in used and inside(word["point"], v)]
        if not cands:
            continue
        k = min(cands, key=lambda k: ned(preds[k][0], word["text"]))
        used.add(k)
        found.append(1 - ned(preds[k][0], word["text"]))
    n = len(truth["words"])
    p = len(found) / len(preds) if preds else 0.0
    r = len(found) / n if n else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    chars = sum(found) / len(found) if found else 0.0
    return n, len(preds), len(found), p, r, f, chars


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    truth = json.load(open(sys.argv[1], encoding="utf-8"))
    print("| spotter | words | predicted | found | det F / P / R | char acc. |")
    print("|---|---|---|---|---|---|")
    for arg in sys.argv[2:]:
        name, _, path = arg.partition("=")
        n, m, k, p, r, f, c = score(truth, path)
        print(f"| {name} | {n} | {m} | {k} | {100*f:.1f} / {100*p:.1f} / {100*r:.1f} | {100*c:.1f} |")


if __name__ == "__main__":
    main()
