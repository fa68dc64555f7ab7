"""Axis-aligned boxes of MapText polygons and their intersection over union, shared by the scripts
that pair words or phrases by where they lie (georef_stats.py, spotter_confusions.py, reread_stats.py)."""


def box(vertices):
    """(x0, y0, x1, y1) of a polygon's [[x, y], ...] vertices."""
    xs, ys = [v[0] for v in vertices], [v[1] for v in vertices]
    return min(xs), min(ys), max(xs), max(ys)


def iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
