#include "light/search/phrase_index.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
// The index's bytes: a header, a table of sections (offset, size) and the sections, each 8-aligned.
// The same bytes are built in memory and mapped from a file.
// ---------------------------------------------------------------------------------------------
namespace {

constexpr char kMagic[8] = {'L', 'I', 'G', 'H', 'T', 'S', 'I', 'X'};
constexpr uint32_t kVersion = 1;

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

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t sections;
};

struct StringTable {
  std::vector<uint64_t> off{0};
  std::string bytes;
  void add(const std::string& s) {
    bytes += s;
    off.push_back(bytes.size());
  }
};

template <typename T>
std::string raw(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

uint64_t gram_key(char32_t a, char32_t b, char32_t c) {
  return (static_cast<uint64_t>(a) << 42) | (static_cast<uint64_t>(b) << 21) | static_cast<uint64_t>(c);
}

// The distinct trigrams of " text " (code points).
std::vector<uint64_t> grams(const std::u32string& text) {
  const std::u32string p = U" " + text + U" ";
  std::vector<uint64_t> out;
  for (size_t i = 0; i + 2 < p.size(); ++i) out.push_back(gram_key(p[i], p[i + 1], p[i + 2]));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Levenshtein distance, or k + 1 once it is sure to exceed k.
uint32_t bounded_levenshtein(const std::u32string& a, const char32_t* b, size_t nb, uint32_t k) {
  // Ukkonen's band: only cells within k of the diagonal can hold a distance of at most k, so a row
  // costs 2k + 1 cells whatever the lengths (a query of thousands of characters against a long
  // phrase stays linear), and the rows stop once every cell of one exceeds k.
  const size_t na = a.size();
  if ((na > nb ? na - nb : nb - na) > k) return k + 1;
  const uint32_t inf = k + 1;
  thread_local std::vector<uint32_t> prev, cur;
  prev.assign(nb + 1, inf), cur.assign(nb + 1, inf);
  for (size_t j = 0; j <= std::min<size_t>(nb, k); ++j) prev[j] = static_cast<uint32_t>(j);
  for (size_t i = 1; i <= na; ++i) {
    const size_t lo = i > k ? i - k : 1, hi = std::min<size_t>(nb, i + k);
    cur[lo - 1] = lo == 1 ? std::min<uint32_t>(static_cast<uint32_t>(i), inf) : inf;
    uint32_t best = cur[lo - 1];
    for (size_t j = lo; j <= hi; ++j) {
      const uint32_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      cur[j] = std::min(v, inf);
      best = std::min(best, cur[j]);
    }
    if (hi + 1 <= nb) cur[hi + 1] = inf;
    if (best > k) return inf;
    std::swap(prev, cur);
  }
  return std::min(prev[nb], inf);
}

// Myers' bit-parallel edit distance (Myers 1999, in Hyyro's form for global distance) for a pattern
// of at most 64 code points: one pass over the text, a few word operations a character.
class BitPattern {
 public:
  explicit BitPattern(const std::u32string& p) : m_(p.size()) {
    if (!usable()) return;
    for (size_t i = 0; i < m_; ++i) {
      const uint64_t bit = uint64_t{1} << i;
      if (p[i] < 128) {
        ascii_[p[i]] |= bit;
      } else {
        auto it = std::find_if(other_.begin(), other_.end(), [&](const auto& e) { return e.first == p[i]; });
        if (it == other_.end()) other_.emplace_back(p[i], bit);
        else it->second |= bit;
      }
    }
  }
  bool usable() const { return m_ > 0 && m_ <= 64; }
  // The distance between the pattern and t[0, n), or bound + 1 when it is more than bound.
  uint32_t distance(const char32_t* t, size_t n, uint32_t bound) const {
    if ((m_ > n ? m_ - n : n - m_) > bound) return bound + 1;
    uint64_t pv = m_ == 64 ? ~uint64_t{0} : (uint64_t{1} << m_) - 1, mv = 0;
    const uint64_t last = uint64_t{1} << (m_ - 1);
    size_t score = m_;
    for (size_t j = 0; j < n; ++j) {
      const uint64_t eq = eq_of(t[j]);
      const uint64_t xv = eq | mv;
      const uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
      uint64_t ph = mv | ~(xh | pv);
      uint64_t mh = pv & xh;
      if (ph & last) ++score;
      else if (mh & last) --score;
      ph = (ph << 1) | 1;  // the top row D[0][j] = j
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      // The distance can fall by at most one a remaining character.
      if (score > bound + (n - 1 - j)) return bound + 1;
    }
    return score > bound ? bound + 1 : static_cast<uint32_t>(score);
  }

 private:
  uint64_t eq_of(char32_t c) const {
    if (c < 128) return ascii_[c];
    for (const auto& [ch, bits] : other_)
      if (ch == c) return bits;
    return 0;
  }
  size_t m_;
  uint64_t ascii_[128] = {};
  std::vector<std::pair<char32_t, uint64_t>> other_;
};

// UTF-8 (already validated when indexed) into `out`, reusing its storage; ASCII without a decoder.
void decode_into(const char* s, size_t n, std::u32string& out) {
  out.clear();
  bool ascii = true;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<unsigned char>(s[i]) >= 128) {
      ascii = false;
      break;
    }
    out.push_back(static_cast<char32_t>(s[i]));
  }
  if (!ascii) out = utf8_decode(std::string(s, n));
}

std::string section_bytes(const std::vector<std::string>& sections) {
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kVersion;
  h.sections = static_cast<uint32_t>(sections.size());
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  std::vector<uint64_t> table;
  uint64_t at = sizeof h + sections.size() * 16;
  for (const std::string& s : sections) {
    at = (at + 7) / 8 * 8;
    table.push_back(at);
    table.push_back(s.size());
    at += s.size();
  }
  out += raw(table);
  for (const std::string& s : sections) {
    out.resize((out.size() + 7) / 8 * 8, '\0');
    out += s;
  }
  return out;
}

}  // namespace

struct PhraseIndex::Impl {
  std::string owned;          // built in memory
  void* map = nullptr;        // or mapped from a file
  size_t map_size = 0;
  std::string source_name;    // for error messages
  const char* base = nullptr;
  size_t size = 0;
  struct View {
    const char* data = nullptr;
    size_t bytes = 0;
  } s[kSectionCount];
  size_t n = 0;
  mutable std::vector<uint16_t> counts;
  mutable size_t last_candidates = 0;

  ~Impl() {
    if (map) munmap(map, map_size);
  }

  template <typename T>
  const T* at(Section k) const {
    return reinterpret_cast<const T*>(s[k].data);
  }
  template <typename T>
  size_t count(Section k) const {
    return s[k].bytes / sizeof(T);
  }
  std::string string(Section off, Section bytes, size_t i) const {
    const uint64_t* o = at<uint64_t>(off);
    return std::string(s[bytes].data + o[i], o[i + 1] - o[i]);
  }

  [[noreturn]] void corrupt(const std::string& what) const {
    throw Error(source_name + ": not a light search index, or damaged (" + what + "); build it again with `light search --index`");
  }

  // Points the sections into base[0, size) and checks that they fit together.
  void attach(const char* data, size_t bytes) {
    base = data, size = bytes;
    if (size < sizeof(Header)) corrupt("shorter than its header");
    Header h;
    std::memcpy(&h, base, sizeof h);
    if (std::memcmp(h.magic, kMagic, 8) != 0) corrupt("no index signature");
    if (h.version != kVersion) corrupt("version " + std::to_string(h.version) + ", this light reads " + std::to_string(kVersion));
    if (h.sections != kSectionCount) corrupt("section count");
    if (size < sizeof h + 16 * kSectionCount) corrupt("cut short");
    const uint64_t* table = reinterpret_cast<const uint64_t*>(base + sizeof h);
    for (uint32_t k = 0; k < kSectionCount; ++k) {
      const uint64_t off = table[2 * k], len = table[2 * k + 1];
      if (off % 8 != 0 || off > size || len > size - off) corrupt("cut short");
      s[k] = {base + off, static_cast<size_t>(len)};
    }
    auto table_ok = [&](Section off, Section bytes, size_t items) {
      if (count<uint64_t>(off) != items + 1) corrupt("table sizes");
      const uint64_t* o = at<uint64_t>(off);
      if (o[0] != 0 || o[items] != s[bytes].bytes) corrupt("string offsets");
      for (size_t i = 0; i < items; ++i)
        if (o[i] > o[i + 1]) corrupt("string offsets");
    };
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
  std::sort(gram_pairs.begin(), gram_pairs.end());
  std::vector<uint64_t> keys, gram_begin;
  std::vector<uint32_t> postings;
  postings.reserve(gram_pairs.size());
  for (size_t i = 0; i < gram_pairs.size(); ++i) {
    if (i == 0 || gram_pairs[i].first != gram_pairs[i - 1].first) keys.push_back(gram_pairs[i].first), gram_begin.push_back(i);
    postings.push_back(gram_pairs[i].second);
  }
  gram_begin.push_back(gram_pairs.size());
  sec[kSourceOff] = raw(src.off), sec[kSourceBytes] = src.bytes, sec[kSourceMeta] = raw(src_meta);
  sec[kFileOff] = raw(files.off), sec[kFileBytes] = files.bytes;
  sec[kImageOff] = raw(images.off), sec[kImageBytes] = images.bytes;
  sec[kPhraseRefs] = raw(refs), sec[kPhraseWordBegin] = raw(word_begin);
  sec[kNormOff] = raw(norm.off), sec[kNormBytes] = norm.bytes;
  sec[kLonLat] = raw(lonlat);
  sec[kWordTextOff] = raw(wtext.off), sec[kWordTextBytes] = wtext.bytes;
  sec[kWordPointBegin] = raw(point_begin), sec[kPoints] = raw(points);
  sec[kGramKeys] = raw(keys), sec[kGramBegin] = raw(gram_begin), sec[kPostings] = raw(postings);
  impl_->owned = section_bytes(sec);
  impl_->source_name = "index in memory";
  impl_->attach(impl_->owned.data(), impl_->owned.size());
}

PhraseIndex PhraseIndex::open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->source_name = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(path + ": not a regular file");
  }
  impl->map_size = static_cast<size_t>(st.st_size);
  if (impl->map_size > 0) {
    void* m = mmap(nullptr, impl->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (m == MAP_FAILED) throw Error(path + ": cannot map: " + std::strerror(errno));
    impl->map = m;
  } else {
    ::close(fd);
  }
  impl->attach(static_cast<const char*>(impl->map), impl->map_size);
  return PhraseIndex(std::move(impl));
}

void PhraseIndex::save(const std::string& path) const { write_file_atomic(path, std::string(impl_->base, impl_->size)); }

size_t PhraseIndex::size() const { return impl_->n; }
size_t PhraseIndex::bytes() const { return impl_->size; }
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
  // least |G| - 3k of the query's distinct trigrams G, an edit touching at most three of them.
  const std::vector<uint64_t> g = grams(q);
  const long need = static_cast<long>(g.size()) - 3 * static_cast<long>(k);
  std::vector<uint32_t> candidates;
  if (need >= 1) {
    if (m.counts.size() != m.n) m.counts.assign(m.n, 0);
    const uint64_t* keys = m.at<uint64_t>(kGramKeys);
    const uint64_t* begin = m.at<uint64_t>(kGramBegin);
    const uint32_t* post = m.at<uint32_t>(kPostings);
    const size_t ng = m.count<uint64_t>(kGramKeys);
    std::vector<uint32_t> touched;
    for (uint64_t key : g) {
      const uint64_t* it = std::lower_bound(keys, keys + ng, key);
      if (it == keys + ng || *it != key) continue;
      const size_t at = static_cast<size_t>(it - keys);
      for (uint64_t p = begin[at]; p < begin[at + 1]; ++p) {
        const uint32_t id = post[p];
        if (id >= m.n) m.corrupt("posting out of range");
        if (m.counts[id]++ == 0) touched.push_back(id);
      }
    }
    for (uint32_t id : touched) {
      if (m.counts[id] >= need) candidates.push_back(id);
      m.counts[id] = 0;
    }
    // (in any order: the matches are sorted, ties by phrase index)
  } else {
    candidates.resize(m.n);
    for (size_t i = 0; i < m.n; ++i) candidates[i] = static_cast<uint32_t>(i);
  }
  m.last_candidates = candidates.size();
  std::vector<Match> out;
  const uint64_t* off = m.at<uint64_t>(kNormOff);
  const char* bytes = m.s[kNormBytes].data;
  const BitPattern pattern(q);
  std::u32string text;
  std::vector<size_t> starts, ends;
  for (uint32_t id : candidates) {
    decode_into(bytes + off[id], off[id + 1] - off[id], text);
    Match best;
    best.phrase = id;
    best.edits = k + 1;
    auto distance = [&](size_t begin, size_t len, uint32_t bound) {
      return pattern.usable() ? pattern.distance(text.data() + begin, len, bound) : bounded_levenshtein(q, text.data() + begin, len, bound);
    };
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

// ---------------------------------------------------------------------------------------------
// Linked files
// ---------------------------------------------------------------------------------------------
namespace {

using Json = nlohmann::json;

[[noreturn]] void bad(const std::string& path, const std::string& field, const std::string& expected) {
  throw Error(path + ": " + field + ": " + expected);
}

std::vector<maptext::Point> ring_points(const Json& ring, const std::string& path, const std::string& field) {
  if (!ring.is_array() || ring.size() < 3) bad(path, field, "expected a ring of at least 3 [x, y] positions");
  std::vector<maptext::Point> out;
  for (size_t i = 0; i < ring.size(); ++i) {
    const Json& p = ring[i];
    if (!p.is_array() || p.size() < 2 || !p[0].is_number() || !p[1].is_number())
      bad(path, field + "[" + std::to_string(i) + "]", "expected an [x, y] position of numbers");
    out.push_back({p[0].get<double>(), p[1].get<double>()});
  }
  if (out.size() > 3 && out.front().x == out.back().x && out.front().y == out.back().y) out.pop_back();  // closed ring
  return out;
}

std::vector<Phrase> geojson_phrases(const Json& fc, const std::string& path) {
  const Json* features = fc.contains("features") ? &fc["features"] : nullptr;
  if (!features || !features->is_array()) bad(path, "features", "expected an array of Features");
  std::vector<Phrase> out;
  std::map<std::string, uint32_t> seen;  // phrases so far per image
  for (size_t f = 0; f < features->size(); ++f) {
    const Json& feat = (*features)[f];
    const std::string at = "features[" + std::to_string(f) + "]";
    if (!feat.is_object()) bad(path, at, "expected a Feature object");
    const Json* props = feat.contains("properties") ? &feat["properties"] : nullptr;
    if (!props || !props->is_object()) bad(path, at + ".properties", "expected an object");
    if (!props->contains("image") || !(*props)["image"].is_string()) bad(path, at + ".properties.image", "expected the map's image key (a string)");
    if (!props->contains("words") || !(*props)["words"].is_array()) bad(path, at + ".properties.words", "expected an array of words");
    Phrase p;
    p.file = path;
    p.image = (*props)["image"].get<std::string>();
    p.group = seen[p.image]++;
    if (feat.contains("id") && feat["id"].is_string()) {
      const std::string id = feat["id"].get<std::string>();
      const size_t hash = id.rfind('#');
      if (hash != std::string::npos && hash + 1 < id.size() && id.find_first_not_of("0123456789", hash + 1) == std::string::npos &&
          id.size() - hash - 1 < 10)
        p.group = static_cast<uint32_t>(std::stoul(id.substr(hash + 1)));
    }
    const bool lonlat = props->contains("coordinates") && (*props)["coordinates"] == "lonlat";
    const Json* geom = feat.contains("geometry") ? &feat["geometry"] : nullptr;
    const Json* polys = geom && geom->is_object() && geom->contains("coordinates") ? &(*geom)["coordinates"] : nullptr;
    const Json& words = (*props)["words"];
    if (!polys || !polys->is_array() || polys->size() != words.size())
      bad(path, at + ".geometry.coordinates", "expected a MultiPolygon with one polygon a word");
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t w = 0; w < words.size(); ++w) {
      const std::string wat = at + ".properties.words[" + std::to_string(w) + "]";
      if (!words[w].is_object()) bad(path, wat, "expected a word object");
      PhraseWord word;
      if (words[w].contains("text")) {
        if (!words[w]["text"].is_string()) bad(path, wat + ".text", "expected a string");
        word.text = words[w]["text"].get<std::string>();
      }
      const Json& poly = (*polys)[w];
      const std::string pat = at + ".geometry.coordinates[" + std::to_string(w) + "]";
      if (!poly.is_array() || poly.empty()) bad(path, pat, "expected a polygon (an array of rings)");
      const std::vector<maptext::Point> ring = ring_points(poly[0], path, pat + "[0]");
      if (lonlat) {
        for (const auto& v : ring) x0 = std::min(x0, v.x), y0 = std::min(y0, v.y), x1 = std::max(x1, v.x), y1 = std::max(y1, v.y);
        if (words[w].contains("pixel_vertices")) word.vertices = ring_points(words[w]["pixel_vertices"], path, wat + ".pixel_vertices");
      } else {
        word.vertices = ring;
      }
      p.words.push_back(std::move(word));
    }
    if (lonlat && std::isfinite(x0)) p.lonlat = maptext::Point{(x0 + x1) / 2, (y0 + y1) / 2};
    out.push_back(std::move(p));
  }
  return out;
}

int64_t mtime_ns(const std::string& path, uint64_t* size) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) throw Error(path + ": cannot read: " + std::strerror(errno));
  if (size) *size = static_cast<uint64_t>(st.st_size);
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

}  // namespace

std::optional<std::vector<Phrase>> read_linked_phrases(const std::string& path) {
  const std::string text = read_file(path);
  const Json j = parse_json(text, path);  // a number past a double's range (1e400) is refused there, naming the file
  if (j.is_object() && j.contains("type") && j["type"] == "FeatureCollection") {
    // Not light's output (a spotter's words, another tool's features: no feature with an image key and
    // a words list): passed over, as a foreign .json is.
    const auto& features = j.contains("features") ? j["features"] : Json();
    if (features.is_array() && !features.empty() &&
        std::none_of(features.begin(), features.end(), [](const Json& f) {
          return f.is_object() && f.contains("properties") && f["properties"].is_object() && f["properties"].contains("words") &&
                 f["properties"].contains("image");
        }))
      return std::nullopt;
    return geojson_phrases(j, path);
  }
  if (!j.is_array()) return std::nullopt;
  maptext::ReadOptions ro;
  ro.kind = maptext::Kind::Predictions;
  const maptext::Dataset data = maptext::parse_maptext(text, path, ro);
  std::vector<Phrase> out;
  for (const maptext::Tile& tile : data)
    for (size_t g = 0; g < tile.groups.size(); ++g) {
      Phrase p;
      p.file = path;
      p.image = tile.image;
      p.group = static_cast<uint32_t>(g);
      for (const maptext::Word& w : tile.groups[g]) p.words.push_back({w.text.value_or(""), w.vertices});
      if (!p.words.empty()) out.push_back(std::move(p));
    }
  return out;
}

std::vector<std::string> linked_files(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": not a folder");
  std::set<std::string> found;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = it->path().extension().string();
    if (ext == ".json" || ext == ".geojson") found.insert(it->path().string());
  }
  if (ec) throw Error(dir + ": cannot list: " + ec.message());
  std::vector<std::string> out;
  for (const std::string& f : found) {
    const fs::path p(f);
    // x.json beside x.geojson: one linked output in two formats, searched once (the GeoJSON, which
    // may hold longitude/latitude), unless the GeoJSON holds no phrase of light's.
    const std::string twin = (p.parent_path() / p.stem()).string() + ".geojson";
    if (p.extension() == ".json" && found.count(twin)) {
      std::optional<std::vector<Phrase>> g;
      try {
        g = read_linked_phrases(twin);
      } catch (const Error&) {
      }
      if (g && !g->empty()) continue;
    }
    out.push_back(f);
  }
  return out;
}

PhraseIndex build_folder_index(const std::string& dir, std::vector<std::string>* notes) {
  std::vector<Phrase> phrases;
  std::vector<PhraseIndex::Source> sources;
  for (const std::string& f : linked_files(dir)) {
    PhraseIndex::Source s;
    s.path = f;
    s.mtime_ns = mtime_ns(f, &s.size);
    auto got = read_linked_phrases(f);
    if (!got) {
      if (notes) notes->push_back(f + ": not linked output (neither a MapText list nor a GeoJSON FeatureCollection); passed over");
      continue;
    }
    sources.push_back(s);
    for (Phrase& p : *got) phrases.push_back(std::move(p));
  }
  if (sources.empty()) throw Error(dir + ": no linked file (*.json, *.geojson) in it");
  return PhraseIndex(phrases, sources);
}

PhraseIndex open_for_search(const std::string& in, std::vector<std::string>* notes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(in, ec)) {
    const std::string saved = (fs::path(in) / kIndexFileName).string();
    std::optional<PhraseIndex> opened;
    if (fs::exists(saved, ec)) {
      try {
        opened.emplace(PhraseIndex::open(saved));
      } catch (const Error& e) {
        if (notes) notes->push_back(std::string(e.what()) + "; searching the files themselves");
      }
    }
    if (opened) {
      PhraseIndex index = std::move(*opened);
      std::vector<std::string> now = linked_files(in);
      const auto sources = index.sources();
      std::set<std::string> indexed;
      bool fresh = true;
      for (const auto& s : sources) {
        indexed.insert(s.path);
        uint64_t size = 0;
        std::error_code e2;
        if (!fs::exists(s.path, e2) || mtime_ns(s.path, &size) != s.mtime_ns || size != s.size) fresh = false;
      }
      for (const std::string& f : now)
        if (!indexed.count(f)) {
          // a file passed over when the index was built is no change
          try {
            if (read_linked_phrases(f)) fresh = false;
          } catch (const Error&) {
            fresh = false;
          }
        }
      if (fresh) return index;
      if (notes) notes->push_back(saved + ": out of date (files added, removed or changed since it was built); searching the files themselves; `light search --index " + in + "` brings it up to date");
    }
    return build_folder_index(in, notes);
  }
  if (!fs::exists(in, ec)) throw Error(in + " (--in): no such file or folder");
  {  // an index file?
    std::ifstream f(in, std::ios::binary);
    char head[8] = {};
    if (f.read(head, 8) && std::memcmp(head, kMagic, 8) == 0) return PhraseIndex::open(in);
  }
  auto got = read_linked_phrases(in);
  if (!got) throw Error(in + " (--in): not linked output: expected a MapText list, a GeoJSON FeatureCollection or a light search index");
  uint64_t size = 0;
  const int64_t t = mtime_ns(in, &size);
  return PhraseIndex(*got, {{in, size, t}});
}

}  // namespace light::search
