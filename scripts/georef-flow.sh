#!/usr/bin/env bash
# The README's whole flow on the bundled georeferenced tile (data/synth-example: a world file and its
# .prj place it on UTM zone 13N): link it, write GeoJSON in longitude/latitude and Web Annotations,
# and draw the GeoJSON back over the map with GDAL (phrases' words outlined, links in orange) into
# docs/georef-flow.jpg. Needs gdal-bin (scripts/install-deps.sh).
#
#   bash scripts/georef-flow.sh [OUT]       (default build/georef-flow; LIGHT=build/light)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-build/georef-flow}
LIGHT=${LIGHT:-build/light}
mkdir -p "$OUT"
tile=data/synth-example
"$LIGHT" link --words $tile/annotations.json --images $tile --format geojson --georef auto -o "$OUT/phrases.geojson" -q
"$LIGHT" link --words $tile/annotations.json --images $tile --format webanno \
  --iiif-canvas https://example.org/iiif/topographic-1500/canvas/1 -o "$OUT/phrases.jsonld" -q
# Each multi-word phrase's reading line: its words' centres in order.
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
feats = []
for f in json.load(open(f"{out}/phrases.geojson"))["features"]:
    polys = f["geometry"]["coordinates"]
    if len(polys) < 2:
        continue
    centres = [[sum(p[0] for p in poly[0][:-1]) / (len(poly[0]) - 1), sum(p[1] for p in poly[0][:-1]) / (len(poly[0]) - 1)] for poly in polys]
    feats.append({"type": "Feature", "geometry": {"type": "LineString", "coordinates": centres}, "properties": {"text": f["properties"]["text"]}})
json.dump({"type": "FeatureCollection", "features": feats}, open(f"{out}/links.geojson", "w"))
PY
rm -f "$OUT"/*.gpkg "$OUT/map.tif"
gdal_translate -q -a_srs EPSG:32613 $tile/topographic-1500.png "$OUT/map.tif"
ogr2ogr -q -t_srs EPSG:32613 "$OUT/phrases.gpkg" "$OUT/phrases.geojson" -nln phrases
ogr2ogr -q -t_srs EPSG:32613 "$OUT/links.gpkg" "$OUT/links.geojson" -nln links
ogr2ogr -q -nlt MULTIPOLYGON -dialect sqlite -sql "SELECT ST_Buffer(ST_Boundary(geom), 1.2) AS geometry FROM phrases" "$OUT/outlines.gpkg" "$OUT/phrases.gpkg"
ogr2ogr -q -nlt MULTIPOLYGON -dialect sqlite -sql "SELECT ST_Buffer(geom, 2.5) AS geometry FROM links" "$OUT/lines.gpkg" "$OUT/links.gpkg"
gdal_rasterize -q -b 1 -b 2 -b 3 -burn 60 -burn 90 -burn 200 "$OUT/outlines.gpkg" "$OUT/map.tif"
gdal_rasterize -q -b 1 -b 2 -b 3 -burn 230 -burn 60 -burn 20 "$OUT/lines.gpkg" "$OUT/map.tif"
gdal_translate -q -of JPEG -co QUALITY=82 -outsize 900 0 "$OUT/map.tif" docs/georef-flow.jpg
rm -f docs/georef-flow.jpg.aux.xml
ogrinfo -ro -al -so "$OUT/phrases.geojson" | grep -E "Feature Count|Extent"
echo "-> $OUT/phrases.geojson, $OUT/phrases.jsonld, docs/georef-flow.jpg"
