// One map's names matched to a gazetteer's places and, when asked, the map georeferenced from them:
// what `light georef --from-names`, `light link --gazetteer` and `--georef names` share.
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "light/geo/names_georeference.h"
#include "light/geo/place_matching.h"
#include "light/search/phrase_index.h"

namespace light::geo {

struct MapNames {
  std::string image, stem;  // the image key; the file name the outputs take
  int width = 0, height = 0;
  std::vector<search::Phrase> phrases;
  std::vector<PhrasePlaces> matches;   // per phrase
  std::vector<LabelCandidates> labels; // per phrase
  NamesGeoreferenceOptions options;
  NamesGeoreference result;  // not ok when not asked for
  std::vector<int> placed;   // per phrase: the candidate the georeference places, or -1

  // A phrase's place: the candidate the georeference places, else the best candidate when it is
  // accepted or the map is not georeferenced; -1 for none.
  int chosen(size_t phrase) const;
  // Whether that place stands without a person's look: where the georeference puts the phrase with a
  // name scoring 0.8 or more (two letters misread in ten), else as place_matching accepts it.
  bool accepted(size_t phrase) const;
};

// A phrase's words' box and letter height (the median of its words' shorter box sides).
LabelCandidates label_of(const search::Phrase& phrase);

// The phrases of one map (of width x height pixels) matched to `gazetteer`; georeferenced from them
// when `georeference`.
// `confusions`: the spotter's misreadings (MatchOptions::confusions), or nullptr.
MapNames match_map_names(const std::string& image, std::vector<search::Phrase> phrases, int width, int height, const Gazetteer& gazetteer,
                         bool georeference, const NamesGeoreferenceOptions& options = {}, const ReadConfusions* confusions = nullptr);

// Every map's phrases, grouped by image in the order the images first come, matched and, when
// `georeference`, placed; `size_of(image)` gives a map's width and height (asked only then).
std::vector<MapNames> match_maps(const std::vector<search::Phrase>& phrases, const Gazetteer& gazetteer, bool georeference,
                                 const std::function<std::pair<int, int>(const std::string&)>& size_of,
                                 const NamesGeoreferenceOptions& options = {}, const ReadConfusions* confusions = nullptr);

}  // namespace light::geo
