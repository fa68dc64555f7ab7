"""Hostile and careless input to `import light`, round three (issue 67): every bad value is a
light.Error naming the argument (and the row), never a bare TypeError or a silent default."""
import os
import shutil

import pytest

import light

SRC = os.environ["LIGHT_SOURCE_DIR"]
TILE_DIR = os.path.join(SRC, "data", "synth-example")
TILE_WORDS = os.path.join(TILE_DIR, "annotations.json")
EXAMPLE_GT = os.path.join(SRC, "data", "maptext-example", "example_gt.json")
FIGURE = os.path.join(SRC, "tests", "data", "spot", "lone-figure-6.jpg")


@pytest.mark.parametrize("threshold", [float("nan"), 1.0, -0.1])
def test_evaluate_refuses_an_iou_threshold_outside_zero_to_one(threshold):
    with pytest.raises(light.Error, match="iou_threshold"):
        light.evaluate(EXAMPLE_GT, EXAMPLE_GT, iou_threshold=threshold)


@pytest.mark.parametrize("polygon, shown", [(None, "None"), ([[0, 0], [1, 0], [1]], r"\[1\]"),
                                            ("POLYGON((0 0, 1 x, 1 1, 0 0))", "POLYGON"), (5, "5")])
def test_tiles_from_words_names_the_row_of_a_polygon_that_is_none(polygon, shown):
    rows = [{"polygon": [[0, 0], [4, 0], [4, 2]], "image": "a.png"}, {"polygon": polygon, "image": "a.png"}]
    with pytest.raises(light.Error, match=r"^rows\[1\]\.polygon: expected a polygon .*" + shown):
        light.tiles_from_words(rows)


def test_geojson_refuses_words_that_are_not_the_ones_linked():
    words = light.read_maptext(TILE_WORDS, kind="ground_truth")
    linked = light.link(words, method="distance")
    assert light.to_geojson(linked, words=words)["features"]
    with pytest.raises(light.Error, match="not among the words given"):
        light.to_geojson(linked, words=[])


def test_web_annotations_refuse_a_relative_canvas():
    linked = light.link(light.read_maptext(TILE_WORDS, kind="ground_truth"), method="distance")
    with pytest.raises(light.Error, match="absolute IRI"):
        light.to_web_annotations(linked, iiif_canvas="relative/{image}")
    page = light.to_web_annotations(linked, iiif_canvas="https://example.org/{image}/canvas")
    assert page["items"][0]["target"]["source"].startswith("https://example.org/")


def test_threads_below_zero_and_factors_that_mean_nothing_are_refused():
    words = light.read_maptext(TILE_WORDS, kind="ground_truth")
    with pytest.raises(light.Error, match="threads"):
        light.link(words, method="distance", threads=-1)
    with pytest.raises(light.Error, match="no_successor_bias"):
        light.Linker(no_successor_bias=0)
    for bad in (2.0, -0.5, float("nan")):
        with pytest.raises(light.Error, match="min_score"):
            light.Spotter(min_score=bad)


def test_a_dict_value_that_is_a_folder_is_refused_not_read_as_its_first_map(tmp_path):
    two = tmp_path / "two"
    two.mkdir()
    shutil.copy(FIGURE, two / "a.jpg")
    shutil.copy(FIGURE, two / "b.jpg")
    spotter = light.Spotter(threads=1)
    with pytest.raises(light.Error, match=r"images\['k'\]: .*is a folder"):
        spotter.spot({"k": str(two)})
    assert sorted(t["image"] for t in spotter.spot(str(two))) == ["a.jpg", "b.jpg"]


def test_every_decoding_setting_is_a_keyword_of_the_linker_checked_against_its_range():
    words = light.read_maptext(TILE_WORDS, kind="ground_truth")
    settings = light.decoding_settings()
    assert {"no_successor_bias", "lettering_prior", "polygon_height"} <= {k for k, _, _ in settings}
    for key, expected, _ in settings:
        with pytest.raises(light.Error, match=f"^{key}: expected"):
            light.Linker(threads=1, **{key: 1e7})
    assert light.link(words, images=TILE_DIR, threads=1, lettering_prior=None)  # None: the model's own
    with pytest.raises(TypeError, match="baseline_priro"):
        light.Linker(baseline_priro=2)
