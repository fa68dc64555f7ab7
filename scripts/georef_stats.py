#!/usr/bin/env python3
"""Scores `light georef --from-names` on tiles of real places (`light synth --places`, issue 71).

    python3 scripts/georef_stats.py SYNTH/places.json GEOREF/georeferences.json [--linked LINKED] [--gt SYNTH/annotations.json] [--json]

Per map: how many of its drawn places, whether it was georeferenced, and the error at its places:
each place's longitude/latitude put on the image by the fitted transform (the least-squares fit of
the transform named, from the control points, on the azimuthal equidistant plane about their mean:
as `light georef` fits it) against the dot the tile drew, over the image's diagonal. The maps are
counted by how many places they show (the acceptance counts maps of 8 or more). Top-1 entity: for each drawn place,
whether the place `light georef` gives its phrase is the one drawn: of all drawn places, and of those
whose label became a phrase; and of the phrases whose place is accepted, the share right. With
--linked (phrases linked from spotter words), a drawn place's phrase is the linked phrase whose box
overlaps its label's box most (IoU 0.5 or more; --gt gives the labels' boxes); without, the groups
are the ground truth's own.
"""
import argparse
import json
import math
import sys

import numpy as np

from word_boxes import box, iou

R = 6371008.8


def aeqd(lon0, lat0, lon, lat):
    p0, p, dl = math.radians(lat0), math.radians(lat), math.radians(lon - lon0)
    cos_c = max(-1.0, min(1.0, math.sin(p0) * math.sin(p) + math.cos(p0) * math.cos(p) * math.cos(dl)))
    c = math.acos(cos_c)
    k = 1.0 if c < 1e-12 else c / math.sin(c)
    return R * k * math.cos(p) * math.sin(dl), R * k * (math.cos(p0) * math.sin(p) - math.sin(p0) * math.cos(p) * math.cos(dl))


def design(pts, kind):
    x, y = pts[:, 0], pts[:, 1]
    if kind == "helmert":
        return None
    order = {"affine": 1, "polynomial2": 2, "polynomial3": 3}[kind]
    cols = [x ** i * y ** (d - i) for d in range(order + 1) for i in range(d, -1, -1)]
    return np.stack(cols, axis=1)


def tps(src, dst):
    m, s = src.mean(axis=0), np.abs(src - src.mean(axis=0)).max() or 1.0
    c = (src - m) / s
    n = len(c)

    def kernel(a, b):
        r2 = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(r2 > 0, 0.5 * r2 * np.log(r2), 0.0)
    a = np.zeros((n + 3, n + 3))
    a[:n, :n] = kernel(c, c)
    a[:n, n], a[:n, n + 1], a[:n, n + 2] = 1, c[:, 0], c[:, 1]
    a[n:, :n] = a[:n, n:].T
    b = np.zeros((n + 3, 2))
    b[:n] = dst
    w = np.linalg.lstsq(a, b, rcond=None)[0]

    def apply(p):
        q = (p - m) / s
        return kernel(q, c) @ w[:n] + w[n] + q[:, :1] * w[n + 1] + q[:, 1:2] * w[n + 2]
    return apply


def fit(kind, src, dst):
    """A function mapping src-plane points to dst, fitted as light fits it."""
    if kind == "thin_plate_spline":
        return tps(src, dst)
    if kind == "helmert":
        n = len(src)
        a = np.zeros((2 * n, 4))
        a[0::2, 0], a[0::2, 1], a[0::2, 2] = src[:, 0], -src[:, 1], 1
        a[1::2, 0], a[1::2, 1], a[1::2, 3] = src[:, 1], src[:, 0], 1
        b = dst.reshape(-1)
        c = np.linalg.lstsq(a, b, rcond=None)[0]
        return lambda p: np.stack([c[0] * p[:, 0] - c[1] * p[:, 1] + c[2], c[1] * p[:, 0] + c[0] * p[:, 1] + c[3]], axis=1)
    m, s = src.mean(axis=0), np.abs(src - src.mean(axis=0)).max() or 1.0
    a = design((src - m) / s, kind)
    cx = np.linalg.lstsq(a, dst[:, 0], rcond=None)[0]
    cy = np.linalg.lstsq(a, dst[:, 1], rcond=None)[0]
    return lambda p: np.stack([design((p - m) / s, kind) @ cx, design((p - m) / s, kind) @ cy], axis=1)


def group_boxes(dataset):
    out = {}
    for t in dataset:
        boxes = []
        for g in t["groups"]:
            bs = [box(w["vertices"]) for w in g]
            boxes.append((min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs)) if bs else None)
        out[t["image"]] = boxes
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("places")
    ap.add_argument("georeferences")
    ap.add_argument("--linked")
    ap.add_argument("--gt")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    truth = {t["image"]: t for t in json.load(open(a.places))}
    geo = {g["image"]: g for g in json.load(open(a.georeferences))}
    linked = group_boxes(json.load(open(a.linked))) if a.linked else None
    gt = group_boxes(json.load(open(a.gt))) if a.gt else None
    if linked is not None and gt is None:
        sys.exit("--linked needs --gt (the drawn labels' boxes)")
    rows = []
    top1 = [0, 0]  # of all drawn places
    read = [0, 0]  # of the drawn places whose label became a phrase
    accepted = [0, 0]  # of those phrases' places accepted: right, all
    for image, t in truth.items():
        g = geo.get(image, {"georeferenced": False, "places": []})
        n = len(t["places"])
        row = {"image": image, "places": n, "georeferenced": g["georeferenced"], "error": None, "transform": g.get("transform")}
        if g["georeferenced"]:
            gcps = g["gcps"]
            lon0 = sum(p["lon"] for p in gcps) / len(gcps)
            lat0 = sum(p["lat"] for p in gcps) / len(gcps)
            src = np.array([aeqd(lon0, lat0, p["lon"], p["lat"]) for p in gcps])
            dst = np.array([[p["x"], -p["y"]] for p in gcps])
            f = fit(g["transform"], src, dst)
            pts = np.array([aeqd(lon0, lat0, p["lon"], p["lat"]) for p in t["places"]])
            pred = f(pts)
            err = np.hypot(pred[:, 0] - np.array([p["x"] for p in t["places"]]), -pred[:, 1] - np.array([p["y"] for p in t["places"]]))
            row["error"] = float(np.median(err)) / math.hypot(t["width"], t["height"])
        # Top-1: the place given to each drawn place's phrase.
        given, given_accepted = {}, {}
        for p in g.get("places", []):
            given[p["group"]] = p["id"]
            given_accepted[p["group"]] = p["accepted"]
        for p in t["places"]:
            group = p["group"]
            if linked is not None:
                label = gt[image][group]
                best, best_iou = None, 0.5
                for k, b in enumerate(linked.get(image, [])):
                    if b is not None and iou(label, b) >= best_iou:
                        best, best_iou = k, iou(label, b)
                group = best
            right = group is not None and given.get(group) == p["id"]
            top1[1] += 1
            top1[0] += right
            if group is not None:
                read[1] += 1
                read[0] += right
                if given_accepted.get(group):
                    accepted[1] += 1
                    accepted[0] += right
        rows.append(row)
    bands = [("8 or more places", lambda r: r["places"] >= 8), ("5-7", lambda r: 5 <= r["places"] < 8), ("under 5", lambda r: r["places"] < 5)]
    summary = {}
    for name, keep in bands:
        rs = [r for r in rows if keep(r)]
        done = [r for r in rs if r["georeferenced"]]
        errs = sorted(r["error"] for r in done)
        summary[name] = {
            "maps": len(rs),
            "georeferenced": len(done),
            "median_error_of_diagonal": errs[len(errs) // 2] if errs else None,
            "within_1_percent": sum(e <= 0.01 for e in errs),
            "within_3_percent": sum(e <= 0.03 for e in errs),
        }
    summary["top1"] = top1[0] / top1[1] if top1[1] else None
    summary["top1_of_read"] = read[0] / read[1] if read[1] else None
    summary["accepted_precision"] = accepted[0] / accepted[1] if accepted[1] else None
    summary["accepted_share"] = accepted[1] / read[1] if read[1] else None
    if a.json:
        print(json.dumps({"summary": summary, "maps": rows}, indent=1))
        return
    print("| maps showing | maps | georeferenced | median error (of diagonal) | within 1 % | within 3 % |")
    print("|---|---|---|---|---|---|")
    for name, _ in bands:
        s = summary[name]
        med = "-" if s["median_error_of_diagonal"] is None else "%.2f %%" % (100 * s["median_error_of_diagonal"])
        pct = "%.0f %%" % (100 * s["georeferenced"] / s["maps"]) if s["maps"] else "-"
        print("| %s | %d | %d (%s) | %s | %d | %d |" % (name, s["maps"], s["georeferenced"], pct, med, s["within_1_percent"], s["within_3_percent"]))
    print("top-1 place: of the drawn places %.3f (%d of %d); of those whose label became a phrase %.3f (%d of %d); "
          "accepted %d (%.0f %%), %.3f of them right" % (summary["top1"] or 0, top1[0], top1[1], summary["top1_of_read"] or 0, read[0], read[1],
                                                        accepted[1], 100 * (summary["accepted_share"] or 0), summary["accepted_precision"] or 0))


if __name__ == "__main__":
    main()
