"""`import light` against the `light` command on the same inputs (run by ctest: bindings/python/tests/run.sh).

LIGHT_BINARY: the `light` command of the same build; LIGHT_SOURCE_DIR: the source tree (its data/).
"""
import copy
import json
import os
import subprocess
import threading
import time
import warnings

import pytest

import light

SRC = os.environ["LIGHT_SOURCE_DIR"]
LIGHT = os.environ["LIGHT_BINARY"]
TILE_DIR = os.path.join(SRC, "data", "synth-example")
TILE_WORDS = os.path.join(TILE_DIR, "annotations.json")
TILE_IMAGE = os.path.join(TILE_DIR, "topographic-1500.png")
EXAMPLE_GT = os.path.join(SRC, "data", "maptext-example", "example_gt.json")
EXAMPLE_PRED = os.path.join(SRC, "data", "maptext-example", "example_pred.json")


def cli(tmp_path, *args):
    """Runs `light ARGS... -o OUT` and returns OUT parsed."""
    out = tmp_path / "cli-out.json"
    subprocess.run([LIGHT, *args, "-o", str(out), "-q"], check=True, stderr=subprocess.DEVNULL)
    return json.loads(out.read_text())


def texts(data):
    return [[" ".join(w.get("text", "?") for w in g) for g in t["groups"]] for t in data]


@pytest.fixture(scope="module")
def linker():
    return light.Linker(threads=2)


@pytest.fixture(scope="module")
def tile_words():
    return light.read_maptext(TILE_WORDS, kind="ground_truth")


# ---- Equal to the command line ---------------------------------------------------------------------

def test_link_with_the_bundled_model_gives_the_phrases_light_link_gives(tmp_path, tile_words):
    got = light.link(tile_words, images=TILE_DIR, threads=2)
    want = cli(tmp_path, "link", "--words", TILE_WORDS, "--images", TILE_DIR, "--threads", "2")
    assert got == want
    assert "KIOWA PEAK WRIGHT COUNTY" in texts(got)[0] or "WRIGHT COUNTY" in " | ".join(texts(got)[0])


@pytest.mark.parametrize("method", ["distance", "mst"])
def test_heuristics_give_the_phrases_light_link_gives_on_the_competition_example(tmp_path, method):
    words = light.read_maptext(EXAMPLE_PRED)
    got = light.link(words, method=method)
    assert got == cli(tmp_path, "link", "--method", method, "--words", EXAMPLE_PRED)


def test_evaluate_gives_the_official_evaluators_numbers_on_the_competition_example():
    expected = json.load(open(os.path.join(SRC, "data", "maptext-example", "expected_metrics.json")))
    got = light.evaluate(EXAMPLE_GT, EXAMPLE_PRED, task="detrecedges")
    # the official evaluator's numbers (eval.py, tightness on: the 2025 protocol)
    assert got == expected["results"]["detrecedges --use-tightness"]
    assert light.evaluate(EXAMPLE_GT, EXAMPLE_PRED, task="det")["fscore"] == expected["results"]["det --use-tightness"]["fscore"]
    # data in memory and files give the same
    assert light.evaluate(light.read_maptext(EXAMPLE_GT, kind="ground_truth"), light.read_maptext(EXAMPLE_PRED)) == got


def test_evaluate_equals_light_eval(tmp_path, tile_words):
    linked = light.link(tile_words, method="distance")
    light.write_maptext(tmp_path / "d.json", linked)
    out = subprocess.run([LIGHT, "eval", "--gt", TILE_WORDS, "--pred", str(tmp_path / "d.json"), "--task", "detedges"],
                         check=True, capture_output=True, text=True).stdout
    assert light.evaluate(tile_words, linked, task="detedges") == json.loads(out)


def test_geojson_and_web_annotations_equal_light_links_outputs(tmp_path, tile_words, linker):
    linked = linker.link(tile_words, images=TILE_DIR)
    geo = cli(tmp_path, "link", "--words", TILE_WORDS, "--images", TILE_DIR, "--threads", "2", "--format", "geojson",
              "--georef", "auto")
    got = light.to_geojson(linked, words=tile_words, georef="auto", images=TILE_DIR)
    assert got == geo
    assert got["features"][0]["properties"]["coordinates"] == "lonlat"
    pixels = light.to_geojson(linked)
    assert pixels["features"][0]["properties"]["coordinates"] == "pixel"
    anno = cli(tmp_path, "link", "--words", TILE_WORDS, "--images", TILE_DIR, "--threads", "2", "--format", "webanno",
               "--iiif-canvas", "https://example.org/iiif/{image}/canvas")
    assert light.to_web_annotations(linked, iiif_canvas="https://example.org/iiif/{image}/canvas") == anno


def test_search_finds_what_light_search_finds(tmp_path, linker, tile_words):
    linked = linker.link(tile_words, images=TILE_DIR)
    light.write_maptext(tmp_path / "linked.json", linked)
    out = subprocess.run([LIGHT, "search", "Hendersen Rivr", "--in", str(tmp_path / "linked.json"), "--json"],
                         check=True, capture_output=True, text=True).stdout
    want = json.loads(out)
    from_file = light.search("Hendersen Rivr", tmp_path / "linked.json")
    in_memory = light.search("Hendersen Rivr", linked)
    assert [m["text"] for m in from_file] == [m["text"] for m in want] == ["Henderson River"]
    assert from_file[0]["edits"] == want[0]["edits"] == 2
    assert in_memory[0]["text"] == "Henderson River" and in_memory[0]["file"] == ""
    assert light.search("Hendersen Rivr", linked, max_edits=1) == []


def _write_png(path, width, height):
    """A light grey RGB PNG of that size (zlib and struct: no imaging library needed)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xf0" * (3 * width) for _ in range(height))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
                     chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_places_match_what_light_georef_writes(tmp_path):
    # Five towns of a user's table, labelled right of where a 100 m a pixel map puts them.
    towns = [("Alpha", 10.00, 50.00), ("Bravo", 10.10, 50.05), ("Carrow", 10.25, 49.95), ("Delbeck", 10.05, 49.90),
             ("Esterby", 10.20, 50.08), ("Farnley", 10.15, 49.98)]
    (tmp_path / "towns.csv").write_text("name,lon,lat,type\n" + "".join(f"{n},{lon},{lat},town\n" for n, lon, lat in towns))
    subprocess.run([LIGHT, "gazetteer", "build", "-q", "--places", str(tmp_path / "towns.csv"), "--out", str(tmp_path / "t.gaz")], check=True)
    groups = []
    for n, lon, lat in towns:
        x = (lon - 9.9) * 71700 / 100.0  # metres a degree of longitude at 50 degrees north, 100 m a pixel
        y = (50.2 - lat) * 111200 / 100.0
        groups.append([{"vertices": [[x + 8, y + 10], [x + 8 + 12 * len(n), y + 10], [x + 8 + 12 * len(n), y - 10], [x + 8, y - 10]],
                        "text": n}])
    linked = [{"image": "map.png", "groups": groups}]
    light.write_maptext(tmp_path / "linked.json", linked)
    (tmp_path / "images").mkdir()
    _write_png(tmp_path / "images" / "map.png", 500, 450)
    got = light.places(linked, gazetteer=tmp_path / "t.gaz", georeference=True, images=tmp_path / "images")
    subprocess.run([LIGHT, "georef", "--from-names", str(tmp_path / "linked.json"), "--images", str(tmp_path / "images"), "--gazetteer",
                    str(tmp_path / "t.gaz"), "-o", str(tmp_path / "out"), "-q"], check=True)
    want = json.loads((tmp_path / "out" / "georeferences.json").read_text())
    assert got == want
    assert got[0]["georeferenced"] and len(got[0]["gcps"]) == 6
    assert [p["name"] for p in got[0]["places"]] == [n for n, _, _ in towns]
    # Without georeferencing: each phrase's best candidate, no images needed.
    plain = light.places(tmp_path / "linked.json", gazetteer=tmp_path / "t.gaz")
    assert not plain[0]["georeferenced"] and "reason" not in plain[0]
    assert all(p["accepted"] for p in plain[0]["places"])
    with pytest.raises(ValueError, match="georeference=True needs images"):
        light.places(linked, gazetteer=tmp_path / "t.gaz", georeference=True)


def test_spot_reads_the_words_light_spot_reads(tmp_path):
    want = cli(tmp_path, "spot", "--images", TILE_IMAGE, "--threads", "2")
    assert light.Spotter(threads=2).spot(TILE_IMAGE) == want
    assert light.spot({"map.png": TILE_IMAGE}, threads=2) == [dict(want[0], image="map.png")]


def released_detector_spotter(tmp_path):
    """The bundled spotter with the released detector (models/ppocr-v4), in tmp_path/spotter: the
    pipeline's stages are tested on the failures of the released detector's that each mends."""
    import shutil
    folder = tmp_path / "spotter"
    folder.mkdir()
    shutil.copy(os.path.join(SRC, "models", "ppocr-v4", "detector.safetensors"), folder / "detector.safetensors")
    for f in ("recognizer.safetensors", "keys.txt", "spotter.json"):
        shutil.copy(os.path.join(SRC, "models", "spotter", f), folder / f)
    return folder


def test_spot_upright_reads_as_light_spot_upright(tmp_path):
    # "Grand Creek" at 60 degrees: upright only, the released detector's "Creek" is read "Cre"
    # (tests/test_spotter.cpp).
    folder = str(released_detector_spotter(tmp_path))
    crop = os.path.join(SRC, "tests", "data", "spot", "grand-creek-at-60-degrees.jpg")
    want = cli(tmp_path, "spot", "--images", crop, "--spotter", folder, "--threads", "2", "--upright")
    got = light.Spotter(folder, threads=2, upright=True).spot(crop)
    assert got == want
    assert "Cre" in [w["text"] for g in got[0]["groups"] for w in g]
    assert "Creek" in [w["text"] for g in light.Spotter(folder, threads=2).spot(crop)[0]["groups"] for w in g]



def test_a_spotter_folder_reads_with_the_stages_and_settings_its_spotter_json_gives(tmp_path):
    # The bundled recogniser and the released detector in a folder whose spotter.json leaves the
    # turned reading out: "Creek" at 60 degrees comes out "Cre", as with upright=True; an option given
    # keeps its own value.
    folder = released_detector_spotter(tmp_path)
    config = json.loads(open(os.path.join(SRC, "models", "spotter", "spotter.json")).read())
    config["stages"].remove("turned")
    (folder / "spotter.json").write_text(json.dumps(config))
    crop = os.path.join(SRC, "tests", "data", "spot", "grand-creek-at-60-degrees.jpg")
    texts = [w["text"] for g in light.Spotter(str(folder), threads=2).spot(crop)[0]["groups"] for w in g]
    assert "Cre" in texts and "Creek" not in texts
    assert light.Spotter(str(folder), threads=2, min_score=0.9999).spot(crop)[0]["groups"] == []
    config["turned"]["unsettled"] = 2
    (folder / "spotter.json").write_text(json.dumps(config))
    with pytest.raises(light.Error, match="spotter.json: turned.unsettled: expected 0 to 1, got 2"):
        light.Spotter(str(folder))


def test_spot_small_lettering_reads_as_light_spot_small_lettering_and_links_as_a_spotters_words(tmp_path):
    # A plan's street names among larger lettering (tests/test_spotter.cpp): more found read again
    # enlarged, by a spotter folder (the released detector) that enlarges the median line to 28 px, as
    # that test does.
    folder = released_detector_spotter(tmp_path)
    config = json.loads(open(os.path.join(SRC, "models", "spotter", "spotter.json")).read())
    config["enlarged"]["auto_height"] = 28
    (folder / "spotter.json").write_text(json.dumps(config))
    crop = os.path.join(SRC, "tests", "data", "spot", "street-names-among-larger-lettering.png")
    want = cli(tmp_path, "spot", "--images", crop, "--spotter", str(folder), "--threads", "2", "--small-lettering")
    got = light.Spotter(str(folder), threads=2, small_lettering=True).spot(crop)
    assert got == want
    assert len(got[0]["groups"]) > len(light.Spotter(str(folder), threads=2).spot(crop)[0]["groups"]) + 2
    linker = light.Linker(threads=2)
    linker.link(got, os.path.dirname(crop))
    assert linker.report["spotted_tiles"] == 1  # every word carries the spotter's score
    linker = light.Linker(threads=2, words_from="annotation")
    linker.link(got, os.path.dirname(crop))
    assert linker.report["spotted_tiles"] == 0
    linked = cli(tmp_path, "link", "--images", crop, "--spotter", str(folder), "--small-lettering", "--threads", "2")
    assert linked == light.Linker(threads=2).link(got, os.path.dirname(crop))

# ---- Words keep their identity --------------------------------------------------------------------

def test_every_words_own_keys_come_back_on_the_same_word(tile_words, linker):
    words = copy.deepcopy(tile_words)
    n = 0
    for tile in words:
        for group in tile["groups"]:
            for w in group:
                w["id"] = f"w{n}"
                w["score"] = round(0.5 + n / 1000, 3)
                w["source"] = {"sheet": "A", "n": n}
                n += 1
    by_id = {w["id"]: w for t in words for g in t["groups"] for w in g}
    for linked in (linker.link(words, images=TILE_DIR), light.link(words, method="mst")):
        seen = 0
        for tile in linked:
            for group in tile["groups"]:
                for w in group:
                    mine = by_id[w["id"]]
                    assert w["text"] == mine["text"] and w["vertices"] == mine["vertices"]
                    assert w["score"] == mine["score"] and w["source"] == mine["source"]
                    seen += 1
        assert seen == n


# ---- numpy ----------------------------------------------------------------------------------------

def test_numpy_polygons_and_images_give_the_same_phrases(tile_words, linker):
    np = pytest.importorskip("numpy")
    words = copy.deepcopy(tile_words)
    for tile in words:
        for group in tile["groups"]:
            for w in group:
                w["vertices"] = np.asarray(w["vertices"], dtype=np.float64)
    want = linker.link(tile_words, images=TILE_DIR)
    assert linker.link(words, images=TILE_DIR) == want
    # the tile's pixels as an array (decoded by light, as it reads files)
    image = light.read_image(TILE_IMAGE)
    assert image.shape[2] == 3 and image.dtype == np.uint8
    assert linker.link(words, images=image) == want
    assert linker.link(words, images={"topographic-1500.png": image}) == want
    grey_alpha = np.concatenate([image, np.full(image.shape[:2] + (1,), 255, np.uint8)], axis=2)
    assert linker.link(words, images=grey_alpha) == want  # RGBA: alpha dropped
    assert light.Spotter(threads=2).spot(image) == [dict(t, image="image") for t in light.spot(TILE_IMAGE, threads=2)]


# ---- A model kept between calls -------------------------------------------------------------------

def test_a_linker_is_loaded_once_and_gives_the_same_phrases_every_call(tile_words, linker):
    assert os.path.isfile(os.path.join(linker.model_dir, "config.json"))
    first = linker.link(tile_words, images=TILE_DIR)
    assert linker.report["words"] == sum(len(g) for t in tile_words for g in t["groups"])
    assert linker.link(tile_words, images=TILE_DIR) == first
    # a phrase-final bias as large as 50 ends every phrase: the options reach the model
    ends = light.Linker(threads=2, no_successor_bias=50).link(tile_words, images=TILE_DIR)
    assert all(len(g) == 1 for g in ends[0]["groups"])


def test_a_phrase_holding_a_word_twice_is_cut_unless_kept_as_light_link_does(tmp_path, tile_words):
    # A "no successor" bias as small as 1e-4 chains the tile's words into long phrases, one holding a
    # word twice with other words between ("Lake ... Lake"): cut by default, kept when asked.
    args = ["link", "--words", TILE_WORDS, "--images", TILE_DIR, "--threads", "2", "--no-successor-bias", "0.0001"]
    cut = light.Linker(threads=2, no_successor_bias=1e-4).link(tile_words, images=TILE_DIR)
    kept = light.Linker(threads=2, no_successor_bias=1e-4, keep_repeated_words=True).link(tile_words, images=TILE_DIR)
    assert cut == cli(tmp_path, *args)
    assert kept == cli(tmp_path, *args, "--keep-repeated-words")
    assert len(kept[0]["groups"]) < len(cut[0]["groups"])
    # polygon_height reaches the model: read at their full height, the words' link scores change
    full = light.Linker(threads=2, polygon_height=1.0).link(tile_words, images=TILE_DIR)
    assert full == cli(tmp_path, "link", "--words", TILE_WORDS, "--images", TILE_DIR, "--threads", "2", "--polygon-height", "1")
    assert full != light.Linker(threads=2).link(tile_words, images=TILE_DIR)


def test_the_gil_is_released_while_a_linker_works(tile_words, linker):
    """While the C++ call links (hundreds of milliseconds), another Python thread keeps running: the
    longest pause between its ticks stays far below the call's length (a held GIL would stop it for
    the whole call). Then two threads, a Linker each, link at once and agree."""
    text = json.dumps(tile_words)
    times, done = [], threading.Event()

    def tick():
        while not done.is_set():
            times.append(time.perf_counter())

    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.05)
    t0 = time.perf_counter()
    linker._core.link(text, "words", TILE_DIR)
    t1 = time.perf_counter()
    done.set()
    t.join()
    marks = [t0] + [x for x in times if t0 < x < t1] + [t1]  # the call's start, the ticks, its end
    longest = max(b - a for a, b in zip(marks, marks[1:]))
    assert t1 - t0 > 0.1
    assert longest < 0.25 * (t1 - t0), (longest, t1 - t0)

    linkers = [light.Linker(threads=1), light.Linker(threads=1)]
    outs = [None, None]
    workers = [threading.Thread(target=lambda i=i: outs.__setitem__(i, linkers[i].link(tile_words, images=TILE_DIR)))
               for i in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    # Against the same settings linked alone: a linker of another thread count may round a probability
    # the other way in its last place (BLAS sums in another order: seen on an AMD EPYC).
    assert outs[0] == outs[1] == light.Linker(threads=1).link(tile_words, images=TILE_DIR)


# ---- Errors ---------------------------------------------------------------------------------------

def test_bad_words_raise_light_error_with_the_message_light_prints(tmp_path):
    bad = [{"image": "a.png", "groups": [[{"vertices": [[0, 0], [1, 0]], "text": "X"}]]}]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    run = subprocess.run([LIGHT, "link", "--method", "mst", "--words", str(tmp_path / "bad.json"), "-o", str(tmp_path / "o.json")],
                         capture_output=True, text=True)
    assert run.returncode != 0
    with pytest.raises(light.Error) as e:
        light.link(bad, method="mst")
    message = str(e.value)
    assert message == 'words: image "a.png", group 0, word 0: "vertices" needs at least 3 [x, y] points, got 2'
    # the command's message for the same words in a file: the same but for the file's name
    assert run.stderr.strip() == "light: error: " + message.replace("words", str(tmp_path / "bad.json"), 1)
    assert isinstance(e.value, ValueError)
    assert not (tmp_path / "o.json").exists()


def test_errors_name_the_field_and_nothing_is_written(tmp_path):
    with pytest.raises(light.Error, match=r"^data\[0\]\.groups\[0\]\[0\]\.vertices\[1\]\[1\]: expected a finite number$"):
        light.validate([{"image": "a.png", "groups": [[{"vertices": [[0, 0], [1, float("nan")], [1, 1]]}]]}])
    with pytest.raises(light.Error, match="kind"):
        light.read_maptext(EXAMPLE_PRED, kind="truth")
    with pytest.raises(light.Error, match="images"):
        light.link(light.read_maptext(EXAMPLE_PRED))  # a model without images
    with pytest.raises(light.Error, match="not both"):
        light.link(light.read_maptext(EXAMPLE_PRED), model="m", method="mst")
    with pytest.raises(light.Error, match="no-such-folder"):
        light.Linker("no-such-folder")
    with pytest.raises(light.Error, match="task"):
        light.evaluate(EXAMPLE_GT, EXAMPLE_PRED, task="nope")
    with pytest.raises(light.Error, match="missing.json"):
        light.read_maptext(tmp_path / "missing.json")
    target = tmp_path / "keep.json"
    target.write_text("precious")
    with pytest.raises(light.Error):
        light.write_maptext(target, [{"image": "a.png", "groups": [[{"vertices": "no"}]]}])
    assert target.read_text() == "precious"


def test_warnings_of_the_evaluator_are_python_warnings():
    gt = light.read_maptext(EXAMPLE_GT, kind="ground_truth")
    extra = copy.deepcopy(gt[0])
    extra["image"] = "sample/another.png"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        light.evaluate(gt + [extra], EXAMPLE_PRED)
    assert any(issubclass(w.category, light.LightWarning) and "another.png" in str(w.message) for w in caught)


# ---- A spotter's table of words -------------------------------------------------------------------

def test_a_spotters_table_becomes_phrases_and_geojson(tile_words):
    rows = []
    for tile in tile_words:
        for g in tile["groups"]:
            for w in g:
                xs = ", ".join(f"{x} {y}" for x, y in w["vertices"] + [w["vertices"][0]])
                rows.append({"polygon": f"POLYGON (({xs}))", "text": w.get("text", ""), "score": 0.9,
                             "image": tile["image"], "patch_id": "patch-0"})
    tiles = light.tiles_from_words(rows)
    assert len(tiles) == 1 and sum(len(g) for g in tiles[0]["groups"]) == len(rows)
    first = tiles[0]["groups"][0][0]
    assert first["score"] == 0.9 and first["patch_id"] == "patch-0" and len(first["vertices"]) == len(
        tile_words[0]["groups"][0][0]["vertices"])
    linked = light.link(tiles, images=TILE_DIR, threads=2)
    # Its words carry a score: a spotter's, decoded with the model's factor for spotted words.
    assert texts(linked) == texts(light.link(tile_words, images=TILE_DIR, threads=2, words_from="spotter"))
    assert texts(light.link(tiles, images=TILE_DIR, threads=2, words_from="annotation")) == texts(
        light.link(tile_words, images=TILE_DIR, threads=2))
    geo = light.to_geojson(linked)
    assert geo["type"] == "FeatureCollection" and len(geo["features"]) == len(linked[0]["groups"])
    assert all(w["patch_id"] == "patch-0" for f in geo["features"] for w in f["properties"]["words"])


# ---- Installed ------------------------------------------------------------------------------------

def test_cmake_install_puts_a_module_that_imports_and_links(tmp_path):
    """`cmake --install` (component python, under DESTDIR) writes a package that imports on its own:
    in this interpreter, and in Debian's python3 when it is another build of the same Python version."""
    subprocess.run(["cmake", "--install", os.environ["LIGHT_BUILD_DIR"], "--component", "python"], check=True,
                   env=dict(os.environ, DESTDIR=str(tmp_path)), capture_output=True)
    inits = list(tmp_path.rglob("light/__init__.py"))
    assert len(inits) == 1 and list(inits[0].parent.glob("_light*.so"))
    site = str(inits[0].parent.parent)
    script = ("import json, light; w = light.read_maptext(%r, kind='ground_truth'); "
              "print(json.dumps([light.__file__, light.link(w, images=%r, threads=2)]))" % (TILE_WORDS, TILE_DIR))
    want = light.link(light.read_maptext(TILE_WORDS, kind="ground_truth"), images=TILE_DIR, threads=2)
    interpreters = [os.sys.executable]
    debian = "/usr/bin/python3"
    if os.path.exists(debian) and os.path.realpath(debian) != os.path.realpath(os.sys.executable):
        version = subprocess.run([debian, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True).stdout
        if version.strip() == str(tuple(os.sys.version_info[:2])):
            interpreters.append(debian)
    for py in interpreters:
        out = subprocess.run([py, "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path,
                             env=dict(os.environ, PYTHONPATH=site)).stdout
        where, linked = json.loads(out)
        assert where.startswith(str(tmp_path)), (py, where)
        assert linked == want, py


def test_the_documented_table_example_runs(tmp_path, tile_words):
    """examples/python/table_to_phrases.py (docs/python.md) on a CSV of the bundled tile's words."""
    import csv
    with open(tmp_path / "words.csv", "w", newline="") as f:
        out = csv.DictWriter(f, ["polygon", "text", "score", "image", "patch_id"])
        out.writeheader()
        for tile in tile_words:
            for g in tile["groups"]:
                for w in g:
                    ring = w["vertices"] + [w["vertices"][0]]
                    out.writerow({"polygon": "POLYGON ((" + ", ".join(f"{x} {y}" for x, y in ring) + "))",
                                  "text": w.get("text", ""), "score": "0.75", "image": tile["image"], "patch_id": "p1"})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in os.sys.path if p))
    run = subprocess.run([os.sys.executable, os.path.join(SRC, "examples", "python", "table_to_phrases.py"), str(tmp_path / "words.csv"),
                          TILE_DIR, str(tmp_path / "out")], check=True, capture_output=True, text=True, env=env)
    assert "Henderson River" in run.stdout
    phrases = json.load(open(tmp_path / "out.json"))
    assert texts(phrases) == texts(light.link(tile_words, images=TILE_DIR, threads=2, words_from="spotter"))  # scored: a spotter's
    geo = json.load(open(tmp_path / "out.geojson"))
    words = [w for f in geo["features"] for w in f["properties"]["words"]]
    assert len(words) == sum(len(g) for t in tile_words for g in t["groups"])
    assert all(w["score"] == 0.75 and w["patch_id"] == "p1" for w in words)

