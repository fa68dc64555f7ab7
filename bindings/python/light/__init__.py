"""light: link the words found on historical maps into the phrases a person reads.

The Python face of light's C++ library (include/light/light.h), in-process. MapText data is held as
json.load gives it: a list of image entries {"image": key, "groups": [[word, ...], ...]}, each word a
dict with "vertices" ([[x, y], ...] or a numpy array of shape (N, 2)), "text" and any keys of your own
(an "id", a spotter's "score"), which come back on the same word. Bad input raises light.Error (a
ValueError) with the message the `light` command prints. Every call that computes releases the GIL.

    import light
    words = light.read_maptext("words.json")
    phrases = light.link(words, images="tiles/")       # the bundled model
    linker = light.Linker()                             # loaded once, for many maps
    phrases = linker.link(words, images="tiles/")
    light.evaluate(ground_truth, phrases)               # the MapText competition metrics

See docs/python.md.
"""

import json as _json
import os as _os
import re as _re
import warnings as _warnings

from . import _light
from ._light import Error

__all__ = [
    "Error", "LightWarning", "version", "read_image", "default_model", "default_spotter", "read_maptext", "write_maptext", "validate",
    "read_words", "link", "Linker", "evaluate", "spot", "Spotter", "search", "places", "to_geojson", "to_web_annotations",
    "tiles_from_words", "decoding_settings",
]

__version__ = _light.version()


class LightWarning(UserWarning):
    """What the `light` command prints as a note (e.g. ground-truth images without predictions)."""


def version():
    """light's version, e.g. "0.1.0"."""
    return _light.version()


def read_image(path):
    """A map image (PNG, JPEG, TIFF, ...) as light reads it: an (H, W, 3) RGB uint8 numpy array."""
    return _light.read_image(_path(path))


def default_model():
    """The bundled model's folder as `light link` finds it ($LIGHT_MODEL first); "" when there is none."""
    return _light.default_model()


def default_spotter():
    """The bundled spotter's folder ($LIGHT_SPOTTER first); light.Error when there is none."""
    return _light.default_spotter()


# ---- MapText held as lists of dicts ---------------------------------------------------------------

def _plain(o):
    """json.dumps's fallback for numpy values: arrays as lists, scalars as numbers."""
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "__fspath__"):
        return _os.fspath(o)
    raise TypeError(f"{type(o).__name__} is not JSON serialisable")


def _text(data, name):
    """MapText (or a GeoJSON FeatureCollection) as JSON text for the C++ reader."""
    if isinstance(data, (str, bytes)) or hasattr(data, "__fspath__"):
        raise TypeError(f"{name}: expected MapText data (a list of image entries); for a file, read it first "
                        f"(light.read_maptext or light.read_words)")
    try:
        return _json.dumps(data, default=_plain, allow_nan=False, ensure_ascii=False)
    except ValueError:  # NaN or infinity, which JSON cannot hold
        raise Error(f"{_not_finite(data, name)}: expected a finite number") from None
    except TypeError as e:
        raise Error(f"{name}: {e}") from None


def _not_finite(o, where):
    """The place of the first NaN or infinity in `o`, e.g. data[0].groups[0][1].vertices[2][1]."""
    import math
    if hasattr(o, "tolist"):
        o = o.tolist()
    if isinstance(o, float) and not math.isfinite(o):
        return where
    items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, (list, tuple)) else ()
    for k, v in items:
        sub = f"{where}.{k}" if isinstance(o, dict) else f"{where}[{k}]"
        found = _not_finite(v, sub)
        if found:
            return found
    return None


def _load(text):
    return _json.loads(text)


def _path(p):
    return _os.fspath(p)


def _is_path(p):
    return isinstance(p, str) or hasattr(p, "__fspath__")


def read_maptext(path, kind="predictions", require_text=False):
    """A MapText JSON file, fully validated, as a list of image entries.

    kind: "predictions" (a spotter's words, the linker's phrases) or "ground_truth" (illegible and
    truncated required); require_text: every word must carry "text".
    """
    return _load(_light.read_maptext(_path(path), kind, require_text))


def write_maptext(path, data, kind="predictions"):
    """Validates `data` and writes it as MapText JSON, atomically (a temporary file, then renamed)."""
    _light.write_maptext(_path(path), _text(data, "data"), "data", kind)


def validate(data, kind="predictions", require_text=False, source="data"):
    """`data` checked as `light` checks a file (light.Error naming `source`, the entry and the field);
    returns it normalised: vertices as [x, y] lists, words' own keys kept."""
    return _load(_light.validate(_text(data, source), source, kind, require_text))


def read_words(path):
    """Words to link, as `light link --words` reads them: MapText JSON, the per-image annotation files
    of the LIGHT reference, GeoJSON (mapKurator, MapReader), or a folder of them."""
    text, notes = _light.read_words(_path(path))
    for n in notes:
        _warnings.warn(n, LightWarning, stacklevel=2)
    return _load(text)


def _words_text(words, name="words"):
    if _is_path(words):
        return _json.dumps(read_words(words), ensure_ascii=False)
    if isinstance(words, dict) and words.get("type") != "FeatureCollection":
        words = [words]  # one image entry
    return _text(words, name)


# ---- Linking -------------------------------------------------------------------------------------

def decoding_settings():
    """The decoding settings of a model's config.json that Linker (and link) take as keywords:
    [(key, the range in words, what it does)]."""
    return list(_light.decoding_settings())


class Linker:
    """A LIGHT model loaded once, for many calls: Linker(model=None) is the bundled model.

    Options as `light link`'s: device ("cpu" | "cuda"), threads (0: all cores), max_length (tokens a
    window), the decoding settings of the model's config.json by their keys (no_successor_bias,
    no_successor_exponent, reading_prior_above, reading_prior_next_line, lettering_prior,
    alignment_prior, baseline_prior, polygon_height, ...: decoding_settings() lists them; None or
    left out: the model's own), keep_repeated_words (True: a phrase holding one word twice with other words between is kept as
    decoded, not cut at its weakest link), tokenizer (a folder; None: the model's), words_from ("auto":
    an image's words are a text spotter's when every word carries a "score", as Spotter writes, and
    are decoded with the model's factor for spotted words; "spotter" or "annotation": so for every
    image). One Linker is not for two threads at once; give each thread its own.
    """

    def __init__(self, model=None, *, device="cpu", threads=0, max_length=1000, keep_repeated_words=False, tokenizer=None,
                 words_from="auto", **decoding):
        keys = [k for k, _, _ in _light.decoding_settings()]
        for k, v in decoding.items():
            if k not in keys:
                raise TypeError(f"Linker() got an unexpected keyword argument {k!r} (decoding settings: {', '.join(keys)})")
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise TypeError(f"{k}: expected a number or None, got {type(v).__name__}")
        given = {k: float(v) for k, v in decoding.items() if v is not None}  # C++ checks each against its range
        self._core = _light.Linker(_path(model) if model else "", device, threads, max_length, given, bool(keep_repeated_words),
                                   _path(tokenizer) if tokenizer else "", words_from)
        self.report = {}

    @property
    def model_dir(self):
        """The model folder in use."""
        return self._core.model_dir

    def link(self, words, images):
        """The words of every image linked into phrases (their grouping ignored); a list of image entries.

        words: MapText (a list of image entries, or one entry), a GeoJSON FeatureCollection of words, or
        a file or folder of them. images: a folder holding each entry's image (its key, or the key's
        basename), or a dict {image key: a path or an (H, W, 3) RGB uint8 array}, or one array when
        there is one image. Each word keeps its own keys and gains "successor_probability".
        """
        report = dict.fromkeys(("tiles", "words", "model_words", "windowed_tiles", "cycles_broken", "spotted_tiles"), 0)
        if _is_path(images):
            out, r = self._core.link(_words_text(words), "words", _path(images))
            self.report = r
            return _load(out)
        if isinstance(words, dict) and words.get("type") != "FeatureCollection":
            words = [words]
        if isinstance(words, list) and all(isinstance(t, dict) and isinstance(t.get("image"), str) for t in words):
            tiles = words  # each entry is validated on its own below, as C++ reads it
        else:
            tiles = _load(_words_text(words))
        if images is None:
            raise Error("linking with a model needs images= (a folder, a dict of image key to path or array, or an "
                        "array); light.link(..., method=\"distance\" or \"mst\") links without images")
        if not isinstance(images, dict):
            if len(tiles) != 1:
                raise Error(f"images: one array for {len(tiles)} images' words; give a dict of image key to array")
            images = {tiles[0]["image"]: images}
        out = []
        for tile in tiles:
            key = tile["image"]
            if key not in images:
                raise Error(f"images: no image for \"{key}\" (give it in the dict by its key)")
            one = _text([tile], f"words[{key}]")
            image = images[key]
            if _is_path(image):
                linked, r = self._core.link_file(one, f"words[{key}]", _path(image))
            else:
                linked, r = self._core.link_pixels(one, f"words[{key}]", _rgb(image, key))
            out.extend(_load(linked))
            for k in report:
                report[k] += r[k]
        self.report = report
        return out


def _rgb(image, key):
    """An image array as (H, W, 3) uint8 RGB: grey replicated, alpha dropped (as light reads files)."""
    import numpy as np
    a = np.asarray(image)
    if a.dtype != np.uint8:
        raise Error(f"image \"{key}\": expected 8-bit pixels (uint8), got {a.dtype}")
    if a.ndim == 2:
        a = np.repeat(a[:, :, None], 3, axis=2)
    elif a.ndim == 3 and a.shape[2] == 4:
        a = a[:, :, :3]
    elif a.ndim == 3 and a.shape[2] == 1:
        a = np.repeat(a, 3, axis=2)
    if a.ndim != 3 or a.shape[2] != 3:
        raise Error(f"image \"{key}\": expected an array of shape (height, width), (height, width, 3) or "
                    f"(height, width, 4), got {a.shape}")
    return np.ascontiguousarray(a)


def link(words, images=None, model=None, method=None, *, order="path", threads=0, **options):
    """Links words into phrases, in reading order, as `light link` does; a list of image entries.

    With no method: a LIGHT model (`model`, a folder; None: the bundled one) reading `images` (see
    Linker.link). method="distance" or "mst": a heuristic, without images; order "path" (follow the
    links) or "yx". Other options go to Linker. For many calls, keep a Linker.
    """
    if method is not None and method != "model":
        if model is not None:
            raise Error("light.link: give model= or method=\"distance\"|\"mst\", not both")
        if options:
            raise Error(f"light.link: {', '.join(sorted(options))}: options of a model, not of method={method!r}")
        return _load(_light.link_by_heuristic(_words_text(words), "words", method, order, threads))
    return Linker(model, threads=threads, **options).link(words, images)


# ---- Evaluation ----------------------------------------------------------------------------------

def evaluate(gt, pred, task="detrecedges", protocol="2025", iou_threshold=0.5, gt_regex="", threads=0):
    """The MapText competition metrics, as the official evaluator computes them (`light eval`).

    gt and pred: MapText data or files. task: det | detedges | detrec | detrecedges (protocol 2024:
    detlink, detreclink). Returns {metric: value} in the evaluator's order; its warnings (e.g.
    ground-truth images without predictions) are issued as LightWarning.
    """
    gt_text = _light.read_maptext(_path(gt), "ground_truth", False) if _is_path(gt) else _text(gt, "gt")
    pred_text = _light.read_maptext(_path(pred), "predictions", False) if _is_path(pred) else _text(pred, "pred")
    overall, warnings = _light.evaluate(gt_text, pred_text, task, protocol, iou_threshold, gt_regex, threads)
    for w in warnings:
        _warnings.warn(w, LightWarning, stacklevel=2)
    return dict(overall)


# ---- Spotting ------------------------------------------------------------------------------------

class Spotter:
    """A text spotter (detector and recogniser) loaded once: Spotter(spotter=None) is the bundled one.

    Options as `light spot`'s: device, threads, alphabet ("latin" | "all"), min_score, scale (0: auto),
    upright (True: the map is not also read turned a quarter; faster, steep lettering found less well),
    small_lettering (True: read once more, enlarged, where the lowest lines are much smaller than most,
    as a plan's street names among its districts' names; slower). The rest, and an option left at its
    default here, are the spotter folder's own (its spotter.json; `light spot --stages` lists them).
    """

    def __init__(self, spotter=None, *, device="cpu", threads=0, alphabet="latin", min_score=0.5, scale=0.0, upright=False,
                 small_lettering=False):
        try:
            score_ok = 0 <= float(min_score) <= 1  # NaN is not
        except (TypeError, ValueError):
            score_ok = False
        if not score_ok:
            raise Error(f"min_score: expected a probability from 0 to 1 (words whose characters' mean probability is below "
                        f"are dropped), got {min_score!r}")
        self._core = _light.Spotter(_path(spotter) if spotter else "", device, threads, alphabet, min_score, scale,
                                    bool(upright), bool(small_lettering))

    def spot(self, images):
        """The words on map images: each word its own group, with "text" and "score".

        images: a map image file or a folder of them (keys: paths relative to it), a dict {key: a path
        or an RGB uint8 array}, or one array (key "image").
        """
        if _is_path(images):
            return _load(self._core.spot(_path(images)))
        if not isinstance(images, dict):
            images = {"image": images}
        out = []
        for key, image in images.items():
            if _is_path(image):
                if _os.path.isdir(_path(image)):
                    raise Error(f"images[{key!r}]: {_os.fspath(image)} is a folder; a dict's value is one map image "
                                "(give the folder itself as images to spot every map in it)")
                tile = _load(self._core.spot(_path(image)))[0]
                tile["image"] = key
                out.append(tile)
            else:
                out.extend(_load(self._core.spot_pixels(_rgb(image, key), key)))
        return out


def spot(images, spotter=None, **options):
    """The words on map images, read by the bundled spotter (or `spotter`, a folder); see Spotter.spot."""
    return Spotter(spotter, **options).spot(images)


# ---- Search and export ---------------------------------------------------------------------------

def search(query, linked, max_edits=None, whole=False, limit=20):
    """Place names among linked phrases, tolerant of misread letters (`light search`).

    linked: linked MapText data, or a linked file, a folder of them or an index. Returns matches as
    `light search --json` prints them: text, file, image, group, edits, distance, whole, words,
    matched_words, and lonlat for a georeferenced map.
    """
    edits = -1 if max_edits is None else max_edits
    if _is_path(linked):
        return _light.search_files(query, _path(linked), edits, whole, limit)
    return _light.search(query, _text(linked, "linked"), "linked", edits, whole, limit)


def places(linked, gazetteer=None, georeference=False, images=None):
    """Each linked phrase's place in a gazetteer, and each map placed by its own names (`light place`,
    `light georef --from-names`).

    linked: linked MapText data or file. gazetteer: an index made by `light gazetteer build` (None:
    $LIGHT_GAZETTEER, else GeoNames cities500 as scripts/fetch-gazetteer.sh builds it).
    georeference=True with images (the maps' folder, for their sizes) also places each map. Returns a
    list, a dict a map, as georeferences.json holds them: image, width, height, georeferenced (with
    transform, leave_one_out_px, centre and gcps, else reason), and places (per phrase with a
    candidate: group, text, the GeoNames id and name, score, where_the_map_puts_it, accepted).
    """
    if georeference and images is None:
        raise ValueError("places: georeference=True needs images, the folder holding the map images")
    text = _light.read_maptext(_path(linked), "predictions", False) if _is_path(linked) else _text(linked, "linked")
    return _load(_light.places(text, "linked", "" if gazetteer is None else _path(gazetteer), georeference,
                               "" if images is None else _path(images)))


def to_geojson(linked, words=None, georef="none", images=None):
    """Linked phrases as a GeoJSON FeatureCollection (a dict): a Feature a phrase, as `light link
    --format geojson` writes it. words: the words as given to the linker (each word's "index" is its
    place there). georef="auto" with images (a folder): in longitude/latitude where a map is
    georeferenced (GeoTIFF, world file, GCPs, or IMAGE.points beside it)."""
    words_text = None if words is None else _words_text(words)
    return _load(_light.to_geojson(_text(linked, "linked"), "linked", words_text, georef,
                                   "" if images is None else _path(images)))


def to_web_annotations(linked, iiif_canvas=""):
    """Linked phrases as a W3C Web Annotation page (a dict) for IIIF viewers, as `light link --format
    webanno` writes it; iiif_canvas: the IIIF canvas each image's annotations target ("{image}" is
    replaced by its key; "": urn:light:image:KEY)."""
    return _load(_light.to_web_annotations(_text(linked, "linked"), "linked", iiif_canvas))


# ---- A spotter's table of words ------------------------------------------------------------------

_WKT_POLYGON = _re.compile(r"^\s*POLYGON\s*\(\s*\((.*?)\)", _re.IGNORECASE | _re.DOTALL)


def _vertices(polygon, where):
    try:
        return _vertices_of(polygon, where)
    except Error:
        raise
    except (TypeError, IndexError, ValueError, KeyError) as e:  # a cell that is no polygon: name the row
        raise Error(f"{where}: expected a polygon ([[x, y], ...], a numpy array, a shapely Polygon or WKT), "
                    f"got {str(polygon)[:40]!r} ({e})") from None


def _vertices_of(polygon, where):
    if isinstance(polygon, str):  # WKT, as a CSV holds a geometry column
        m = _WKT_POLYGON.match(polygon)
        if not m:
            raise Error(f"{where}: expected a WKT POLYGON, got {polygon[:40]!r}")
        pts = [[float(v) for v in p.split()[:2]] for p in m.group(1).split(",")]
        return pts[:-1] if len(pts) > 3 and pts[0] == pts[-1] else pts
    if hasattr(polygon, "exterior"):  # a shapely Polygon
        pts = [list(p[:2]) for p in polygon.exterior.coords]
        return pts[:-1] if len(pts) > 3 and pts[0] == pts[-1] else pts
    if hasattr(polygon, "tolist"):
        polygon = polygon.tolist()
    return [[float(p[0]), float(p[1])] for p in polygon]


def tiles_from_words(rows, polygon="polygon", text="text", image="image"):
    """A spotter's table of words (one row a word, as MapReader writes it: polygon, text, score,
    image) as MapText, each word a group of its own, images in their first row's order.

    rows: dicts (csv.DictReader, a DataFrame's to_dict("records")). A polygon may be [[x, y], ...], a
    numpy array, a shapely Polygon or WKT text. The row's other columns stay on the word.
    """
    tiles = {}
    for i, row in enumerate(rows):
        for col in (polygon, image):
            if col not in row:
                raise Error(f"rows[{i}]: no \"{col}\" column")
        word = {k: v for k, v in row.items() if k not in (polygon, image, text)}
        word["vertices"] = _vertices(row[polygon], f"rows[{i}].{polygon}")
        if text in row and row[text] is not None:
            word["text"] = str(row[text])
        tiles.setdefault(str(row[image]), []).append([word])
    return [{"image": k, "groups": g} for k, g in tiles.items()]
