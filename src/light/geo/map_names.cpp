#include "light/geo/map_names.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace light::geo {

int MapNames::chosen(size_t phrase) const {
  if (phrase < placed.size() && placed[phrase] >= 0) return placed[phrase];
  if (phrase >= matches.size() || matches[phrase].candidates.empty()) return -1;
  return result.ok ? -1 : 0;
}

bool MapNames::accepted(size_t phrase) const {
  const int k = chosen(phrase);
  if (k < 0) return false;
  if (phrase < placed.size() && placed[phrase] == k) return matches[phrase].candidates[static_cast<size_t>(k)].score >= 0.8;
  return matches[phrase].accepted;
}

LabelCandidates label_of(const search::Phrase& p) {
  LabelCandidates l;
  l.x0 = l.y0 = 1e300, l.x1 = l.y1 = -1e300;
  std::vector<double> heights;
  for (const auto& w : p.words) {
    double wx0 = 1e300, wy0 = 1e300, wx1 = -1e300, wy1 = -1e300;
    for (const auto& v : w.vertices) wx0 = std::min(wx0, v.x), wy0 = std::min(wy0, v.y), wx1 = std::max(wx1, v.x), wy1 = std::max(wy1, v.y);
    l.x0 = std::min(l.x0, wx0), l.y0 = std::min(l.y0, wy0), l.x1 = std::max(l.x1, wx1), l.y1 = std::max(l.y1, wy1);
    heights.push_back(std::min(wx1 - wx0, wy1 - wy0));
  }
  std::sort(heights.begin(), heights.end());
  l.letter_px = heights.empty() ? 0 : heights[heights.size() / 2];
  return l;
}

MapNames match_map_names(const std::string& image, std::vector<search::Phrase> phrases, int width, int height, const Gazetteer& g,
                         bool georeference, const NamesGeoreferenceOptions& options, const ReadConfusions* confusions) {
  MapNames m;
  m.image = image;
  m.stem = std::filesystem::path(image).stem().string();
  m.width = width, m.height = height;
  m.phrases = std::move(phrases);
  m.options = options;
  std::vector<std::string> texts;
  for (const auto& p : m.phrases) texts.push_back(p.text());
  // Placing the map finds where its names agree better than their median does: scores by name and
  // class alone then.
  // and common names (Newport, Richmond) have more namesakes than a person reads through: more
  // candidates a phrase.
  MatchOptions mo;
  mo.spatial = !georeference;
  mo.confusions = confusions;
  if (georeference) mo.candidates = 15;
  m.matches = match_places(g, texts, mo);
  for (size_t i = 0; i < m.phrases.size(); ++i) {
    LabelCandidates l = label_of(m.phrases[i]);
    for (const auto& c : m.matches[i].candidates) l.candidates.push_back({c.place.lon, c.place.lat, c.score});
    m.labels.push_back(std::move(l));
  }
  if (georeference) {
    m.result = georeference_from_names(m.labels, width, height, options);
    m.placed = m.result.placed(m.labels, width, height, options);
  }
  return m;
}

std::vector<MapNames> match_maps(const std::vector<search::Phrase>& phrases, const Gazetteer& g, bool georeference,
                                 const std::function<std::pair<int, int>(const std::string&)>& size_of,
                                 const NamesGeoreferenceOptions& options, const ReadConfusions* confusions) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<search::Phrase>> by_image;
  for (const search::Phrase& p : phrases) {
    auto& v = by_image[p.image];
    if (v.empty()) order.push_back(p.image);
    v.push_back(p);
  }
  std::vector<MapNames> maps;
  for (const std::string& image : order) {
    const auto [width, height] = georeference ? size_of(image) : std::pair<int, int>{0, 0};
    maps.push_back(match_map_names(image, std::move(by_image[image]), width, height, g, georeference, options, confusions));
  }
  return maps;
}

}  // namespace light::geo
