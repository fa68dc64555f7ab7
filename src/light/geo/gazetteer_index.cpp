#include "light/geo/gazetteer_index.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "light/error.h"
#include "light/search/normalize.h"
#include "light/search/phrase_index.h"
#include "light/search/trigrams.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"
#include "light/util/section_file.h"
#include "light/util/utf8.h"

namespace light::geo {

namespace {

constexpr char kMagic[8] = {'L', 'I', 'G', 'H', 'T', 'G', 'A', 'Z'};
constexpr uint32_t kVersion = 2;  // 2: postings by name length, the lengths kept
constexpr const char* kWhat = "light gazetteer";
constexpr const char* kRemedy = "build it again with `light gazetteer build`";

enum Section : uint32_t {
  kMetaOff, kMetaBytes,            // "date=...", "source=..." lines
  kPlaceId,                        // i64 a place
  kPlaceLonLat,                    // f64 x 2 a place
  kPlacePopulation,                // i64 a place
  kPlaceNameOff, kPlaceNameBytes,  // its name as written
  kPlaceKindOff, kPlaceKindBytes,  // "class\tcode\tcountry"
  kNameTextOff, kNameTextBytes,    // names as written
  kNameNormOff, kNameNormBytes,    // names normalised
  kNamePlace,                      // u32 a name
  kNameFlags,                      // u32 a name (kPrimary, kHistoric, ...)
  kNameNoteOff, kNameNoteBytes,    // "language\tfrom\tto" ("" for most)
  kNormOrder,                      // u32: names sorted by normalised form, then best place first
  kGramKeys, kGramBegin, kPostings,  // trigram -> names, each trigram's by name length, then index
  kNameLength,                     // u8 a name: its normalised form's code points (at most 255)
  kSectionCount
};

constexpr uint32_t kPrimary = 1, kHistoric = 2, kColloquial = 4, kShort = 8, kPreferred = 16;  // name flags

// Whether every letter of a normalised name is of the Latin script (basic, supplements, extended A/B
// and additional), figures and spaces aside.
bool latin(const std::string& normalized) {
  for (char32_t c : utf8_decode(normalized))
    if (c >= 0x250 && !(c >= 0x1E00 && c <= 0x1EFF)) return false;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s)
    if (c == sep) out.emplace_back();
    else out.back() += c;
  return out;
}

}  // namespace

struct Gazetteer::Impl {
  SectionFile file;
  size_t places = 0, names = 0;

  template <typename T>
  const T* at(Section k) const {
    return file.at<T>(k);
  }
  template <typename T>
  size_t count(Section k) const {
    return file.count<T>(k);
  }
  std::string string(Section off, Section bytes, size_t i) const { return file.string(off, bytes, i); }
  std::string_view view(Section off, Section bytes, size_t i) const {
    const uint64_t* o = at<uint64_t>(off);
    return std::string_view(file.section(bytes).data + o[i], o[i + 1] - o[i]);
  }

  void check() {
    places = count<int64_t>(kPlaceId);
    names = count<uint32_t>(kNamePlace);
    if (count<uint64_t>(kMetaOff) == 0) file.corrupt("meta table");
    file.check_string_table(kMetaOff, kMetaBytes, count<uint64_t>(kMetaOff) - 1);
    if (count<double>(kPlaceLonLat) != 2 * places || count<int64_t>(kPlacePopulation) != places) file.corrupt("place tables");
    file.check_string_table(kPlaceNameOff, kPlaceNameBytes, places);
    file.check_string_table(kPlaceKindOff, kPlaceKindBytes, places);
    file.check_string_table(kNameTextOff, kNameTextBytes, names);
    file.check_string_table(kNameNormOff, kNameNormBytes, names);
    file.check_string_table(kNameNoteOff, kNameNoteBytes, names);
    if (count<uint32_t>(kNameFlags) != names || count<uint32_t>(kNormOrder) != names || count<uint8_t>(kNameLength) != names)
      file.corrupt("name tables");
    const uint32_t* place = at<uint32_t>(kNamePlace);
    const uint32_t* order = at<uint32_t>(kNormOrder);
    for (size_t i = 0; i < names; ++i)
      if (place[i] >= places || order[i] >= names) file.corrupt("name references");
    const size_t g = count<uint64_t>(kGramKeys);
    if (count<uint64_t>(kGramBegin) != g + 1) file.corrupt("trigram table");
    const uint64_t* gb = at<uint64_t>(kGramBegin);
    if (gb[0] != 0 || gb[g] != count<uint32_t>(kPostings)) file.corrupt("trigram table");
    for (size_t i = 0; i < g; ++i)
      if (gb[i] > gb[i + 1]) file.corrupt("trigram table");
  }

  // a before b among names of one normalised form: the larger population, the primary name, index.
  bool better(uint32_t a, uint32_t b) const {
    const uint32_t* place = at<uint32_t>(kNamePlace);
    const int64_t* pop = at<int64_t>(kPlacePopulation);
    if (pop[place[a]] != pop[place[b]]) return pop[place[a]] > pop[place[b]];
    const uint32_t* flags = at<uint32_t>(kNameFlags);
    if ((flags[a] & kPrimary) != (flags[b] & kPrimary)) return flags[a] & kPrimary;
    return a < b;
  }
};

Gazetteer::Gazetteer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Gazetteer::Gazetteer(Gazetteer&&) noexcept = default;
Gazetteer& Gazetteer::operator=(Gazetteer&&) noexcept = default;
Gazetteer::~Gazetteer() = default;

Gazetteer::Gazetteer(const std::vector<Place>& places, const std::vector<std::vector<AlternateName>>& alternates,
                     const std::vector<std::string>& source_names, bool all_scripts)
    : impl_(std::make_unique<Impl>()) {
  if (places.size() >= std::numeric_limits<uint32_t>::max()) throw Error("gazetteer: too many places for one index");
  std::vector<std::string> sec(kSectionCount);
  StringTable meta, place_name, place_kind, name_text, name_norm, name_note;
  std::vector<int64_t> ids, population;
  std::vector<double> lonlat;
  std::vector<uint32_t> name_place, name_flags;
  std::vector<uint8_t> name_length;
  std::vector<std::pair<uint64_t, uint32_t>> gram_pairs;
  std::string date;
  std::unordered_set<std::string> seen;
  for (size_t k = 0; k < places.size(); ++k) {
    const Place& p = places[k];
    ids.push_back(p.id), population.push_back(p.population);
    lonlat.push_back(p.lon), lonlat.push_back(p.lat);
    place_name.add(p.name);
    place_kind.add(p.feature_class + "\t" + p.feature_code + "\t" + p.country + (p.geonames ? "\tgeonames" : ""));
    date = std::max(date, p.modified);
    // The place's names, one a normalised form: the primary name first; a form written several ways
    // keeps the first way and takes the notes (language, historic, period) of the first that has any.
    struct Entry {
      std::string text, norm, note;
      uint32_t flags;
    };
    std::vector<Entry> entries;
    seen.clear();
    auto add = [&](const std::string& text, uint32_t flags, const std::string& note) {
      std::string norm = search::normalize(text);
      if (norm.empty() || (!all_scripts && !latin(norm))) return;
      if (!seen.insert(norm).second) {
        for (Entry& e : entries)
          if (e.norm == norm && e.note.empty() && !note.empty()) e.note = note, e.flags = (e.flags & kPrimary) | flags;
        return;
      }
      entries.push_back({text, std::move(norm), note, flags});
    };
    add(p.name, kPrimary, "");
    if (k < alternates.size())
      for (const AlternateName& a : alternates[k]) {
        const uint32_t flags = (a.historic ? kHistoric : 0) | (a.colloquial ? kColloquial : 0) | (a.short_name ? kShort : 0) |
                               (a.preferred ? kPreferred : 0);
        const bool noted = !a.language.empty() || !a.from.empty() || !a.to.empty() || flags != 0;
        add(a.text, flags, noted ? a.language + "\t" + a.from + "\t" + a.to : "");
      }
    for (const Entry& e : entries) {
      if (name_place.size() >= std::numeric_limits<uint32_t>::max() - 1) throw Error("gazetteer: too many names for one index");
      const uint32_t id = static_cast<uint32_t>(name_place.size());
      name_text.add(e.text), name_norm.add(e.norm), name_note.add(e.note);
      name_place.push_back(static_cast<uint32_t>(k)), name_flags.push_back(e.flags);
      const std::u32string code_points = utf8_decode(e.norm);
      name_length.push_back(static_cast<uint8_t>(std::min<size_t>(code_points.size(), 255)));
      for (uint64_t g : search::grams(code_points)) gram_pairs.emplace_back(g, id);
    }
  }
  if (!date.empty()) meta.add("date=" + date);
  for (const std::string& s : source_names) meta.add("source=" + s);
  std::vector<uint32_t> order(name_place.size());
  std::iota(order.begin(), order.end(), 0u);
  {
    std::vector<std::string_view> norm(order.size());
    for (size_t i = 0; i < order.size(); ++i)
      norm[i] = std::string_view(name_norm.bytes).substr(name_norm.off[i], name_norm.off[i + 1] - name_norm.off[i]);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (norm[a] != norm[b]) return norm[a] < norm[b];
      const int64_t pa = population[name_place[a]], pb = population[name_place[b]];
      if (pa != pb) return pa > pb;
      if ((name_flags[a] & kPrimary) != (name_flags[b] & kPrimary)) return (name_flags[a] & kPrimary) != 0;
      return a < b;
    });
  }
  const search::TrigramArrays tg = search::trigram_arrays(std::move(gram_pairs), &name_length);
  sec[kMetaOff] = raw_bytes(meta.off), sec[kMetaBytes] = meta.bytes;
  sec[kPlaceId] = raw_bytes(ids), sec[kPlaceLonLat] = raw_bytes(lonlat), sec[kPlacePopulation] = raw_bytes(population);
  sec[kPlaceNameOff] = raw_bytes(place_name.off), sec[kPlaceNameBytes] = place_name.bytes;
  sec[kPlaceKindOff] = raw_bytes(place_kind.off), sec[kPlaceKindBytes] = place_kind.bytes;
  sec[kNameTextOff] = raw_bytes(name_text.off), sec[kNameTextBytes] = name_text.bytes;
  sec[kNameNormOff] = raw_bytes(name_norm.off), sec[kNameNormBytes] = name_norm.bytes;
  sec[kNamePlace] = raw_bytes(name_place), sec[kNameFlags] = raw_bytes(name_flags);
  sec[kNameNoteOff] = raw_bytes(name_note.off), sec[kNameNoteBytes] = name_note.bytes;
  sec[kNormOrder] = raw_bytes(order);
  sec[kGramKeys] = raw_bytes(tg.keys), sec[kGramBegin] = raw_bytes(tg.begin), sec[kPostings] = raw_bytes(tg.postings);
  sec[kNameLength] = raw_bytes(name_length);
  impl_->file = SectionFile::own(section_file_bytes(kMagic, kVersion, sec), kMagic, kVersion, kSectionCount, "gazetteer in memory", kWhat,
                                 kRemedy);
  impl_->check();
}

Gazetteer Gazetteer::build(const GazetteerSources& s, const std::function<void(const std::string&)>& progress) {
  std::vector<Place> places;
  std::vector<std::vector<AlternateName>> alternates;
  std::unordered_map<int64_t, uint32_t> by_id;
  std::vector<std::string> source_names;
  size_t rows = 0;
  const auto tick = [&](const std::string& path) {
    if (progress && ++rows % 500000 == 0) progress(path + ": " + std::to_string(rows) + " rows read");
  };
  for (const std::string& path : s.geonames) {
    source_names.push_back(path);
    read_geonames(path, [&](Place&& p, std::vector<std::string>&& names) {
      tick(path);
      if (!by_id.emplace(p.id, static_cast<uint32_t>(places.size())).second) return;  // a place in two files: the first
      places.push_back(std::move(p));
      alternates.emplace_back();
      for (std::string& n : names) alternates.back().push_back(AlternateName{std::move(n), "", false, false, false, false, "", ""});
    });
  }
  for (const std::string& path : s.tables) {
    source_names.push_back(path);
    for (Place& p : read_places_table(path)) {
      places.push_back(std::move(p));
      alternates.emplace_back();
    }
  }
  for (const std::string& path : s.alternate_names) {
    source_names.push_back(path);
    if (s.geonames.empty()) throw Error(path + ": alternate names need the GeoNames dump they name (--geonames)");
    read_alternate_names(path, [&](int64_t id, AlternateName&& a) {
      tick(path);
      const auto it = by_id.find(id);
      if (it == by_id.end()) return;  // a place of another file
      auto& list = alternates[it->second];
      // The dump's own alternatenames column holds the same names without their notes: replaced.
      const auto same = std::find_if(list.begin(), list.end(), [&](const AlternateName& b) { return b.text == a.text && b.language.empty(); });
      if (same != list.end()) *same = std::move(a);
      else list.push_back(std::move(a));
    });
  }
  if (places.empty()) throw Error("gazetteer: no places read (give --geonames or --places files that hold some)");
  if (progress) progress(std::to_string(places.size()) + " places read; indexing their names");
  return Gazetteer(places, alternates, source_names, s.all_scripts);
}

bool Gazetteer::is_gazetteer_file(const std::string& path) { return SectionFile::starts_with(path, kMagic); }

Gazetteer Gazetteer::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->file = SectionFile::map(path, kMagic, kVersion, kSectionCount, kWhat, kRemedy);
  impl->check();
  return Gazetteer(std::move(impl));
}

void Gazetteer::save(const std::string& path) const { write_file_atomic(path, std::string(impl_->file.data(), impl_->file.size())); }

size_t Gazetteer::size() const { return impl_->places; }
size_t Gazetteer::name_count() const { return impl_->names; }
size_t Gazetteer::bytes() const { return impl_->file.size(); }

Place Gazetteer::place(uint32_t k) const {
  const Impl& m = *impl_;
  if (k >= m.places) throw Error("gazetteer: no place " + std::to_string(k));
  Place p;
  p.id = m.at<int64_t>(kPlaceId)[k];
  p.lon = m.at<double>(kPlaceLonLat)[2 * k], p.lat = m.at<double>(kPlaceLonLat)[2 * k + 1];
  p.population = m.at<int64_t>(kPlacePopulation)[k];
  p.name = m.string(kPlaceNameOff, kPlaceNameBytes, k);
  const std::vector<std::string> kind = split(m.string(kPlaceKindOff, kPlaceKindBytes, k), '\t');
  if (kind.size() >= 3) p.feature_class = kind[0], p.feature_code = kind[1], p.country = kind[2];
  p.geonames = kind.size() == 4 && kind[3] == "geonames";  // an index built before the mark: its places read as a user's
  return p;
}

std::vector<uint32_t> Gazetteer::places_within(double west, double south, double east, double north) const {
  const Impl& m = *impl_;
  const double* ll = m.at<double>(kPlaceLonLat);
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < m.places; ++k) {
    const double lon = ll[2 * k], lat = ll[2 * k + 1];
    if (lat < south || lat > north) continue;
    if (west <= east ? lon >= west && lon <= east : lon >= west || lon <= east) out.push_back(k);
  }
  return out;
}

PlaceName Gazetteer::name(uint32_t k) const {
  const Impl& m = *impl_;
  if (k >= m.names) throw Error("gazetteer: no name " + std::to_string(k));
  PlaceName n;
  n.text = m.string(kNameTextOff, kNameTextBytes, k);
  n.normalized = m.string(kNameNormOff, kNameNormBytes, k);
  n.place = m.at<uint32_t>(kNamePlace)[k];
  const uint32_t f = m.at<uint32_t>(kNameFlags)[k];
  n.primary = f & kPrimary;
  n.about.historic = f & kHistoric, n.about.colloquial = f & kColloquial, n.about.short_name = f & kShort, n.about.preferred = f & kPreferred;
  const std::string note = m.string(kNameNoteOff, kNameNoteBytes, k);
  if (!note.empty()) {
    const std::vector<std::string> parts = split(note, '\t');
    n.about.language = parts[0];
    if (parts.size() == 3) n.about.from = parts[1], n.about.to = parts[2];
  }
  n.about.text = n.text;
  return n;
}

namespace {
std::vector<std::string> meta_lines(const SectionFile& f) {
  std::vector<std::string> out;
  const size_t n = f.count<uint64_t>(kMetaOff) - 1;
  for (size_t i = 0; i < n; ++i) out.push_back(f.string(kMetaOff, kMetaBytes, i));
  return out;
}
}  // namespace

std::string Gazetteer::data_date() const {
  for (const std::string& s : meta_lines(impl_->file))
    if (s.rfind("date=", 0) == 0) return s.substr(5);
  return "";
}

std::vector<std::string> Gazetteer::sources() const {
  std::vector<std::string> out;
  for (const std::string& s : meta_lines(impl_->file))
    if (s.rfind("source=", 0) == 0) out.push_back(s.substr(7));
  return out;
}

std::vector<NameMatch> Gazetteer::exact(const std::string& normalized) const {
  const Impl& m = *impl_;
  const uint32_t* order = m.at<uint32_t>(kNormOrder);
  const auto norm = [&](uint32_t id) { return m.view(kNameNormOff, kNameNormBytes, id); };
  const auto lo = std::lower_bound(order, order + m.names, normalized, [&](uint32_t id, const std::string& q) { return norm(id) < q; });
  std::vector<NameMatch> out;
  const uint32_t* place = m.at<uint32_t>(kNamePlace);
  for (const uint32_t* it = lo; it != order + m.names && norm(*it) == normalized; ++it) out.push_back({place[*it], *it, 0});
  return out;
}

std::vector<NameMatch> Gazetteer::find(const std::string& text, int max_edits, size_t limit) const {
  const Impl& m = *impl_;
  const std::string normalized = search::normalize(text);
  const std::u32string q = utf8_decode(normalized);
  if (q.empty()) return {};
  const uint32_t k = static_cast<uint32_t>(max_edits >= 0 ? max_edits : search::auto_max_edits(q.size()));
  std::vector<NameMatch> out = exact(normalized);
  if (k > 0) {
    const std::vector<uint64_t> g = search::gram_occurrences(q);
    const long need = static_cast<long>(g.size()) - 3 * static_cast<long>(k);
    std::vector<uint32_t> candidates;
    if (need >= 1) {
      thread_local std::vector<uint16_t> counts;
      // Only names whose length lies within k of the query's can be within k edits of it.
      const uint8_t* lengths = m.at<uint8_t>(kNameLength);
      const uint32_t* postings = m.at<uint32_t>(kPostings);
      const size_t lo = q.size() > k ? q.size() - k : 0, hi = q.size() + k;
      const auto narrow = [&](uint64_t b, uint64_t e) {
        const uint32_t* first = std::partition_point(postings + b, postings + e, [&](uint32_t id) { return id < m.names && lengths[id] < lo; });
        const uint32_t* last = std::partition_point(first, postings + e, [&](uint32_t id) { return id < m.names && lengths[id] <= hi; });
        return std::pair<uint64_t, uint64_t>{static_cast<uint64_t>(first - postings), static_cast<uint64_t>(last - postings)};
      };
      candidates = search::trigram_candidates(g, need, k, m.at<uint64_t>(kGramKeys), m.count<uint64_t>(kGramKeys), m.at<uint64_t>(kGramBegin),
                                              postings, m.names, counts, [&](const std::string& why) { m.file.corrupt(why); }, narrow);
    } else {  // a query too short for the filter: every name of a length within k
      candidates.resize(m.names);
      std::iota(candidates.begin(), candidates.end(), 0u);
    }
    const search::BitPattern pattern(q);
    const search::LetterSet letters = search::letter_set(normalized.data(), normalized.size());
    std::vector<uint32_t> exact_ids;
    for (const NameMatch& x : out) exact_ids.push_back(x.name);
    std::sort(exact_ids.begin(), exact_ids.end());
    std::u32string name;
    const uint32_t* place = m.at<uint32_t>(kNamePlace);
    // The candidates' offsets and bytes lie anywhere in the mapped file: each is fetched ahead (the
    // offsets 16 candidates ahead, the bytes 8 ahead), so that the misses overlap instead of queueing.
    const uint64_t* offsets = m.at<uint64_t>(kNameNormOff);
    const char* bytes = m.file.section(kNameNormBytes).data;
    for (size_t c = 0; c < candidates.size(); ++c) {
      if (c + 16 < candidates.size()) __builtin_prefetch(offsets + candidates[c + 16]);
      if (c + 8 < candidates.size()) __builtin_prefetch(bytes + offsets[candidates[c + 8]]);
      const uint32_t id = candidates[c];
      const std::string_view v = m.view(kNameNormOff, kNameNormBytes, id);
      if (v.size() + k < q.size() || std::binary_search(exact_ids.begin(), exact_ids.end(), id)) continue;  // too short (bytes >= code points); found above
      if (search::too_far_by_letters(letters, search::letter_set(v.data(), v.size()), k)) continue;
      search::decode_into(v.data(), v.size(), name);
      const uint32_t e = search::bounded_distance(q, pattern, name.data(), name.size(), k);
      if (e <= k) out.push_back({place[id], id, e});
    }
  }
  std::stable_sort(out.begin(), out.end(), [&](const NameMatch& a, const NameMatch& b) {
    if (a.edits != b.edits) return a.edits < b.edits;
    return m.better(a.name, b.name);
  });
  // One match a place: its closest name.
  std::unordered_set<uint32_t> places;
  out.erase(std::remove_if(out.begin(), out.end(), [&](const NameMatch& x) { return !places.insert(x.place).second; }), out.end());
  if (limit > 0 && out.size() > limit) out.resize(limit);
  return out;
}

std::string default_gazetteer(const std::string& exe_dir, const std::string& option) {
  if (const char* env = std::getenv("LIGHT_GAZETTEER"); env && *env) return env;
  for (const std::string& dir : bundled_folder_candidates(exe_dir, "../gazetteers/cities500"))
    if (std::filesystem::exists(dir + "/cities500.gaz")) return dir + "/cities500.gaz";
  throw Error(option + ": none given and the default (gazetteers/cities500/cities500.gaz) is not built; run `bash "
              "scripts/fetch-gazetteer.sh` or give an index made by `light gazetteer build`");
}

}  // namespace light::geo
