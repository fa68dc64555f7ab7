// Linked phrases written for GIS and for IIIF viewers (issue 22): GeoJSON (RFC 7946) with one Feature
// per phrase, and W3C Web Annotations (JSON-LD) with one Annotation per phrase. No GDAL here: map
// coordinates come from a caller's Georeference function (geo/georef.h computes them with GDAL).
#pragma once
#include <functional>
#include <memory>
#include <optional>
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

// The gazetteer place a phrase names (geo/place_matching.h chooses it): written in GeoJSON as the
// phrase's "place" property and a Linked Places "links" entry (closeMatch), in Web Annotations as an
// identifying body.
struct PlaceLink {
  std::string uri;   // "https://sws.geonames.org/4228147/", or "urn:light:place:ID" for a place of a user's table
  std::string name;  // the gazetteer's name
  std::string feature_class, feature_code, country;
  double lon = 0, lat = 0, score = 0;
  bool accepted = false;  // the match stands clear: no person need look
  bool placed = false;    // where the map's georeference from its names puts the phrase
};
// Per image, each phrase's place (by group index; nullopt: none), or an empty vector.
using PlacesFor = std::function<std::vector<std::optional<PlaceLink>>(const std::string& image)>;

struct GeoJsonOptions {
  GeoreferenceFor georeference;  // empty: every map in pixel coordinates
  PlacesFor places;              // empty: no places
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
// "pixel"). Feature ids are "<image>#<phrase number>" (0-based). With places: a phrase's "place"
// property ({"uri", "name", "feature_class", "feature_code", "country", "lon", "lat", "score",
// "accepted", "placed"}) and the Feature's "links" ([{"type": "closeMatch", "identifier": URI}], as
// the Linked Places Format writes them).
std::string geojson_text(const maptext::Dataset& linked, const GeoJsonOptions& options = {});

struct WebAnnotationOptions {
  // The IIIF canvas each image's annotations target; "{image}" in it is replaced by the image key
  // (percent-encoded where an IRI needs it). Empty: urn:light:image:KEY.
  std::string canvas;
  PlacesFor places;  // empty: no places
};

// An AnnotationPage (W3C Web Annotation, JSON-LD context http://www.w3.org/ns/anno.jsonld) with one
// Annotation per phrase: motivation "tagging", the phrase text as a TextualBody, the target the
// image's canvas with an SvgSelector whose path outlines each of the phrase's words; with places, a
// second body for each accepted place: a SpecificResource with purpose "identifying" and its URI as
// source.
std::string web_annotation_text(const maptext::Dataset& linked, const WebAnnotationOptions& options = {});

}  // namespace light::output
