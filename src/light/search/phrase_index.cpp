#include "light/search/phrase_index.h"


#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "light/error.h"
#include "light/util/json.h"
#include "light/search/normalize.h"
#include "light/search/trigrams.h"
#include "light/util/section_file.h"
#include "light/util/fs.h"
#include "light/util/utf8.h"

namespace light::search {

std::string Phrase::text() const {
  std::string out;
  for (const PhraseWord& w : words)
    if (!w.text.empty()) out += (out.empty() ? "" : " ") + w.text;
  return out;
}

int auto_max_edits(size_t length) { return static_cast<int>(std::min<size_t>(3, length / 4)); }

// ---------------------------------------------------------------------------------------------
// The index's bytes: a section file (util/section_file.h), built in memory and mapped from a file.
// ---------------------------------------------------------------------------------------------
namespace {

constexpr char kMagic[8] = {'L', 'I', 'G', 'H', 'T', 'S', 'I', 'X'};
constexpr uint32_t kVersion = 1;
constexpr const char* kRemedy = "build it again with `light search --index`";

enum Section : uint32_t {
  kSourceOff, kSourceBytes, kSourceMeta,  // sources: paths, (size, mtime) pairs
  kFileOff, kFileBytes,                    // distinct phrase files
  kImageOff, kImageBytes,                  // distinct images
  kPhraseRefs,                             // u32 x 3 a phrase: file, image, group
  kPhraseWordBegin,                        // u32[n + 1] into words
  kNormOff, kNormBytes,                    // normalised texts
  kLonLat,                                 // f64 x 2 a phrase (NaN: none)
  kWordTextOff, kWordTextBytes,            // word texts
  kWordPointBegin,                         // u64[words + 1] into points
  kPoints,                                 // f32 x 2 a vertex
  kGramKeys, kGramBegin, kPostings,        // trigram -> phrases
  kSectionCount
};

}  // namespace

struct PhraseIndex::Impl {
  SectionFile file;
  size_t n = 0;
  mutable std::vector<uint16_t> counts;
  mutable size_t last_candidates = 0;

  template <typename T>
  const T* at(Section k) const {
    return file.at<T>(k);
  }
  template <typename T>
  size_t count(Section k) const {
    return file.count<T>(k);
  }
  std::string string(Section off, Section bytes, size_t i) const { return file.string(off, bytes, i); }
  [[noreturn]] void corrupt(const std::string& what) const { file.corrupt(what); }

  // Checks that the sections fit together.
  void check() {
    auto table_ok = [&](Section off, Section bytes, size_t items) { file.check_string_table(off, bytes, items); };
    n = count<uint32_t>(kPhraseRefs) / 3;
    const size_t sources = count<uint64_t>(kSourceOff) - (count<uint64_t>(kSourceOff) > 0 ? 1 : 0);
    table_ok(kSourceOff, kSourceBytes, sources);
    if (count<uint64_t>(kSourceMeta) != 2 * sources) corrupt("source sizes");
    const size_t files = count<uint64_t>(kFileOff) - 1, images = count<uint64_t>(kImageOff) - 1;
    table_ok(kFileOff, kFileBytes, files);
    table_ok(kImageOff, kImageBytes, images);
    table_ok(kNormOff, kNormBytes, n);
    if (count<uint32_t>(kPhraseWordBegin) != n + 1 || count<double>(kLonLat) != 2 * n) corrupt("phrase tables");
    const uint32_t* refs = at<uint32_t>(kPhraseRefs);
    for (size_t i = 0; i < n; ++i)
      if (refs[3 * i] >= files || refs[3 * i + 1] >= images) corrupt("phrase references");
    const uint32_t* wb = at<uint32_t>(kPhraseWordBegin);
    const size_t words = count<uint64_t>(kWordTextOff) - 1;
    for (size_t i = 0; i < n; ++i)
      if (wb[i] > wb[i + 1]) corrupt("word ranges");
    if (wb[0] != 0 || wb[n] != words) corrupt("word ranges");
    table_ok(kWordTextOff, kWordTextBytes, words);
    if (count<uint64_t>(kWordPointBegin) != words + 1) corrupt("point ranges");
    const uint64_t* pb = at<uint64_t>(kWordPointBegin);
    // pb[words] * 2 could wrap around 64 bits for a crafted file: compared by division first.
    if (pb[0] != 0 || pb[words] > count<float>(kPoints) / 2 || pb[words] * 2 != count<float>(kPoints)) corrupt("point ranges");
    for (size_t i = 0; i < words; ++i)
      if (pb[i] > pb[i + 1]) corrupt("point ranges");
    const size_t g = count<uint64_t>(kGramKeys);
    if (count<uint64_t>(kGramBegin) != g + 1) corrupt("trigram table");
    const uint64_t* gb = at<uint64_t>(kGramBegin);
    if (gb[0] != 0 || gb[g] != count<uint32_t>(kPostings)) corrupt("trigram table");
    for (size_t i = 0; i < g; ++i)
      if (gb[i] > gb[i + 1]) corrupt("trigram table");
    counts.clear();
  }
};

PhraseIndex::PhraseIndex(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PhraseIndex::PhraseIndex(PhraseIndex&&) noexcept = default;
PhraseIndex& PhraseIndex::operator=(PhraseIndex&&) noexcept = default;
PhraseIndex::~PhraseIndex() = default;

PhraseIndex::PhraseIndex(const std::vector<Phrase>& phrases, const std::vector<Source>& sources) : impl_(std::make_unique<Impl>()) {
  std::vector<std::string> sec(kSectionCount);
  StringTable src, files, images, norm, wtext;
  std::vector<uint64_t> src_meta;
  for (const Source& so : sources) {
    src.add(so.path);
    src_meta.push_back(so.size);
    src_meta.push_back(static_cast<uint64_t>(so.mtime_ns));
  }
  std::unordered_map<std::string, uint32_t> file_id, image_id;
  auto id = [](std::unordered_map<std::string, uint32_t>& ids, StringTable& t, const std::string& s) {
    const auto [it, added] = ids.emplace(s, static_cast<uint32_t>(ids.size()));
    if (added) t.add(s);
    return it->second;
  };
  std::vector<uint32_t> refs, word_begin{0};
  std::vector<double> lonlat;
  std::vector<uint64_t> point_begin{0};
  std::vector<float> points;
  std::vector<std::pair<uint64_t, uint32_t>> gram_pairs;
  if (phrases.size() >= std::numeric_limits<uint32_t>::max()) throw Error("search: too many phrases for one index");
  for (size_t k = 0; k < phrases.size(); ++k) {
    const Phrase& p = phrases[k];
    refs.push_back(id(file_id, files, p.file));
    refs.push_back(id(image_id, images, p.image));
    refs.push_back(p.group);
    for (const PhraseWord& w : p.words) {
      wtext.add(w.text);
      for (const maptext::Point& v : w.vertices) points.push_back(static_cast<float>(v.x)), points.push_back(static_cast<float>(v.y));
      point_begin.push_back(points.size() / 2);
    }
    word_begin.push_back(static_cast<uint32_t>(point_begin.size() - 1));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    lonlat.push_back(p.lonlat ? p.lonlat->x : nan);
    lonlat.push_back(p.lonlat ? p.lonlat->y : nan);
    const std::string n = normalize(p.text());
    norm.add(n);
    for (uint64_t g : grams(utf8_decode(n))) gram_pairs.emplace_back(g, static_cast<uint32_t>(k));
  }
  const TrigramArrays tg = trigram_arrays(std::move(gram_pairs));
  sec[kSourceOff] = raw_bytes(src.off), sec[kSourceBytes] = src.bytes, sec[kSourceMeta] = raw_bytes(src_meta);
  sec[kFileOff] = raw_bytes(files.off), sec[kFileBytes] = files.bytes;
  sec[kImageOff] = raw_bytes(images.off), sec[kImageBytes] = images.bytes;
  sec[kPhraseRefs] = raw_bytes(refs), sec[kPhraseWordBegin] = raw_bytes(word_begin);
  sec[kNormOff] = raw_bytes(norm.off), sec[kNormBytes] = norm.bytes;
  sec[kLonLat] = raw_bytes(lonlat);
  sec[kWordTextOff] = raw_bytes(wtext.off), sec[kWordTextBytes] = wtext.bytes;
  sec[kWordPointBegin] = raw_bytes(point_begin), sec[kPoints] = raw_bytes(points);
  sec[kGramKeys] = raw_bytes(tg.keys), sec[kGramBegin] = raw_bytes(tg.begin), sec[kPostings] = raw_bytes(tg.postings);
  impl_->file = SectionFile::own(section_file_bytes(kMagic, kVersion, sec), kMagic, kVersion, kSectionCount, "index in memory",
                                 "light search index", kRemedy);
  impl_->check();
}

bool PhraseIndex::is_index_file(const std::string& path) { return SectionFile::starts_with(path, kMagic); }

PhraseIndex PhraseIndex::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->file = SectionFile::map(path, kMagic, kVersion, kSectionCount, "light search index", kRemedy);
  impl->check();
  return PhraseIndex(std::move(impl));
}

void PhraseIndex::save(const std::string& path) const { write_file_atomic(path, std::string(impl_->file.data(), impl_->file.size())); }

size_t PhraseIndex::size() const { return impl_->n; }
size_t PhraseIndex::bytes() const { return impl_->file.size(); }
size_t PhraseIndex::last_candidates() const { return impl_->last_candidates; }

std::string PhraseIndex::normalized(uint32_t k) const {
  if (k >= impl_->n) throw Error("search: no phrase " + std::to_string(k));
  return impl_->string(kNormOff, kNormBytes, k);
}

Phrase PhraseIndex::phrase(uint32_t k) const {
  const Impl& m = *impl_;
  if (k >= m.n) throw Error("search: no phrase " + std::to_string(k));
  Phrase p;
  const uint32_t* refs = m.at<uint32_t>(kPhraseRefs);
  p.file = m.string(kFileOff, kFileBytes, refs[3 * k]);
  p.image = m.string(kImageOff, kImageBytes, refs[3 * k + 1]);
  p.group = refs[3 * k + 2];
  const uint32_t* wb = m.at<uint32_t>(kPhraseWordBegin);
  const uint64_t* pb = m.at<uint64_t>(kWordPointBegin);
  const float* pts = m.at<float>(kPoints);
  for (uint32_t w = wb[k]; w < wb[k + 1]; ++w) {
    PhraseWord word;
    word.text = m.string(kWordTextOff, kWordTextBytes, w);
    for (uint64_t v = pb[w]; v < pb[w + 1]; ++v) word.vertices.push_back({pts[2 * v], pts[2 * v + 1]});
    p.words.push_back(std::move(word));
  }
  const double* ll = m.at<double>(kLonLat);
  if (!std::isnan(ll[2 * k])) p.lonlat = maptext::Point{ll[2 * k], ll[2 * k + 1]};
  return p;
}

std::vector<PhraseIndex::Source> PhraseIndex::sources() const {
  const Impl& m = *impl_;
  std::vector<Source> out;
  const size_t n = m.count<uint64_t>(kSourceMeta) / 2;
  const uint64_t* meta = m.at<uint64_t>(kSourceMeta);
  for (size_t i = 0; i < n; ++i) out.push_back({m.string(kSourceOff, kSourceBytes, i), meta[2 * i], static_cast<int64_t>(meta[2 * i + 1])});
  return out;
}

std::vector<Match> PhraseIndex::find(const std::string& query, const FindOptions& opt) const {
  const Impl& m = *impl_;
  const std::u32string q = utf8_decode(normalize(query));
  m.last_candidates = 0;
  if (q.empty()) return {};
  const uint32_t k = static_cast<uint32_t>(opt.max_edits >= 0 ? opt.max_edits : auto_max_edits(q.size()));
  // Count filter: a text within k edits of the query (or holding a run of words that is) keeps at
  // least |G| - 3k of the query's trigram occurrences G, an edit touching at most three of them.
  const std::vector<uint64_t> g = gram_occurrences(q);
  const long need = static_cast<long>(g.size()) - 3 * static_cast<long>(k);
  std::vector<uint32_t> candidates;
  if (need >= 1) {
    candidates = trigram_candidates(g, need, k, m.at<uint64_t>(kGramKeys), m.count<uint64_t>(kGramKeys), m.at<uint64_t>(kGramBegin),
                                    m.at<uint32_t>(kPostings), m.n, m.counts, [&](const std::string& why) { m.corrupt(why); });
    // (in any order: the matches are sorted, ties by phrase index)
  } else {
    candidates.resize(m.n);
    for (size_t i = 0; i < m.n; ++i) candidates[i] = static_cast<uint32_t>(i);
  }
  m.last_candidates = candidates.size();
  std::vector<Match> out;
  const uint64_t* off = m.at<uint64_t>(kNormOff);
  const char* bytes = m.file.section(kNormBytes).data;
  const BitPattern pattern(q);
  std::u32string text;
  std::vector<size_t> starts, ends;
  for (uint32_t id : candidates) {
    decode_into(bytes + off[id], off[id + 1] - off[id], text);
    Match best;
    best.phrase = id;
    best.edits = k + 1;
    auto distance = [&](size_t begin, size_t len, uint32_t bound) { return bounded_distance(q, pattern, text.data() + begin, len, bound); };
    const uint32_t whole = distance(0, text.size(), k);
    if (whole <= k) {
      best.edits = whole, best.whole = true, best.first_word = 0;
      best.last_word = static_cast<uint32_t>(std::count(text.begin(), text.end(), U' '));
      best.distance = static_cast<double>(whole) / static_cast<double>(std::max(q.size(), text.size()));
    } else if (opt.parts && text.size() + k >= q.size() && text.find(U' ') != std::u32string::npos) {
      // Runs of consecutive words: they start after a space and end before one.
      starts.assign(1, 0), ends.clear();
      for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == U' ') ends.push_back(i), starts.push_back(i + 1);
      ends.push_back(text.size());
      for (size_t a = 0; a < starts.size(); ++a)
        // From the first run long enough (found by bisection: a long phrase against a long query
        // would otherwise walk every word between), to the last not too long.
        for (size_t b = static_cast<size_t>(std::lower_bound(ends.begin() + static_cast<long>(a), ends.end(), starts[a] + (q.size() > k ? q.size() - k : 0)) - ends.begin());
             b < ends.size(); ++b) {
          if (a == 0 && b + 1 == ends.size()) continue;  // the whole phrase, done above
          const size_t len = ends[b] - starts[a];
          if (len + k < q.size()) continue;
          if (len > q.size() + k) break;
          const uint32_t e = distance(starts[a], len, std::min(k, best.edits));
          const double d = static_cast<double>(e) / static_cast<double>(std::max(q.size(), len));
          if (e <= k && (e < best.edits || (e == best.edits && d < best.distance))) {
            best.edits = e, best.whole = false, best.first_word = static_cast<uint32_t>(a), best.last_word = static_cast<uint32_t>(b);
            best.distance = d;
          }
        }
    }
    if (best.edits <= k) out.push_back(best);
  }
  std::stable_sort(out.begin(), out.end(), [](const Match& a, const Match& b) {
    if (a.edits != b.edits) return a.edits < b.edits;
    if (a.whole != b.whole) return a.whole;
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.phrase < b.phrase;
  });
  if (opt.limit > 0 && out.size() > opt.limit) out.resize(opt.limit);
  return out;
}

}  // namespace light::search
