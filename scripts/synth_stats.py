#!/usr/bin/env python3
"""Statistics of a `light synth` set (docs/synth.md): tile sides, words per megapixel, word height over
the tile side (histograms), rotated and curved words, words per phrase.
    python3 scripts/synth_stats.py DIR [DIR...]"""
import json, math, struct, sys, os


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    return struct.unpack('>II', head[16:24])


def word_geometry(v):
    n = len(v)
    if n < 4 or n % 2:
        return None
    k = n // 2
    bottom, top = v[:k], v[k:][::-1]
    h = sum(math.dist(bottom[i], top[i]) for i in range(k)) / k
    dx, dy = bottom[-1][0] - bottom[0][0], bottom[-1][1] - bottom[0][1]
    angle = abs(math.degrees(math.atan2(dy, dx)))
    angle = min(angle, 180 - angle)
    # curvature: the largest turn between consecutive baseline segments
    turns = []
    for i in range(1, k - 1):
        a = math.atan2(bottom[i][1] - bottom[i - 1][1], bottom[i][0] - bottom[i - 1][0])
        b = math.atan2(bottom[i + 1][1] - bottom[i][1], bottom[i + 1][0] - bottom[i][0])
        d = abs((b - a + math.pi) % (2 * math.pi) - math.pi)
        turns.append(d)
    return h, angle, sum(turns)


def histogram(values, edges, unit=''):
    counts = [0] * (len(edges) - 1)
    for x in values:
        for i in range(len(edges) - 1):
            if edges[i] <= x < edges[i + 1] or (i == len(edges) - 2 and x >= edges[-1]):
                counts[i] += 1
                break
    most = max(counts) or 1
    rows = []
    for i, c in enumerate(counts):
        label = f'{edges[i]:g}-{edges[i + 1]:g}{unit}' if i < len(edges) - 2 else f'{edges[i]:g}{unit}+'
        rows.append(f'| {label} | {c} | {"█" * round(30 * c / most)} |')
    return '\n'.join(['| bin | tiles | |', '|---|---|---|'] + rows)


for d in sys.argv[1:]:
    data = json.load(open(os.path.join(d, 'annotations.json')))
    sides, wpm, heights, rot, curved, words, groups, multi = [], [], [], 0, 0, 0, 0, 0
    linked, intruded, far = 0, 0, 0  # words with a successor; of those, with another word nearer; successor far
    for t in data:
        w, h = png_size(os.path.join(d, t['image']))
        side = math.sqrt(w * h)
        sides.append(side)
        n = sum(len(g) for g in t['groups'])
        wpm.append(n / (w * h / 1e6))
        hs = []
        for g in t['groups']:
            groups += 1
            multi += len(g) > 1
            for word in g:
                geo = word_geometry(word['vertices'])
                words += 1
                if geo:
                    hs.append(geo[0] / side)
                    rot += geo[1] > 10
                    curved += geo[2] > 0.15
        # Distances between word centres: is an unrelated word nearer than the successor, and is the
        # successor far (more than 3 word heights)?
        centres = []
        for gi, g in enumerate(t['groups']):
            for wi, word in enumerate(g):
                xs = [p[0] for p in word['vertices']]; ys = [p[1] for p in word['vertices']]
                geo = word_geometry(word['vertices'])
                v = word['vertices']
                k = len(v) // 2
                centres.append((gi, wi, sum(xs) / len(xs), sum(ys) / len(ys), geo[0] if geo else 10, v[0], v[k - 1]))
        index = {(c[0], c[1]): c for c in centres}
        for c in centres:
            nxt = index.get((c[0], c[1] + 1))
            if not nxt:
                continue
            linked += 1
            gap = math.dist(c[2:4], nxt[2:4])
            far += math.dist(c[6], nxt[5]) > 2 * c[4]  # the end of this word's baseline to the start of the next's
            intruded += any(o is not c and o is not nxt and math.dist(c[2:4], o[2:4]) < gap for o in centres)
        if hs:
            hs.sort()
            heights.append(hs[len(hs) // 2])
    print(f'## {d}: {len(data)} tiles, {words} words, {groups} phrases\n')
    print(f'- words per phrase {words / groups:.2f}; phrases of more than one word {100 * multi / groups:.0f}%; '
          f'rotated words (baseline over 10°) {100 * rot / words:.0f}%; curved {100 * curved / words:.0f}%')
    print(f'- tile side {min(sides):.0f}-{max(sides):.0f} px; words per megapixel {min(wpm):.1f}-{max(wpm):.1f} '
          f'(median {sorted(wpm)[len(wpm) // 2]:.1f}); median word height over the side per tile '
          f'{100 * min(heights):.2f}-{100 * max(heights):.2f}%')
    print(f'- of words with a successor: {100 * intruded / max(1, linked):.0f}% have an unrelated word nearer than it; '
          f'{100 * far / max(1, linked):.0f}% have it more than 2 word heights away (end of one word to the start of the next)\n')
    print('Tile side (px):\n\n' + histogram(sides, [600, 1000, 1500, 2000, 2500, 3000, 3500, 4000]) + '\n')
    print('Words per megapixel:\n\n' + histogram(wpm, [0, 5, 10, 20, 30, 40, 60, 80]) + '\n')
    print('Median word height / tile side (%):\n\n' + histogram([100 * x for x in heights], [0, 0.5, 1, 2, 3, 4, 6, 8]) + '\n')
