#!/usr/bin/env python3
"""How the names of a MapText set are stacked and spread (issue 70; docs/synth.md, "Names on several
lines as real sheets set them"): each link of a phrase classed as `light eval --link-classes` does (in the first word's
reading frame, in its heights: next line, centre more than 0.75 below; above, more than 0.75 above;
spread, more than 2 of white between them; near), and for the next-line links the shape of the stack:
whether the two lines line up (their nearest left ends, centres or right ends within 0.3 heights,
along the upper word's direction), the line spacing (centre to centre, across), the lower word's
height over the upper's, and the angle between the two words.

    python3 scripts/stack_stats.py ANNOTATIONS.json [ANNOTATIONS.json ...]
    python3 scripts/stack_stats.py --json OUT.json ANNOTATIONS.json   (the numbers, for a table)
    python3 scripts/stack_stats.py --pred LINKED.json ANNOTATIONS.json
        a linker's links (`light link` on the ground-truth words) scored against the phrases: recall
        by class, next-line links split into aligned and unaligned stacks, and precision
"""
import json
import math
import os
import sys


def frame(v):
    """A word's reading frame as geometry::reading_frame: start and end (mid-points of its polygon's
    end edges), its height (area over length), its unit direction and its centre."""
    n = len(v)
    a, b, c, d = v[0], v[n - 1], v[n // 2 - 1], v[n // 2]
    start = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    end = ((c[0] + d[0]) / 2, (c[1] + d[1]) / 2)
    length = math.dist(start, end)
    area = 0.0
    for i in range(n):
        x0, y0 = v[i]
        x1, y1 = v[(i + 1) % n]
        area += x0 * y1 - x1 * y0
    area = abs(area) / 2
    if length < 1e-9:
        xs, ys = [p[0] for p in v], [p[1] for p in v]
        start, end = (min(xs), (min(ys) + max(ys)) / 2), (max(xs), (min(ys) + max(ys)) / 2)
        length = max(1e-9, max(xs) - min(xs))
        h = max(ys) - min(ys)
    else:
        h = area / length
    u = ((end[0] - start[0]) / length, (end[1] - start[1]) / length)
    return {'start': start, 'end': end, 'h': max(h, 1e-9), 'u': u, 'len': length,
            'c': ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), 'v': v}


def offset(f, g):
    """g's centre seen from f, in f's heights: along, across (below is +), gap (white along the line)."""
    dx, dy = g['c'][0] - f['c'][0], g['c'][1] - f['c'][1]
    ux, uy = f['u']
    along = (dx * ux + dy * uy) / f['h']
    across = (-dx * uy + dy * ux) / f['h']
    # g's half-length along f's axis
    proj = [((p[0] - g['c'][0]) * ux + (p[1] - g['c'][1]) * uy) for p in (g['start'], g['end'])]
    gap = (abs(dx * ux + dy * uy) - f['len'] / 2 - max(abs(proj[0]), abs(proj[1]))) / f['h']
    return along, across, gap


def link_class(f, g):
    along, across, gap = offset(f, g)
    if across > 0.75:
        return 'next_line'
    if across < -0.75:
        return 'above'
    if gap > 2:
        return 'spread'
    if along < 0:
        return 'backwards'
    return 'near'


def angle_between(f, g):
    a = math.degrees(math.atan2(f['u'][1], f['u'][0]) - math.atan2(g['u'][1], g['u'][0]))
    a = (a + 180) % 360 - 180
    return abs(a)


def line_span(f, words):
    """The extent [lo, hi] of a line's words along f's direction (their polygons projected)."""
    ux, uy = f['u']
    xs = [(p[0] - f['c'][0]) * ux + (p[1] - f['c'][1]) * uy for w in words for p in w['v']]
    return min(xs), max(xs)


def phrase_links(g):
    """A phrase's words' frames and its links: (i, class, ends) for the link from word i to word i + 1,
    `ends` (next-line links only, else None) how far apart the two lines' nearest left ends, centres or
    right ends lie along word i's direction, in its heights. Its lines: runs of words joined by links
    that are neither next line nor above. None for a phrase with a word of no polygon."""
    ws = [frame(w['vertices']) for w in g if len(w.get('vertices', [])) >= 4]
    if len(ws) != len(g):
        return None
    cls = [link_class(ws[i], ws[i + 1]) for i in range(len(ws) - 1)]
    lines, line_of = [[0]], [0]
    for i, c in enumerate(cls):
        if c in ('next_line', 'above'):
            lines.append([])
        lines[-1].append(i + 1)
        line_of.append(len(lines) - 1)
    out = []
    for i, c in enumerate(cls):
        ends = None
        if c == 'next_line':
            f = ws[i]
            lo_a, hi_a = line_span(f, [ws[k] for k in lines[line_of[i]]])
            lo_b, hi_b = line_span(f, [ws[k] for k in lines[line_of[i + 1]]])
            ends = min(abs(lo_a - lo_b), abs(hi_a - hi_b), abs((lo_a + hi_a) / 2 - (lo_b + hi_b) / 2)) / f['h']
        out.append((i, c, ends))
    return ws, out


def key(vertices):
    return tuple((round(p[0], 1), round(p[1], 1)) for p in vertices)


def link_recall(tiles, pred_tiles):
    """Recall of the ground truth's links by class (next line split by whether the stack lines up),
    and the precision of the predicted links, words matched by their polygons; links to or from an
    illegible word are left out, as `light eval` leaves them."""
    pred = {}
    for t in pred_tiles:
        links = pred.setdefault(t['image'], set())
        for g in t['groups']:
            g = [w for w in g if w.get('vertices')]
            for a, b in zip(g, g[1:]):
                links.add((key(a['vertices']), key(b['vertices'])))
    found, total = {}, {}
    true_links = 0
    for t in tiles:
        links = pred.get(t['image'], set())
        for g in t['groups']:
            got = phrase_links(g)
            if got is None:
                continue
            for i, c, ends in got[1]:
                if c == 'next_line':
                    c = 'next_line_aligned' if ends <= 0.3 else 'next_line_unaligned'
                if g[i].get('illegible') or g[i + 1].get('illegible'):
                    continue  # as the evaluator: a link to a word no one can read is neither found nor missed
                hit = (key(g[i]['vertices']), key(g[i + 1]['vertices'])) in links
                total[c] = total.get(c, 0) + 1
                found[c] = found.get(c, 0) + hit
                true_links += hit
    illegible = set()
    for t in tiles:
        for g in t['groups']:
            for w in g:
                if w.get('illegible'):
                    illegible.add((t['image'], key(w['vertices'])))
    predicted = sum(1 for image, v in pred.items() for a, b in v if (image, a) not in illegible and (image, b) not in illegible)
    recall = {c: (100.0 * found[c] / total[c], total[c]) for c in sorted(total)}
    gt_links = sum(total.values())
    r = 100.0 * true_links / gt_links if gt_links else 0.0
    p = 100.0 * true_links / predicted if predicted else 0.0
    return recall, r, p, (2 * r * p / (r + p) if r + p else 0.0)


def stats(tiles):
    classes = {'near': 0, 'spread': 0, 'next_line': 0, 'above': 0, 'backwards': 0}
    stacks = []
    for t in tiles:
        for g in t['groups']:
            got = phrase_links(g)
            if got is None:
                continue
            ws, links = got
            for i, c, ends in links:
                classes[c] += 1
                if c == 'next_line':
                    f, h = ws[i], ws[i + 1]
                    _, across, _ = offset(f, h)
                    stacks.append({'ends': ends, 'spacing': across, 'height_ratio': h['h'] / f['h'], 'angle': angle_between(f, h)})
    return classes, stacks


def share(xs, pred):
    return 100.0 * sum(1 for x in xs if pred(x)) / len(xs) if xs else float('nan')


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2] if s else float('nan')


def summary(classes, stacks):
    links = sum(classes.values())
    return {
        'links': links,
        'classes_pct': {k: 100.0 * v / links if links else 0 for k, v in classes.items()},
        'next_line_links': len(stacks),
        'aligned_pct': share(stacks, lambda s: s['ends'] <= 0.3),
        'unaligned_pct': share(stacks, lambda s: s['ends'] > 0.3),
        'spacing_median': median([s['spacing'] for s in stacks]),
        'spacing_under_1_3_pct': share(stacks, lambda s: s['spacing'] < 1.3),
        'spacing_3_or_more_pct': share(stacks, lambda s: s['spacing'] >= 3),
        'height_outside_pct': share(stacks, lambda s: not 0.8 <= s['height_ratio'] <= 1.25),
        'angle_5_or_more_pct': share(stacks, lambda s: s['angle'] >= 5),
    }


def read_tiles(path):
    """A MapText JSON's tiles, or None (the reason said on stderr, naming the file)."""
    try:
        with open(path) as f:
            tiles = json.load(f)
    except (OSError, ValueError) as e:
        print(f'{path}: cannot read a MapText JSON ({e})', file=sys.stderr)
        return None
    if not isinstance(tiles, list) or any(not isinstance(t, dict) or 'groups' not in t for t in tiles):
        print(f'{path}: not a MapText JSON (a list of tiles, each with "groups")', file=sys.stderr)
        return None
    return tiles


def main(argv):
    out = pred = None
    while len(argv) >= 2 and argv[0] in ('--json', '--pred'):
        if argv[0] == '--json':
            out = argv[1]
        else:
            pred = argv[1]
        argv = argv[2:]
    if out and any(os.path.realpath(out) == os.path.realpath(p) for p in argv + ([pred] if pred else [])):
        print(f'--json {out}: is an input; give another file', file=sys.stderr)
        return 1
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pred_tiles = read_tiles(pred) if pred else None
    if pred and pred_tiles is None:
        return 1
    results = {}
    for path in argv:
        tiles = read_tiles(path)
        if tiles is None:
            return 1
        if pred:
            recall, r, p, f1 = link_recall(tiles, pred_tiles)
            results[path] = {'recall': {c: v[0] for c, v in recall.items()}, 'links': {c: v[1] for c, v in recall.items()},
                             'R': r, 'P': p, 'F': f1}
            print(f"{pred} on {path}: link R / P / F {r:.1f} / {p:.1f} / {f1:.1f}; recall " +
                  ", ".join(f"{c} {v[0]:.1f} ({v[1]})" for c, v in recall.items()))
            continue
        s = summary(*stats(tiles))
        results[path] = s
        c = s['classes_pct']
        print(f"{path}: {s['links']} links: near {c['near']:.1f} %, spread {c['spread']:.1f} %, next line {c['next_line']:.1f} %, "
              f"above {c['above']:.1f} %, backwards {c['backwards']:.1f} %")
        print(f"  next-line links {s['next_line_links']}: aligned {s['aligned_pct']:.0f} %, not {s['unaligned_pct']:.0f} %; "
              f"spacing median {s['spacing_median']:.2f} heights, under 1.3 {s['spacing_under_1_3_pct']:.0f} %, "
              f"3 or more {s['spacing_3_or_more_pct']:.0f} %; height outside 0.8-1.25 {s['height_outside_pct']:.0f} %; "
              f"angles 5 degrees or more apart {s['angle_5_or_more_pct']:.0f} %")
    if out:
        with open(out + '.part', 'w') as f:
            json.dump(results, f, indent=1)
        os.replace(out + '.part', out)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
