#!/usr/bin/env python3
"""The characters a spotter misreads, measured on words annotated by hand: a confusions.tsv for
`light place` and `light georef` (geo/read_confusions.h; issue 71).

    python3 scripts/spotter_confusions.py GT.json [GT2.json ...] --pred SPOTTED.json [-o confusions.tsv] [--min-count 3]

Each spotted word is paired with the annotated word whose box it overlaps most (IoU 0.5 or more, one
each); both texts are normalised as `light search` normalises (case folded, accents stripped); their
Levenshtein alignment gives each substitution (printed -> read). A pair seen --min-count times or more
is written with cost 0.5 when it is one in five or more of that printed character's misreadings
(the spotter's habit), else 0.75; any other substitution costs 1 (a letter wrong at random).
"""
import argparse
import collections
import json
import sys
import unicodedata

from word_boxes import box, iou


def norm(text):
    t = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in t if not unicodedata.combining(c))


def substitutions(a, b):
    """(printed, read) pairs of an optimal alignment of a to b."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    out, i, j = [], n, m
    while i > 0 and j > 0:
        if d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            if a[i - 1] != b[j - 1]:
                out.append((a[i - 1], b[j - 1]))
            i, j = i - 1, j - 1
        elif d[i][j] == d[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gt", nargs="+")
    ap.add_argument("--pred", required=True)
    ap.add_argument("-o", "--out")
    ap.add_argument("--min-count", type=int, default=3)
    a = ap.parse_args()
    gt = collections.defaultdict(list)
    for path in a.gt:
        for t in json.load(open(path)):
            for g in t["groups"]:
                for w in g:
                    if w.get("text") and not w.get("illegible"):
                        gt[t["image"].split("/")[-1]].append(w)
    pairs, printed = collections.Counter(), collections.Counter()
    words = 0
    for t in json.load(open(a.pred)):
        truth = gt.get(t["image"].split("/")[-1], [])
        used = set()
        for g in t["groups"]:
            for w in g:
                if not w.get("text"):
                    continue
                b = box(w["vertices"])
                best, best_iou = None, 0.5
                for k, u in enumerate(truth):
                    if k not in used and iou(b, box(u["vertices"])) >= best_iou:
                        best, best_iou = k, iou(b, box(u["vertices"]))
                if best is None:
                    continue
                used.add(best)
                words += 1
                p, r = norm(truth[best]["text"]), norm(w["text"])
                for c in p:
                    printed[c] += 1
                for s in substitutions(p, r):
                    if s[0].isalnum() and s[1].isalnum():  # what search's normal form keeps
                        pairs[s] += 1
    by_printed = collections.Counter()
    for (p, _), n in pairs.items():
        by_printed[p] += n
    rows = [(p, r, n) for (p, r), n in pairs.most_common() if n >= a.min_count]
    out = open(a.out, "w") if a.out else sys.stdout
    out.write("# printed\tread\tcost\t(count; of %d words paired, %d characters)\n" % (words, sum(printed.values())))
    for p, r, n in rows:
        cost = 0.5 if n >= 0.2 * by_printed[p] else 0.75
        out.write("%s\t%s\t%s\t%d\n" % (p, r, cost, n))
    print("%d words paired, %d substitutions, %d pairs written" % (words, sum(pairs.values()), len(rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
