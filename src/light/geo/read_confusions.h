// The characters a text spotter confuses, and what reading one for another costs: an edit distance
// in which a spotter's common misreadings ("o" for "c", "l" for "i", "n" for "u") count less than a
// letter wrong at random, so that a gazetteer name a word was misread from ranks above one that merely
// differs as much (geo/place_matching.h). Measured on real scans (scripts/spotter_confusions.py) and
// kept in the spotter's folder as confusions.tsv.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

namespace light::geo {

class ReadConfusions {
 public:
  ReadConfusions() = default;
  // A confusions.tsv: "printed<TAB>read<TAB>cost" rows (one character each, as search::normalize
  // leaves them; cost in (0, 1]), '#' comments. light::Error naming the file, line and column.
  static ReadConfusions read(const std::string& path);
  void set(char32_t printed, char32_t read, double cost);
  // The cost of reading `read` where `printed` stands: 0 when equal, the table's cost, else 1.
  double substitution(char32_t printed, char32_t read) const;
  size_t size() const { return costs_.size(); }
  // The edit distance from `printed` to `read` with these substitution costs (insertions and
  // deletions 1).
  double distance(const std::u32string& printed, const std::u32string& read) const;

 private:
  std::unordered_map<uint64_t, double> costs_;
};

// The bundled spotter's table (models/spotter/confusions.tsv, looked for as the bundled models are
// from the running binary's folder `exe_dir`); "" when there is none.
std::string default_confusions_path(const std::string& exe_dir);

}  // namespace light::geo
