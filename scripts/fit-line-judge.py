#!/usr/bin/env python3
"""Fits the line judge (src/light/link/line_judge.h) to rows written by `light link --judge-rows`.

Each row is a word's judged candidates (log P after the decoding priors, then the features) and which
of them is its true successor (itself: the phrase ends). The judge is a conditional logit: a softmax
over the row of log P + w . f, w fitted by Newton's method with an L2 penalty; w = 0 leaves the
decoding as it was. Rows may be weighed by file (ROWS:WEIGHT) and by where the true successor lies
(--class-weights): a weight above 1 on a class asks for more of its links at some cost in precision.

  python3 scripts/fit-line-judge.py -o weights.json rows-a.jsonl rows-b.jsonl:3 \
      --class-weights next_line_unaligned=3,above=3,spread=2,next_line_aligned=1.5 [--end-shift -0.25] \
      [--config MODEL/config.json]   # the weights written into the model's config (line_judge 1)

Prints each class's share of rows whose best entry is the true one, before and after. Needs numpy.
"""
import argparse
import json
import os
import sys
import tempfile

import numpy as np

CLASSES = ["end", "near", "next_line_aligned", "next_line_unaligned", "spread", "above", "other"]


def row_class(names, x):
    f = dict(zip(names, x))
    if f.get("end"):
        return "end"
    if f.get("next_line"):
        return "next_line_aligned" if f.get("next_aligned") else "next_line_unaligned"
    for c in ("spread", "above", "near"):
        if f.get(c):
            return c
    return "other"


def parse_line(path, n, line):
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        sys.exit(f"{path}: line {n}: not JSON ({e.msg})")


def write_atomically(path, data):
    """`data` as indented JSON at `path`, whole or not at all."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def read_rows(specs, class_weights):
    names, offs, feats, starts, truth, weight, klass = None, [], [], [], [], [], []
    at = 0
    for spec in specs:
        path, w = spec, 1.0
        if ":" in spec and spec.rsplit(":", 1)[1].replace(".", "", 1).isdigit():
            path, w = spec.rsplit(":", 1)[0], float(spec.rsplit(":", 1)[1])
        try:
            f = open(path)
        except OSError as e:
            sys.exit(f"{path}: {e.strerror}")
        with f:
            head = parse_line(path, 1, f.readline() or "{}")
            if not isinstance(head, dict) or "features" not in head:
                sys.exit(f"{path}: line 1: expected {{\"features\": [...]}} (written by light link --judge-rows)")
            if names is None:
                names = head["features"]
            elif names != head["features"]:
                sys.exit(f"{path}: features: not those of {specs[0]} (rows of another light)")
            for n, line in enumerate(f, 2):
                r = parse_line(path, n, line)
                bad = not isinstance(r, dict) or not isinstance(r.get("truth"), int) or not isinstance(r.get("rows"), list)
                rows = np.zeros((0, 0)) if bad else np.asarray(r["rows"], dtype=np.float64)
                if bad or rows.ndim != 2 or rows.shape[1] != len(names) + 1 or not 0 <= r["truth"] < len(rows):
                    sys.exit(f"{path}: line {n}: rows: expected [log P, {len(names)} features] each and a truth among them")
                c = row_class(names, rows[r["truth"], 1:])
                offs.append(rows[:, 0]), feats.append(rows[:, 1:]), starts.append(at), truth.append(at + r["truth"])
                weight.append(w * class_weights.get(c, 1.0)), klass.append(c)
                at += len(rows)
    if not starts:
        sys.exit("no rows to fit to")
    return names, np.concatenate(offs), np.concatenate(feats), np.array(starts), np.array(truth), np.array(weight), klass


def fit(o, X, starts, truth, rw, l2):
    seg = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(o))))
    K = X.shape[1]

    def stats(w):
        z = o + X @ w
        zmax = np.maximum.reduceat(z, starts)
        e = np.exp(z - zmax[seg])
        S = np.add.reduceat(e, starts)
        p = e / S[seg]
        ll = np.sum(rw * (z[truth] - zmax - np.log(S))) - 0.5 * l2 * w @ w
        pw = p * rw[seg]
        g = rw @ X[truth] - pw @ X - l2 * w
        Ex = np.add.reduceat(p[:, None] * X, starts)
        H = (X * pw[:, None]).T @ X - (Ex * rw[:, None]).T @ Ex + l2 * np.eye(K)
        return ll, g, H

    w = np.zeros(K)
    for _ in range(50):
        ll, g, H = stats(w)
        step = np.linalg.solve(H, g)
        t = 1.0
        while stats(w + t * step)[0] < ll and t > 1e-4:
            t *= 0.5
        w = w + t * step
        if np.abs(t * step).max() < 1e-6:
            break
    return w


def accuracy(o, X, starts, truth, klass, w):
    z = o + X @ w
    ends = np.append(starts, len(o))
    hits = {}
    for k, (s, e) in enumerate(zip(ends[:-1], ends[1:])):
        hits.setdefault(klass[k], []).append(s + int(np.argmax(z[s:e])) == truth[k])
    return {c: (len(v), float(np.mean(v))) for c, v in hits.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rows", nargs="+", help="ROWS.jsonl[:WEIGHT] (light link --judge-rows)")
    ap.add_argument("-o", "--out", help="the weights, a JSON object (config.json's line_judge_weights)")
    ap.add_argument("--config", help="a model's config.json to write the weights into (line_judge_weights; line_judge 1)")
    ap.add_argument("--l2", type=float, default=1.0, help="the L2 penalty (default 1)")
    ap.add_argument("--class-weights", default="", help="CLASS=W,... rows weighed by their true successor's class (" + ", ".join(CLASSES) + ")")
    ap.add_argument("--drop", default="", help="FEATURE,... left out of the fit (their weights 0)")
    ap.add_argument("--end-shift", type=float, default=0.0, help="added to the weight of \"end\" (below 0: fewer phrases end)")
    a = ap.parse_args()
    if not a.out and not a.config:
        ap.error("give -o FILE or --config MODEL/config.json")
    cw = {}
    for item in filter(None, a.class_weights.split(",")):
        k, _, v = item.partition("=")
        if k not in CLASSES or not v.replace(".", "", 1).isdigit():
            ap.error(f"--class-weights: {item}: expected CLASS=W with CLASS one of {', '.join(CLASSES)}")
        cw[k] = float(v)
    if a.out:
        for spec in a.rows + ([a.config] if a.config else []):
            path = spec.rsplit(":", 1)[0] if ":" in spec and spec.rsplit(":", 1)[1].replace(".", "", 1).isdigit() else spec
            if same_file(a.out, path):
                ap.error(f"-o {a.out}: is an input ({path}); write the weights elsewhere")
    if a.config:
        try:
            with open(a.config) as f:
                config = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            ap.error(f"--config {a.config}: {getattr(e, 'strerror', None) or e}")
        if not isinstance(config, dict):
            ap.error(f"--config {a.config}: expected a model's config.json (a JSON object)")
    names, o, X, starts, truth, rw, klass = read_rows(a.rows, cw)
    for name in filter(None, a.drop.split(",")):
        if name not in names:
            ap.error(f"--drop: {name}: not a feature of these rows")
        X[:, names.index(name)] = 0
    w = fit(o, X, starts, truth, rw, a.l2)
    w[names.index("end")] += a.end_shift
    before, after = accuracy(o, X, starts, truth, klass, np.zeros_like(w)), accuracy(o, X, starts, truth, klass, w)
    for c in CLASSES:
        if c in before:
            print(f"{c:22s} {before[c][0]:6d} rows  best entry true {100 * before[c][1]:5.1f} % -> {100 * after[c][1]:5.1f} %")
    weights = {n: round(float(v), 4) for n, v in zip(names, w) if round(float(v), 4) != 0}
    if a.out:
        write_atomically(a.out, weights)
    if a.config:
        config["line_judge"] = 1
        config["line_judge_weights"] = weights
        write_atomically(a.config, config)


if __name__ == "__main__":
    main()
