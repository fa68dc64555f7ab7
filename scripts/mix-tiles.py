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
if os.path.exists(out):
    sys.exit(f'{out}: exists; give a new folder')
os.makedirs(os.path.join(out, 'images'))
tiles = []
for pi, part in enumerate(parts):
    gt, images, repeat = part.rsplit(':', 2)
    for t in json.load(open(gt)):
        for r in range(int(repeat)):
            name = 'p%dr%d-%s' % (pi, r, t['image'].replace('/', '_'))
            os.symlink(os.path.abspath(os.path.join(images, t['image'])), os.path.join(out, 'images', name))
            tiles.append(dict(t, image=name))
with open(os.path.join(out, 'train.json.part'), 'w') as f:
    json.dump(tiles, f)
os.rename(os.path.join(out, 'train.json.part'), os.path.join(out, 'train.json'))
print(f'{out}/train.json: {len(tiles)} tiles')
