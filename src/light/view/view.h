// `light view`: linked phrases on their maps as a web page that opens from disk, offline, with no
// server: a deep-zoom map (OpenSeadragon, vendored, over a tile pyramid of each image), every word's
// polygon, an arrow from each word to its successor, phrases in colours, a word's text, phrase and
// link probability on hover, and a searchable list of phrases (the normalisation and edit distance
// of `light search`). With ground truth, each link is coloured by the evaluator's verdict (correct,
// wrong, missed) and the page shows the detedges scores.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "light/eval/evaluator.h"
#include "light/export/phrases.h"
#include "light/maptext.h"
#include "light/view/pyramid.h"

namespace light::view {

struct ViewOptions {
  std::string title;                         // the page's title ("" = the words file's name)
  const maptext::Dataset* gt = nullptr;      // ground truth: verdicts and scores
  eval::Task task = eval::Task::DetEdges;    // the task the verdicts are taken under
  PyramidOptions pyramid;
  bool progress = true;
  output::PlacesFor places;  // each phrase's gazetteer place (light view --gazetteer): shown beside it, linked
};

// The page's data (data.js): per image its key, size, pyramid, words (polygons, texts, phrase,
// successor, the model's successor_probability, the verdict on its link), phrases (text, normalised
// text, words, and with places its place: uri, name, accepted) and missed links; the abbreviations search expands; with ground truth the scores.
// `pyramids` holds each image's pyramid (in `linked` order); a JSON object text.
std::string view_data_json(const maptext::Dataset& linked, const std::vector<Pyramid>& pyramids, const ViewOptions& options);

// Writes the page to `out` (a folder that must not exist yet, or be empty): index.html,
// light-view.js, light-view.css, data.js, openseadragon/ (the library and its licence) and tiles/
// (one pyramid an image). `image_of(key)` is the path of an image's file. The folder is written
// aside and renamed into place: a failure leaves nothing behind.
void write_view(const maptext::Dataset& linked, const std::function<std::string(const std::string&)>& image_of, const std::string& out,
                const ViewOptions& options);

}  // namespace light::view
