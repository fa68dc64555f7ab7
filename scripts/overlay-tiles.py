#!/usr/bin/env python3
"""Synthetic map lettering over real map scans: each synthetic tile printed over a crop of a real
annotated tile, for training a detector on words among real hatching, tints, line work and paper.

    python3 scripts/overlay-tiles.py OUT SYNTH_JSON:SYNTH_IMAGES REAL_JSON:REAL_IMAGES [SEED]

Each synthetic tile is divided by its paper's colour (so its paper prints as nothing) and multiplied
over a crop of the same size from a real tile drawn at random (a real tile smaller than the synthetic
one is tiled to cover it). Both tiles' words are kept: the synthetic ones as they are, the real ones
moved into the crop; a real word the crop cuts is kept illegible (learnt as neither text nor
background). The real tiles must be annotated whole (every word, or its place marked illegible):
an unannotated real word would be learnt as background. OUT/annotations.json and OUT/images/ (PNG);
OUT must not exist, and annotations.json is written last."""
import json
import os
import random
import sys
import time

import numpy as np
from PIL import Image

if len(sys.argv) not in (4, 5):
    sys.exit(__doc__)
out = sys.argv[1]
seed = int(sys.argv[4]) if len(sys.argv) == 5 else 1


def read_set(part):
    try:
        gt, images = part.rsplit(':', 1)
    except ValueError:
        sys.exit(f'{part}: expected JSON:IMAGES')
    try:
        with open(gt) as f:
            tiles = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f'{gt}: cannot be read as MapText JSON ({e})')
    for t in tiles:
        if not isinstance(t, dict) or not isinstance(t.get('image'), str) or not isinstance(t.get('groups'), list):
            sys.exit(f'{gt}: a tile without an "image" name or "groups"')
        if not os.path.exists(os.path.join(images, t['image'])):
            sys.exit(f'{gt}: image "{t["image"]}" not found in {images}')
    if not tiles:
        sys.exit(f'{gt}: no tiles')
    return tiles, images


synth, synth_dir = read_set(sys.argv[2])
real, real_dir = read_set(sys.argv[3])
if os.path.exists(out):
    sys.exit(f'{out}: exists; give a new folder')
os.makedirs(os.path.join(out, 'images'))
rng = random.Random(seed)


def rgb(path):
    return np.asarray(Image.open(path).convert('RGB'), dtype=np.float32)


def real_crop(tile, w, h):
    """A w x h crop of the real tile (tiled over itself when smaller) and its words moved into it."""
    img = rgb(os.path.join(real_dir, tile['image']))
    th, tw = img.shape[:2]
    reps = (-(-h // th), -(-w // tw))
    if reps != (1, 1):
        img = np.tile(img, reps + (1,))
    x0 = rng.randint(0, img.shape[1] - w)
    y0 = rng.randint(0, img.shape[0] - h)
    groups = []
    for ry in range(reps[0]):
        for rx in range(reps[1]):
            dx, dy = rx * tw - x0, ry * th - y0
            for g in tile['groups']:
                words = []
                for word in g:
                    v = [[x + dx, y + dy] for x, y in word['vertices']]
                    xs, ys = [p[0] for p in v], [p[1] for p in v]
                    if max(xs) <= 0 or max(ys) <= 0 or min(xs) >= w or min(ys) >= h:
                        continue
                    inside = min(xs) >= 0 and min(ys) >= 0 and max(xs) <= w and max(ys) <= h
                    if inside:
                        words.append(dict(word, vertices=v))
                    else:  # cut by the crop: its letters half there, learnt as neither
                        v = [[min(max(x, 0), w), min(max(y, 0), h)] for x, y in v]
                        words.append(dict(word, vertices=v, text='###', illegible=True))
                if words:
                    groups.append(words)
    return img[y0:y0 + h, x0:x0 + w], groups


tiles = []
start = time.time()
for i, t in enumerate(synth):
    top = rgb(os.path.join(synth_dir, t['image']))
    h, w = top.shape[:2]
    paper = np.percentile(top.reshape(-1, 3), 90, axis=0)  # the paper: most of a map is paper
    ink = np.clip(top / np.maximum(paper, 1), 0, 1)
    back, groups = real_crop(rng.choice(real), w, h)
    name = 'overlay-%06d.png' % i
    Image.fromarray(np.clip(back * ink, 0, 255).astype(np.uint8)).save(os.path.join(out, 'images', name))
    tiles.append({'image': name, 'groups': t['groups'] + groups})
    rate = (i + 1) / max(time.time() - start, 1e-9)
    print(f'\roverlay: {i + 1}/{len(synth)} tiles, {rate:.2f} tiles/s, ETA {(len(synth) - i - 1) / rate:.0f} s ',
          end='', file=sys.stderr, flush=True)
print(file=sys.stderr)
with open(os.path.join(out, 'annotations.json.part'), 'w') as f:
    json.dump(tiles, f)
os.rename(os.path.join(out, 'annotations.json.part'), os.path.join(out, 'annotations.json'))
print(f'{out}/annotations.json: {len(tiles)} tiles')
