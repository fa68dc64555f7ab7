#!/usr/bin/env python3
"""ann <-> json and crop rendering.
ann format: one line = one phrase; words separated by ' | '.
word: TEXT @ x,y x,y [...] /H [!t] [!i]   (midline from word start to end, letter-box height H)
"""
import json, math, sys
from PIL import Image, ImageDraw, ImageFont

def parse_word(s):
    text, rest = s.split(' @ ')
    text = text.strip()
    toks = rest.split()
    pts = []; h = None; trunc = False; ill = False
    for t in toks:
        if t.startswith('/'): h = float(t[1:])
        elif t == '!t': trunc = True
        elif t == '!i': ill = True
        else:
            x, y = t.split(','); pts.append((float(x), float(y)))
    assert h is not None and len(pts) >= 2, s
    return text, pts, h, trunc, ill

def poly(pts, h):
    # top edge along midline offset by up-normal, then bottom reversed
    n = len(pts); top = []; bot = []
    for i in range(n):
        if i == 0: dx, dy = pts[1][0]-pts[0][0], pts[1][1]-pts[0][1]
        elif i == n-1: dx, dy = pts[-1][0]-pts[-2][0], pts[-1][1]-pts[-2][1]
        else: dx, dy = pts[i+1][0]-pts[i-1][0], pts[i+1][1]-pts[i-1][1]
        L = math.hypot(dx, dy) or 1; dx/=L; dy/=L
        nx, ny = dy, -dx  # up normal
        top.append((pts[i][0]+nx*h/2, pts[i][1]+ny*h/2))
        bot.append((pts[i][0]-nx*h/2, pts[i][1]-ny*h/2))
    return top + bot[::-1]

def load_ann(path):
    groups = []
    for line in open(path, encoding='utf-8'):
        line = line.strip()
        if not line or line.startswith('#'): continue
        ws = []
        if line.startswith('='):
            for seg in line[1:].split(' || '):
                geo, words = seg.split(' : ')
                toks = geo.split(); (ax, ay), (bx, by) = [tuple(map(float, t.split(','))) for t in toks[:2]]
                h = float(toks[2][1:]); words = words.split()
                tot = sum(len(w) for w in words) + (len(words) - 1)
                pos = 0
                for w in words:
                    t0 = pos / tot; t1 = (pos + len(w)) / tot; pos += len(w) + 1
                    p0 = (ax + (bx-ax)*t0, ay + (by-ay)*t0); p1 = (ax + (bx-ax)*t1, ay + (by-ay)*t1)
                    ws.append({'vertices': [[round(x, 1), round(y, 1)] for x, y in poly([p0, p1], h)],
                               'text': w, 'illegible': False, 'truncated': False})
            groups.append(ws); continue
        for part in line.split(' | '):
            text, pts, h, tr, il = parse_word(part)
            if il: text = '###'
            ws.append({'vertices': [[round(x, 1), round(y, 1)] for x, y in poly(pts, h)],
                       'text': text, 'illegible': il, 'truncated': tr})
        groups.append(ws)
    return groups

def render(img_path, groups, box, scale, out, show=True):
    x0, y0, x1, y1 = box
    im = Image.open(img_path).convert('RGB').crop(box)
    im = im.resize(((x1-x0)*scale, (y1-y0)*scale), Image.LANCZOS)
    d = ImageDraw.Draw(im, 'RGBA')
    try: f = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', 13)
    except Exception: f = ImageFont.load_default()
    for gx in range((x0//10)*10, x1+1, 10):
        if gx < x0: continue
        X = (gx-x0)*scale
        if gx % 50 == 0:
            d.line([(X, 0), (X, im.height)], fill=(255, 0, 255, 70))
            d.text((X+2, 2), str(gx), fill=(200, 0, 200), font=f)
        else:
            d.line([(X, 0), (X, 8)], fill=(200, 0, 200, 200))
    for gy in range((y0//10)*10, y1+1, 10):
        if gy < y0: continue
        Y = (gy-y0)*scale
        if gy % 50 == 0:
            d.line([(0, Y), (im.width, Y)], fill=(255, 0, 255, 70))
            d.text((2, Y+2), str(gy), fill=(200, 0, 200), font=f)
        else:
            d.line([(0, Y), (8, Y)], fill=(200, 0, 200, 200))
    if show:
        cols = [(230, 0, 0), (0, 0, 230), (0, 150, 0), (200, 100, 0), (150, 0, 150)]
        for gi, g in enumerate(groups):
            c = cols[gi % len(cols)]
            for w in g:
                P = [((x-x0)*scale, (y-y0)*scale) for x, y in w['vertices']]
                d.line(P + [P[0]], fill=c + (200,), width=1)
                d.ellipse([P[0][0]-3, P[0][1]-3, P[0][0]+3, P[0][1]+3], fill=c + (255,))
                d.text((P[-1][0], P[-1][1]+1), w['text'], fill=c + (255,), font=f)
    im.save(out)

if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'pre2ann':  # pre.json -> ann lines
        d = json.load(open(sys.argv[2]))
        for t in d:
            rows = []
            for g in t['groups']:
                for w in g:
                    v = w['vertices']; n = len(v)//2
                    top = v[:n]; bot = v[n:][::-1]
                    mid = [((a[0]+b[0])/2, (a[1]+b[1])/2) for a, b in zip(top, bot)]
                    h = sum(math.hypot(a[0]-b[0], a[1]-b[1]) for a, b in zip(top, bot))/n
                    # straight?
                    (ax, ay), (bx, by) = mid[0], mid[-1]
                    L = math.hypot(bx-ax, by-ay) or 1
                    dev = max(abs((bx-ax)*(ay-y)-(ax-x)*(by-ay))/L for x, y in mid)
                    keep = [mid[0], mid[-1]] if dev < 1.5 else [mid[0], mid[n//3], mid[2*n//3], mid[-1]]
                    rows.append((round(mid[0][1]), round(mid[0][0]), '%s @ %s /%d' % (w['text'], ' '.join('%d,%d' % (round(x), round(y)) for x, y in keep), round(h))))
            rows.sort()
            for r in rows: print(r[2])
    elif cmd == 'json':  # tool.py json split.json image ann [image ann ...]
        out = sys.argv[2]; tiles = []
        a = sys.argv[3:]
        for i in range(0, len(a), 2):
            tiles.append({'image': a[i], 'groups': load_ann(a[i+1]) if a[i+1] != '-' else []})
        json.dump(tiles, open(out, 'w'), ensure_ascii=False, indent=1)
        print(out, sum(len(t['groups']) for t in tiles), 'phrases', sum(len(g) for t in tiles for g in t['groups']), 'words')
    elif cmd == 'crop':  # tool.py crop img ann x0 y0 x1 y1 scale out [noshow]
        img, ann = sys.argv[2], sys.argv[3]
        box = tuple(int(v) for v in sys.argv[4:8]); sc = int(sys.argv[8])
        groups = load_ann(ann) if ann != '-' else []
        render(img, groups, box, sc, sys.argv[9], show=len(sys.argv) < 11)
