// Place names for synthetic maps: real settlement names from a GeoNames gazetteer (Debian's
// libtimezonemap-data ships cities15000.txt) and generated feature names with the shapes real maps
// have: "Lodge Pole Cr.", "Smith's Fork", "Lake of the Woods", "Mt. Baldy", "N. Platte R.",
// "DENVER AND RIO GRANDE R.R.", "LARIMER CO.", "Main St.", "41", "T.3N.".
#pragma once
#include <random>
#include <string>
#include <vector>

namespace light::synth {

enum class NameKind { Settlement, River, Creek, Lake, Mountain, Railroad, County, State, Street, Number, Letter };

struct Name {
  std::vector<std::string> words;  // words of the phrase (no spaces inside a word)
  NameKind kind = NameKind::Settlement;
};

// A settlement with its coordinates (GeoNames rows only): what `light synth --places` draws where it
// lies.
struct LocatedPlace {
  long long id = 0;
  std::string name;
  double lon = 0, lat = 0;
  long long population = 0;
};

class Gazetteer {
 public:
  // Loads GeoNames rows (tab-separated: id, name, asciiname, ...). Throws light::Error when the file
  // cannot be read or holds no names. An empty path uses a small built-in list.
  explicit Gazetteer(const std::string& path);
  static std::string default_path();

  const std::vector<std::string>& places() const { return places_; }
  // The places with their coordinates (empty for the built-in list).
  const std::vector<LocatedPlace>& located() const { return located_; }
  size_t size() const { return places_.size(); }

  // A random name of the given kind.
  Name make(NameKind kind, std::mt19937_64& rng) const;

 private:
  std::vector<std::string> places_;  // settlement names (UTF-8; may contain spaces)
  std::vector<LocatedPlace> located_;
  std::string place(std::mt19937_64& rng) const;
};

// A name of `kind` as sheets outside the classic American mix print it (world_names.cpp): French,
// Spanish, Italian, Portuguese and German particles and generics, British and American survey
// generics ("Rue de la Paix", "Iglesia de San Juan", "Alster Brücke", "Hazel Shaw"), a fifth in
// capitals. Kinds without such a form (numbers, letters, counties, states, railroads): no words.
Name world_name(NameKind kind, std::mt19937_64& rng);

// One entry of `v` (not empty) and a draw that comes true with chance p: the name makers' dice.
template <class T>
const T& pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}
bool chance(double p, std::mt19937_64& rng);

// Splits on ASCII spaces, dropping empty parts.
std::vector<std::string> split_words(const std::string& s);
std::string to_upper_ascii(std::string s);

}  // namespace light::synth
