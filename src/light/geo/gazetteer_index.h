// A gazetteer built once into one file that is mapped, not read (`light gazetteer build`): its
// places, every name of each (the name, GeoNames' ASCII name, its alternate names, with language,
// historic flag and period where alternateNamesV2.txt gives them), each name normalised as `light
// search` normalises text (search/normalize.h: case, accents, long s, abbreviations expanded), names
// sorted for exact look-ups and a trigram index for names within a few edits. A worker opens a
// 200,000-place index in milliseconds (docs/gazetteer.md).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "light/geo/gazetteer.h"

namespace light::geo {

// One name of a place as indexed.
struct PlaceName {
  std::string text;        // as the gazetteer writes it
  std::string normalized;  // search::normalize(text)
  uint32_t place = 0;      // the place's index in the gazetteer
  bool primary = false;    // the place's own name (else an ASCII or alternate name)
  AlternateName about;     // language, historic, period (empty for the primary name)
};

// A name that matches a query: `edits` code-point edits between the normalised query and name.
struct NameMatch {
  uint32_t place = 0, name = 0;
  uint32_t edits = 0;
};

struct GazetteerSources {
  std::vector<std::string> geonames;         // GeoNames dumps
  std::vector<std::string> alternate_names;  // alternateNamesV2.txt
  std::vector<std::string> tables;           // a user's CSV/TSV places
  // Names in scripts other than Latin (after normalisation) are left out unless this is set: the
  // maps `light` reads are lettered in Latin script, and the other names would triple the index.
  bool all_scripts = false;
};

class Gazetteer {
 public:
  // Reads the sources and builds the index in memory (save() writes it). `progress` is called with
  // a line now and then (rows read) when given.
  static Gazetteer build(const GazetteerSources& sources, const std::function<void(const std::string&)>& progress = {});
  // From places and, for each, its alternate names (in memory; for tests and small tables).
  Gazetteer(const std::vector<Place>& places, const std::vector<std::vector<AlternateName>>& alternates,
            const std::vector<std::string>& source_names = {}, bool all_scripts = false);
  // Maps a saved index; a light::Error naming the file for anything else.
  static Gazetteer open(const std::string& path);
  static bool is_gazetteer_file(const std::string& path);
  Gazetteer(Gazetteer&&) noexcept;
  Gazetteer& operator=(Gazetteer&&) noexcept;
  ~Gazetteer();
  void save(const std::string& path) const;  // atomically

  size_t size() const;        // places
  size_t name_count() const;  // names
  size_t bytes() const;
  Place place(uint32_t k) const;
  // The places inside a longitude/latitude box (degrees; west > east: the box crosses the
  // antimeridian), in index order.
  std::vector<uint32_t> places_within(double west, double south, double east, double north) const;
  PlaceName name(uint32_t k) const;
  // The latest modification date among the GeoNames rows ("" when none gave one): the data's date.
  std::string data_date() const;
  std::vector<std::string> sources() const;

  // The names whose normalised form is exactly `normalized` (already normalised), best place first
  // (the larger population, then the primary name, then index order).
  std::vector<NameMatch> exact(const std::string& normalized) const;
  // The places with a name within `max_edits` of `text` once normalised (-1: search::auto_max_edits of
  // its length), each by its closest name, fewest edits first, then as exact() orders them; at most
  // `limit` (0: all). Safe from several threads at once.
  std::vector<NameMatch> find(const std::string& text, int max_edits = -1, size_t limit = 20) const;

 private:
  struct Impl;
  explicit Gazetteer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The default gazetteer index: $LIGHT_GAZETTEER, else GeoNames cities500 as scripts/fetch-gazetteer.sh
// builds it (gazetteers/cities500/cities500.gaz), looked for as the bundled models are, from the
// running binary's folder `exe_dir` (util/bundled.h); light::Error naming `option` when not built.
std::string default_gazetteer(const std::string& exe_dir, const std::string& option = "--gazetteer");

}  // namespace light::geo
