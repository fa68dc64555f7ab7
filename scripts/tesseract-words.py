#!/usr/bin/env python3
"""Tesseract 5's words on every image of a folder, as MapText predictions (the comparison column of
scripts/score-spotter.sh and scripts/score-real.sh).

Each image is read with `tesseract --psm 11` (sparse text), its level-5 rows (words) kept as level
boxes (vertices in MapText order, score = confidence / 100). With --turned each image is also read
turned a quarter either way, and the steep words found so (taller than wide once turned back) that
overlap no word kept (common area over the smaller above 0.3) are added, their vertices in reading
order. An image's key is PREFIX + its file name. $TESSERACT names the binary (default tesseract)."""
import argparse, csv, io, json, os, subprocess, sys, tempfile

from PIL import Image

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument('images', help='folder of images')
parser.add_argument('out', help='MapText predictions to write (a new file)')
parser.add_argument('--turned', action='store_true', help='also read each image turned a quarter either way')
parser.add_argument('--prefix', default='', help='put before each image key (e.g. images/)')
args = parser.parse_args()
if not os.path.isdir(args.images): sys.exit(f'{args.images}: not a folder of images')


def words(image):  # [(x, y, w, h, text, conf)] of one PIL image
    with tempfile.NamedTemporaryFile(suffix='.png') as f:
        image.save(f.name)
        tsv = subprocess.run([os.environ.get('TESSERACT', 'tesseract'), f.name, 'stdout', '--psm', '11', 'tsv'],
                             capture_output=True, check=True).stdout
    rows = csv.DictReader(io.StringIO(tsv.decode('utf-8')), delimiter='\t', quoting=csv.QUOTE_NONE)
    return [(int(r['left']), int(r['top']), int(r['width']), int(r['height']), (r.get('text') or '').strip(), float(r['conf']))
            for r in rows if r['level'] == '5' and (r.get('text') or '').strip() and float(r['conf']) >= 0]


def box(poly):
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def overlap(a, b):  # common area over the smaller, of two axis-aligned boxes
    w = min(a[2], b[2]) - max(a[0], b[0]); h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0: return 0.0
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(small, 1e-9)


tiles = []
for name in sorted(os.listdir(args.images)):
    if not name.lower().endswith(('.png', '.jpg', '.jpeg', '.tif', '.tiff')): continue
    image = Image.open(os.path.join(args.images, name)).convert('RGB')
    W, H = image.size
    kept = [{"vertices": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], "text": text, "score": conf / 100}
            for x, y, w, h, text, conf in words(image)]  # top-left, top-right, bottom-right, bottom-left
    if args.turned:
        # Counter-clockwise turn: (x, y) -> (y, W - x), back: x = W - y', y = x' (words reading down).
        # Clockwise turn: (x, y) -> (H - y, x), back: x = y', y = H - x' (words reading up).
        for angle, back in ((90, lambda p: [W - p[1], p[0]]), (-90, lambda p: [p[1], H - p[0]])):
            for x, y, w, h, text, conf in words(image.rotate(angle, expand=True)):
                poly = [back(p) for p in ([x, y], [x + w, y], [x + w, y + h], [x, y + h])]
                b = box(poly)
                if b[3] - b[1] <= b[2] - b[0]: continue  # level once turned back: the upright reading's
                if any(overlap(b, box(k["vertices"])) > 0.3 for k in kept): continue
                kept.append({"vertices": poly, "text": text, "score": conf / 100})
    tiles.append({"image": args.prefix + name, "groups": [[k] for k in kept]})
json.dump(tiles, open(args.out, 'w'))
