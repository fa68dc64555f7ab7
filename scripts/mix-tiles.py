#!/usr/bin/env python3
"""Mixes MapText training sets into one: OUT/train.json and OUT/images/ (links to the tiles).

    python3 scripts/mix-tiles.py OUT JSON:IMAGES:REPEAT ...

Each set's tiles are listed REPEAT times (drawn so many times as often), renamed pSETrCOPY-NAME so
that names never meet. OUT must not exist; train.json is written last, whole (a stopped run leaves
no train.json)."""
import json
import os
import sys

out, parts = sys.argv[1], sys.argv[2:]
if not parts:
    sys.exit(__doc__)
sets = []
for part in parts:
    try:
        gt, images, repeat = part.rsplit(':', 2)
        repeat = int(repeat)
    except ValueError:
        sys.exit(f'{part}: expected JSON:IMAGES:REPEAT (REPEAT a whole number)')
    try:
        with open(gt) as f:
            sets.append((json.load(f), images, repeat))
    except (OSError, ValueError) as e:
        sys.exit(f'{gt}: cannot be read as MapText JSON ({e})')
    for t in sets[-1][0]:
        if not isinstance(t, dict) or not isinstance(t.get('image'), str):
            sys.exit(f'{gt}: a tile without an "image" name')
        if not os.path.exists(os.path.join(images, t['image'])):
            sys.exit(f'{gt}: image "{t["image"]}" not found in {images}')
if os.path.exists(out):
    sys.exit(f'{out}: exists; give a new folder')
os.makedirs(os.path.join(out, 'images'))
tiles = []
for pi, (data, images, repeat) in enumerate(sets):
    for t in data:
        for r in range(repeat):
            name = 'p%dr%d-%s' % (pi, r, t['image'].replace('/', '_'))
            os.symlink(os.path.abspath(os.path.join(images, t['image'])), os.path.join(out, 'images', name))
            tiles.append(dict(t, image=name))
with open(os.path.join(out, 'train.json.part'), 'w') as f:
    json.dump(tiles, f)
os.rename(os.path.join(out, 'train.json.part'), os.path.join(out, 'train.json'))
print(f'{out}/train.json: {len(tiles)} tiles')
