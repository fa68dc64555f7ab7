#include "light/geo/place_matching.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_set>

#include "light/search/normalize.h"
#include "light/util/unicode.h"
#include "light/util/utf8.h"

namespace light::geo {

namespace {

// Generic words (as search::normalize leaves them) and the GeoNames class each implies as a name's
// last word. "fort", "mount" and "lake" lead names of towns as often as of forts, peaks and lakes, and
// imply nothing first.
const std::map<std::string, std::string>& generic_words() {
  static const std::map<std::string, std::string> table = {
      {"creek", "H"},    {"river", "H"},     {"brook", "H"},    {"run", "H"},       {"branch", "H"},   {"fork", "H"},
      {"lake", "H"},     {"lakes", "H"},     {"pond", "H"},     {"bay", "H"},       {"spring", "H"},   {"springs", "H"},
      {"slough", "H"},   {"bayou", "H"},     {"canal", "H"},    {"harbor", "H"},    {"harbour", "H"},  {"cove", "H"},
      {"sound", "H"},    {"falls", "H"},     {"marsh", "H"},    {"swamp", "H"},     {"reservoir", "H"}, {"burn", "H"},
      {"beck", "H"},     {"mount", "T"},     {"mountain", "T"}, {"mountains", "T"}, {"peak", "T"},     {"hill", "T"},
      {"hills", "T"},    {"butte", "T"},     {"knob", "T"},     {"ridge", "T"},     {"mesa", "T"},     {"gap", "T"},
      {"pass", "T"},     {"valley", "T"},    {"canyon", "T"},   {"island", "T"},    {"point", "T"},    {"cape", "T"},
      {"head", "T"},     {"fell", "T"},      {"county", "A"},   {"township", "A"},  {"parish", "A"},   {"territory", "A"},
      {"station", "S"},  {"mill", "S"},      {"mills", "S"},    {"church", "S"},    {"school", "S"},   {"farm", "S"},
      {"mine", "S"},     {"hall", "S"},      {"house", "S"},    {"lodge", "S"},     {"city", "P"},     {"town", "P"},
      {"village", "P"},  {"street", "R"},   {"avenue", "R"},   {"railroad", "R"},  {"railway", "R"},  {"road", "R"},      {"wood", "V"},     {"woods", "V"},
      {"forest", "V"},   {"bank", "H"},      {"sands", "H"},
  };
  return table;
}

bool small_word(const std::string& w) {
  static const std::unordered_set<std::string> words = {"and", "the", "of", "de", "la", "le", "du", "des", "von", "van", "on", "in", "at"};
  return words.count(w) > 0;
}

double distance_km(double lon1, double lat1, double lon2, double lat2) {
  const double r = M_PI / 180;
  const double a = std::pow(std::sin((lat2 - lat1) * r / 2), 2) + std::cos(lat1 * r) * std::cos(lat2 * r) * std::pow(std::sin((lon2 - lon1) * r / 2), 2);
  return 2 * 6371.0 * std::asin(std::min(1.0, std::sqrt(a)));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

std::string implied_feature_class(const std::string& phrase) {
  const std::vector<std::string> words = search::normalized_words(phrase);
  if (words.size() < 2) return "";
  const auto it = generic_words().find(words.back());
  return it == generic_words().end() ? "" : it->second;
}

std::string without_letter_spacing(const std::string& phrase) {
  std::vector<std::string> tokens;
  for (size_t at = 0; at < phrase.size();) {
    const size_t space = phrase.find(' ', at);
    const size_t end = space == std::string::npos ? phrase.size() : space;
    if (end > at) tokens.push_back(phrase.substr(at, end - at));
    at = end + 1;
  }
  const auto single = [](const std::string& t) { return code_point_count(t) == 1; };
  std::string out;
  for (size_t i = 0; i < tokens.size();) {
    size_t j = i;
    while (j < tokens.size() && single(tokens[j])) ++j;
    std::string piece;
    if (j - i >= 3) {
      for (size_t k = i; k < j; ++k) piece += tokens[k];
      i = j;
    } else {
      piece = tokens[i++];
    }
    out += (out.empty() ? "" : " ") + piece;
  }
  return out;
}

bool names_a_place(const std::string& phrase) {
  size_t letters = 0;
  bool proper = false;
  for (const std::string& w : search::normalized_words(phrase)) {
    letters += code_point_count(w);
    if (!generic_words().count(w) && !small_word(w) && std::any_of(w.begin(), w.end(), [](char c) { return c < '0' || c > '9'; })) proper = true;
  }
  return proper && letters >= 3;
}

std::string street_or_saint(const std::string& phrase) {
  // "St." ending a name of two words or more is a street ("Main St."); leading one, a saint.
  const size_t space = phrase.find_last_of(' ');
  if (space == std::string::npos || search::normalized_words(phrase).size() < 2) return phrase;
  std::string last = phrase.substr(space + 1);
  if (!last.empty() && last.back() == '.') last.pop_back();
  if (last != "St" && last != "ST" && last != "st") return phrase;
  return phrase.substr(0, space) + (last == "ST" ? " STREET" : " Street");
}

std::vector<PhrasePlaces> match_places(const Gazetteer& g, const std::vector<std::string>& phrases, const MatchOptions& o) {
  std::vector<PhrasePlaces> out(phrases.size());
  for (size_t k = 0; k < phrases.size(); ++k) {
    PhrasePlaces& p = out[k];
    p.text = phrases[k];
    p.query = street_or_saint(without_letter_spacing(p.text));
    if (!is_valid_utf8(p.query) || !names_a_place(p.query)) continue;
    p.implied_class = implied_feature_class(p.query);
    const std::u32string query = utf8_decode(search::normalize(p.query));
    const size_t length = query.size();
    for (const NameMatch& m : g.find(p.query, o.max_edits, std::max<size_t>(o.candidates * 4, 20))) {
      PlaceCandidate c;
      c.place = g.place(m.place);
      const PlaceName n = g.name(m.name);
      c.matched = n.text, c.name = m.name, c.edits = m.edits, c.historic = n.about.historic;
      const double longer = static_cast<double>(std::max(length, code_point_count(n.normalized)));
      // The name as printed (the gazetteer's) read as the phrase: a spotter's usual misreadings cost less.
      const double edits = o.confusions && m.edits > 0 ? std::min<double>(m.edits, o.confusions->distance(utf8_decode(n.normalized), query))
                                                       : static_cast<double>(m.edits);
      c.score = 1.0 - edits / std::max(1.0, longer);
      if (!p.implied_class.empty() && c.place.feature_class != p.implied_class) c.score *= o.other_class;
      if (c.score >= o.min_score) p.candidates.push_back(std::move(c));
    }
  }
  // Where the map's names lie: the places of phrases with one exact candidate, their median and spread.
  if (o.spatial) {
    std::vector<double> lon, lat;
    std::unordered_set<int64_t> anchors;  // a place named twice on a map anchors it once
    for (const PhrasePlaces& p : out)
      if (p.candidates.size() == 1 && p.candidates[0].edits == 0 && anchors.insert(p.candidates[0].place.id).second)
        lon.push_back(p.candidates[0].place.lon), lat.push_back(p.candidates[0].place.lat);
    if (lon.size() >= 3) {
      const double clon = median(lon), clat = median(lat);
      std::vector<double> d;
      for (size_t i = 0; i < lon.size(); ++i) d.push_back(distance_km(clon, clat, lon[i], lat[i]));
      const double spread = std::max(25.0, 3.0 * median(d));  // km: a county map's names lie within tens of km
      for (PhrasePlaces& p : out)
        for (PlaceCandidate& c : p.candidates) {
          const double excess = distance_km(clon, clat, c.place.lon, c.place.lat) / spread - 1.0;
          if (excess > 0) c.score *= std::max(o.far_floor, std::exp(-excess));
        }
    }
  }
  for (PhrasePlaces& p : out) {
    std::stable_sort(p.candidates.begin(), p.candidates.end(), [](const PlaceCandidate& a, const PlaceCandidate& b) {
      if (a.score != b.score) return a.score > b.score;
      return a.place.population > b.place.population;
    });
    if (p.candidates.size() > o.candidates) p.candidates.resize(o.candidates);
    const double next = p.candidates.size() > 1 ? p.candidates[1].score : 0.0;
    p.accepted = !p.candidates.empty() && p.candidates[0].score >= o.accept_score && p.candidates[0].score - next >= o.accept_margin;
  }
  return out;
}

}  // namespace light::geo
