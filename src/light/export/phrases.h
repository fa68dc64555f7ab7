// Linked phrases written for GIS and for IIIF viewers (issue 22): GeoJSON (RFC 7946) with one Feature
// per phrase, and W3C Web Annotations (JSON-LD) with one Annotation per phrase. No GDAL here: map
// coordinates come from a caller's Georeference function (geo/georef.h computes them with GDAL).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::output {

enum class Format { MapText, GeoJson, WebAnnotation };
// "maptext", "geojson" or "webanno"; anything else is a light::Error naming --format.
Format parse_format(const std::string& name);

// A map image's pixels (x right, y down; (0, 0) the top-left corner of the top-left pixel, as MapText
// and GDAL count them) to longitude/latitude in degrees (WGS 84), or nullptr for an image without
// georeferencing.
using ToLonLat = std::function<std::vector<maptext::Point>(const std::vector<maptext::Point>& pixels)>;
using GeoreferenceFor = std::function<ToLonLat(const std::string& image)>;

struct GeoJsonOptions {
  GeoreferenceFor georeference;  // empty: every map in pixel coordinates
  // The words as read, before linking: a word's "index" is its place among its image's words there
  // (found by its text and vertices); without it, its place in the output.
  const maptext::Dataset* input = nullptr;
  // Counts the words whose own "index" key (a spotter's) was kept as "spotter_index".
  size_t* own_index_renamed = nullptr;
};

// A FeatureCollection: per phrase of every image, a Feature whose geometry is a MultiPolygon of its
// words' polygons (rings closed, counterclockwise as RFC 7946 asks), in longitude/latitude when the
// image is georeferenced, else in pixels; properties: "image", "text" (the words' texts joined by
// spaces), "words" ([{"text", "index", ...}] in reading order; index: the word's place among the
// image's words in file order; then the word's other keys, such as a spotter's "score" and the model's
// "successor_probability"; with map coordinates also its "pixel_vertices"), "coordinates" ("lonlat" or
// "pixel"). Feature ids are "<image>#<phrase number>" (0-based).
std::string geojson_text(const maptext::Dataset& linked, const GeoJsonOptions& options = {});

struct WebAnnotationOptions {
  // The IIIF canvas each image's annotations target; "{image}" in it is replaced by the image key
  // (percent-encoded where an IRI needs it). Empty: urn:light:image:KEY.
  std::string canvas;
};

// An AnnotationPage (W3C Web Annotation, JSON-LD context http://www.w3.org/ns/anno.jsonld) with one
// Annotation per phrase: motivation "tagging", the phrase text as a TextualBody, the target the
// image's canvas with an SvgSelector whose path outlines each of the phrase's words.
std::string web_annotation_text(const maptext::Dataset& linked, const WebAnnotationOptions& options = {});

}  // namespace light::output
