#!/usr/bin/env python3
"""A spotter's table of words (one row a word, as MapReader writes its predictions: polygon, text,
score, image) to phrases in reading order, written as MapText JSON and GeoJSON.

    python3 examples/python/table_to_phrases.py words.csv IMAGES_DIR OUT_PREFIX

The polygon column holds WKT ("POLYGON ((x y, ...))", as a CSV of a GeoDataFrame does) or [[x, y], ...];
every other column (score, patch_id, ...) stays on its word in both outputs.
"""
import csv
import json
import sys

import light


def main(table, images, out):
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:  # a CSV holds text: numbers back to numbers
        if row.get("score"):
            row["score"] = float(row["score"])
    words = light.tiles_from_words(rows, polygon="polygon", text="text", image="image")
    linker = light.Linker()  # the bundled model, loaded once for every map of the table
    phrases = linker.link(words, images=images)
    light.write_maptext(out + ".json", phrases)
    with open(out + ".geojson", "w") as f:
        json.dump(light.to_geojson(phrases, words=words), f)
    for tile in phrases:
        print(tile["image"] + ": " + " | ".join(" ".join(w.get("text", "") for w in g) for g in tile["groups"][:12]))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
