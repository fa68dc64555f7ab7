// Finding place names among linked phrases (`light search`): every phrase of a set of linked files,
// normalised (search/normalize.h), found by edit distance with a trigram index that narrows a million
// phrases to the few that can match before any distance is computed. An index is built once and
// saved (`light search --index DIR`); a saved index is mapped into memory, not read, so a query costs
// the same whether it is the first of a process or not.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "light/maptext.h"

namespace light::search {

// One linked phrase as it is indexed: where it is, what it says, its words' polygons (pixels of its
// image) and, for a georeferenced map, its centre in longitude/latitude.
struct PhraseWord {
  std::string text;
  std::vector<maptext::Point> vertices;
  double score = -1;  // a spotter's reading score ("score", 0-1); -1 when the word has none
};
struct Phrase {
  std::string file;   // the linked file it came from
  std::string image;  // its map's image key
  uint32_t group = 0;  // its place among the image's phrases (the group index, 0-based)
  std::vector<PhraseWord> words;
  std::optional<maptext::Point> lonlat;  // x longitude, y latitude (degrees)

  std::string text() const;  // the words' texts joined by spaces
};

// A phrase that matches a query: `edits` character edits (Levenshtein, code points) between the
// normalised query and the normalised phrase (whole) or the phrase's best run of consecutive words
// (a part: "Lodge Pole" in "Lodge Pole Creek"; words [first, last]).
struct Match {
  uint32_t phrase = 0;
  uint32_t edits = 0;
  bool whole = true;
  uint32_t first_word = 0, last_word = 0;
  double distance = 0;  // edits over the longer of the two normalised texts (0 exact, 1 nothing alike)
};

struct FindOptions {
  // The most character edits a match may have; -1: by the query's length (auto_max_edits).
  int max_edits = -1;
  // Whether a run of a phrase's words may match (else whole phrases only).
  bool parts = true;
  size_t limit = 20;  // the most matches returned (0: all)
};

// The edits a query of `length` normalised code points tolerates by default: a quarter of its length,
// rounded down, at most 3 ("elk" 0, "fort worth" 2, "lodge pole creek" 3).
int auto_max_edits(size_t length);

// Phrases, their normalised texts and the trigram index over them, owned or mapped from a file.
class PhraseIndex {
 public:
  // The linked files an index was built from and, for each, its size and modification time then
  // (`light search` compares them with the files' now to tell a stale index).
  struct Source {
    std::string path;
    uint64_t size = 0;
    int64_t mtime_ns = 0;
  };
  // Builds the index of `phrases` (in memory; save() writes it).
  explicit PhraseIndex(const std::vector<Phrase>& phrases, const std::vector<Source>& sources = {});
  // Maps a saved index; light::Error naming the file for one that is not an index, of another
  // version, or cut short.
  static PhraseIndex open(const std::string& path);
  // Whether the file begins with an index's signature (the bytes a saved index starts with).
  static bool is_index_file(const std::string& path);
  PhraseIndex(PhraseIndex&&) noexcept;
  PhraseIndex& operator=(PhraseIndex&&) noexcept;
  ~PhraseIndex();

  // Writes the index to `path` atomically.
  void save(const std::string& path) const;

  size_t size() const;  // phrases
  Phrase phrase(uint32_t k) const;
  std::string normalized(uint32_t k) const;

  std::vector<Source> sources() const;
  size_t bytes() const;  // the index's size in memory and on disk

  // The matches of `query`, best first (one find at a time on one index: it reuses a counter array): fewest edits, then whole phrases before parts, then lower
  // distance, then index order. A query that normalises to nothing matches nothing.
  std::vector<Match> find(const std::string& query, const FindOptions& options = {}) const;

  // How many phrases the trigram filter handed to the edit distance in the last find() (for benchmarks
  // and tests; a query too short for the filter scans every phrase).
  size_t last_candidates() const;

 private:
  struct Impl;
  explicit PhraseIndex(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The phrases of a linked file: MapText JSON (each group a phrase; words without text are left out
// of a phrase's text but keep its polygons) or the GeoJSON that `light link --format geojson` writes
// (each Feature a phrase; "lonlat" features give their centre). light::Error naming the file and the
// field for a bad file; std::nullopt for a JSON file that is neither (no "type": "FeatureCollection"
// and not a MapText list), which a folder's search passes over.
std::optional<std::vector<Phrase>> read_linked_phrases(const std::string& path);

// A word's spotter score: its "score" key when a number in [0, 1], else -1.
double spotter_score(const maptext::Word& word);

// The phrases of linked MapText held in memory (each group a phrase, empty groups left out), as read
// from `file`.
std::vector<Phrase> dataset_phrases(const maptext::Dataset& linked, const std::string& file = "");

// The linked files of a folder, recursively, sorted: *.json and *.geojson (when name.json and
// name.geojson both exist in one folder, only the GeoJSON, which may carry coordinates).
std::vector<std::string> linked_files(const std::string& dir);

// The file `light search --index DIR` writes in DIR.
inline constexpr const char* kIndexFileName = "light-search.index";

// The index of every phrase of a folder's linked files (linked_files; files that are not linked
// output are passed over, each named in `notes`), with their sizes and times as sources.
PhraseIndex build_folder_index(const std::string& dir, std::vector<std::string>* notes = nullptr);

// What `light search --in IN` searches: a saved index (a file made by --index, or a folder holding
// an up-to-date one), else the phrases of a linked file or of a folder's linked files, indexed in
// memory. A folder whose saved index is out of date (a file added, removed or changed since) is read
// afresh, with a note saying so.
PhraseIndex open_for_search(const std::string& in, std::vector<std::string>* notes = nullptr);

}  // namespace light::search
