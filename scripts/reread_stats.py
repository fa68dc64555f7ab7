#!/usr/bin/env python3
"""Words read again against the places near them (`light link --georef names`), measured on
`light synth --places` maps: each output's words matched to the ground truth's (IoU >= 0.5 of their
boxes) and counted right or wrong, over all words and over the words of the places' names.

  reread_stats.py SYNTH_DIR AS_READ.geojson REREAD.geojson
"""
import json
import os
import sys

from word_boxes import box, iou


def words_of(path):
    """Each image's words, each with its pixel outline as "pixel_vertices" (a map left in pixels has
    them as its feature's polygons, a word each)."""
    out = {}
    for f in json.load(open(path))["features"]:
        for k, w in enumerate(f["properties"]["words"]):
            if "pixel_vertices" not in w:
                w["pixel_vertices"] = f["geometry"]["coordinates"][k][0]
            out.setdefault(os.path.basename(f["properties"]["image"]), []).append(w)
    return out


def main():
    synth, as_read, reread = sys.argv[1:4]
    gt = {os.path.basename(t["image"]): t for t in json.load(open(os.path.join(synth, "annotations.json")))}
    places = {os.path.basename(m["image"]): {p["group"] for p in m["places"]} for m in json.load(open(os.path.join(synth, "places.json")))}
    before, after = words_of(as_read), words_of(reread)
    counts = {k: [0, 0, 0] for k in ("all", "names")}  # words found, right as read, right after
    changes = {"fixed": 0, "broken": 0, "wrong to wrong": 0}
    for image, out in after.items():
        read = {tuple(map(tuple, w["pixel_vertices"])): w["text"] for w in before.get(image, [])}
        truth = gt[image]
        for g, group in enumerate(truth["groups"]):
            for t in group:
                if t.get("illegible") or t.get("truncated"):
                    continue
                b = box(t["vertices"])
                best = max(out, key=lambda w: iou(b, box(w["pixel_vertices"])), default=None)
                if best is None or iou(b, box(best["pixel_vertices"])) < 0.5:
                    continue
                was = read.get(tuple(map(tuple, best["pixel_vertices"])), best.get("read_as", best["text"]))
                for k in ("all", "names") if g in places[image] else ("all",):
                    counts[k][0] += 1
                    counts[k][1] += was == t["text"]
                    counts[k][2] += best["text"] == t["text"]
                if best["text"] != was:
                    changes["fixed" if best["text"] == t["text"] else "broken" if was == t["text"] else "wrong to wrong"] += 1
    print("| words | found | right as read | right read again |")
    print("|---|---|---|---|")
    for k, (n, a, b) in counts.items():
        print(f"| {k} | {n} | {a} ({a / max(n, 1):.3f}) | {b} ({b / max(n, 1):.3f}) |")
    print(f"\nchanged: {changes['fixed']} fixed, {changes['broken']} broken, {changes['wrong to wrong']} wrong to wrong")


if __name__ == "__main__":
    main()
