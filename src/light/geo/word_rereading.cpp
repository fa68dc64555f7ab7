#include "light/geo/word_rereading.h"

#include <utf8proc.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "light/eval/edit_distance.h"
#include "light/search/normalize.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::geo {

namespace {

std::u32string lowered(const std::string& s) {
  std::u32string u = utf8_decode(s);
  for (char32_t& c : u) c = static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
  return u;
}

std::vector<std::string> words_of(const std::string& name) {
  std::vector<std::string> out;
  std::string w;
  for (char c : name + " ") {
    if (c == ' ') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  return out;
}

struct NearPlace {
  uint32_t place = 0;
  double x = 0, y = 0;
  std::vector<std::string> words;
};

// The gazetteer's places the georeference puts on the map or within `margin` pixels of it.
std::vector<NearPlace> places_on(const MapNames& m, const Gazetteer& g, double margin) {
  double west = 1e300, east = -1e300, south = 1e300, north = -1e300;
  for (int k = 0; k <= 8; ++k)
    for (int side = 0; side < 4; ++side) {
      const double f = k / 8.0;
      const double x = side == 0 ? f * m.width : side == 1 ? m.width : side == 2 ? (1 - f) * m.width : 0;
      const double y = side == 0 ? 0 : side == 1 ? f * m.height : side == 2 ? m.height : (1 - f) * m.height;
      double lon = 0, lat = 0;
      m.result.lonlat(x, y, lon, lat);
      west = std::min(west, lon), east = std::max(east, lon), south = std::min(south, lat), north = std::max(north, lat);
    }
  const double grow_lon = 0.1 * (east - west) + 0.01, grow_lat = 0.1 * (north - south) + 0.01;
  std::vector<NearPlace> out;
  for (uint32_t k : g.places_within(west - grow_lon, south - grow_lat, east + grow_lon, north + grow_lat)) {
    const Place p = g.place(k);
    NearPlace n;
    n.place = k;
    m.result.pixel(p.lon, p.lat, n.x, n.y);
    if (n.x < -margin || n.y < -margin || n.x > m.width + margin || n.y > m.height + margin) continue;
    n.words = words_of(p.name);
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

std::string in_case_of(const std::string& name, const std::string& reading) {
  size_t capitals = 0, small = 0;
  for (char32_t c : utf8_decode(reading)) capitals += is_capital(c), small += is_small_letter(c);
  if (capitals < 2 || capitals <= small) return name;
  return to_upper(name);
}

std::vector<WordReread> reread_words(const MapNames& m, const Gazetteer& g, const std::vector<std::vector<double>>& scores,
                                     const WordLikelihoods& likelihoods, const RereadOptions& o) {
  std::vector<WordReread> out;
  if (!m.result.ok || m.width <= 0 || m.height <= 0) return out;
  const auto weighed = [&](size_t i, size_t j) {
    return i < scores.size() && j < scores[i].size() && scores[i][j] >= 0 && scores[i][j] <= o.max_score;
  };
  bool any = false;
  for (size_t i = 0; i < m.phrases.size() && !any; ++i)
    for (size_t j = 0; j < m.phrases[i].words.size(); ++j) any = any || weighed(i, j);
  if (!any) return out;
  const double margin = o.near_diagonal * std::hypot(m.width, m.height);
  const std::vector<NearPlace> places = places_on(m, g, margin);
  for (size_t i = 0; i < m.phrases.size(); ++i) {
    const search::Phrase& phrase = m.phrases[i];
    const LabelCandidates l = label_of(phrase);
    const double reach = o.near_heights * l.letter_px + margin;
    std::vector<const NearPlace*> near;
    for (const NearPlace& p : places) {
      const double dx = std::max({l.x0 - p.x, 0.0, p.x - l.x1}), dy = std::max({l.y0 - p.y, 0.0, p.y - l.y1});
      if (std::hypot(dx, dy) <= reach) near.push_back(&p);
    }
    if (near.empty()) continue;
    for (size_t j = 0; j < phrase.words.size(); ++j) {
      if (!weighed(i, j)) continue;
      const std::string& read = phrase.words[j].text;
      if (read.empty()) continue;
      const std::string as_read = search::normalize(read);
      const std::u32string read_low = lowered(read);
      // A name's word in the reading's case, and its place: other names, or the same name spelled
      // otherwise (accents, apostrophes: "Nimes" by "Nîmes") when the reading is already one.
      std::map<std::string, uint32_t> names, spellings;
      bool exact = false;
      for (const NearPlace* p : near)
        for (const std::string& word : p->words) {
          const std::string text = in_case_of(word, read);
          if (text == read) exact = true;
          const std::u32string low = lowered(text);
          const double longer = static_cast<double>(std::max(low.size(), read_low.size()));
          if (search::normalize(text) == as_read)
            spellings.emplace(text, p->place);
          else if (eval::levenshtein(low, read_low) <= o.max_edits * longer)
            names.emplace(text, p->place);
        }
      if (exact) continue;  // already a name of a place near it
      const bool spelling = !spellings.empty();
      const std::map<std::string, uint32_t>& chosen = spelling ? spellings : names;
      if (chosen.empty()) continue;
      std::vector<std::string> texts{read};
      for (const auto& [text, place] : chosen) texts.push_back(text);
      const std::vector<double> ll = likelihoods(phrase.words[j].vertices, texts);
      size_t best = 0;
      for (size_t k = 1; k < texts.size() && k < ll.size(); ++k)
        if (std::isfinite(ll[k]) && (best == 0 || ll[k] > ll[best])) best = k;
      if (best == 0) continue;
      if (!std::isfinite(ll[0])) continue;  // a reading the recogniser cannot write: nothing to weigh it against
      const double gain = ll[best] - ll[0];
      if (gain <= (spelling ? o.min_spelling_gain : o.min_gain)) continue;
      out.push_back({i, j, read, texts[best], chosen.at(texts[best]), gain});
    }
  }
  return out;
}

}  // namespace light::geo
