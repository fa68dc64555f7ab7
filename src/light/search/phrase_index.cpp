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

bool PhraseIndex::is_index_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[8] = {};
  return f.read(head, 8) && std::memcmp(head, kMagic, 8) == 0;
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

}  // namespace light::search
