#!/usr/bin/env python3
"""scripts/stack_stats.py on a hand-made tile whose answers are known: a name on two centred lines,
a name whose second line does not line up, a name going on upward, a spread pair; and a linker's
output with three of their five links and one false link.
    python3 tests/stack_stats_check.py SOURCE_DIR"""
import json
import os
import subprocess
import sys
import tempfile


def box(text, x0, y0, x1, y1):
    # MapText order: the upper edge left to right, then the lower edge right to left.
    return {'text': text, 'vertices': [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], 'illegible': False, 'truncated': False}


W = {
    'Holy': box('Holy', 0, 0, 40, 10), 'Trinity': box('Trinity', 50, 0, 110, 10), 'Church': box('Church', 30, 12, 80, 22),
    'Old': box('Old', 200, 0, 230, 10), 'Mill': box('Mill', 260, 12, 300, 22),
    'Cerrito': box('Cerrito', 400, 50, 460, 60), 'Creek': box('Creek', 470, 30, 510, 40),
    'A': box('A', 0, 100, 10, 110), 'B': box('B', 40, 100, 50, 110),
}
GT = [{'image': 't.png', 'groups': [[W['Holy'], W['Trinity'], W['Church']], [W['Old'], W['Mill']],
                                     [W['Cerrito'], W['Creek']], [W['A'], W['B']]]}]
PRED = [{'image': 't.png', 'groups': [[W['Holy'], W['Trinity'], W['Church']], [W['Old']], [W['Mill'], W['B']],
                                       [W['Cerrito'], W['Creek']], [W['A']]]}]


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


def main():
    script = os.path.join(sys.argv[1], 'scripts', 'stack_stats.py')
    with tempfile.TemporaryDirectory() as d:
        gt, pred, out = os.path.join(d, 'gt.json'), os.path.join(d, 'pred.json'), os.path.join(d, 'out.json')
        json.dump(GT, open(gt, 'w'))
        json.dump(PRED, open(pred, 'w'))
        r = run(script, '--json', out, gt)
        assert r.returncode == 0, r.stderr
        s = json.load(open(out))[gt]
        assert s['links'] == 5, s
        c = s['classes_pct']
        assert (c['near'], c['next_line'], c['above'], c['spread']) == (20.0, 40.0, 20.0, 20.0), c
        assert s['next_line_links'] == 2 and s['aligned_pct'] == 50.0, s  # centred lines; "Mill" 6 heights off "Old"
        assert abs(s['spacing_median'] - 1.2) < 1e-9, s
        r = run(script, '--json', out, '--pred', pred, gt)
        assert r.returncode == 0, r.stderr
        p = json.load(open(out))[gt]
        assert p['recall'] == {'above': 100.0, 'near': 100.0, 'next_line_aligned': 100.0, 'next_line_unaligned': 0.0, 'spread': 0.0}, p
        assert (p['R'], p['P']) == (60.0, 75.0), p
        # An output over an input is refused, the input left as it was.
        before = open(gt).read()
        r = run(script, '--json', gt, gt)
        assert r.returncode == 1 and 'is an input' in r.stderr, r
        assert open(gt).read() == before
        before = open(pred).read()
        r = run(script, '--json', pred, '--pred', pred, gt)
        assert r.returncode == 1 and 'is an input' in r.stderr, r
        assert open(pred).read() == before
        r = run(script, os.path.join(d, 'none.json'))
        assert r.returncode == 1 and 'none.json: cannot read' in r.stderr, r
    print('stack_stats_check: ok')


if __name__ == '__main__':
    main()
