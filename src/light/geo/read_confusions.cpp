#include "light/geo/read_confusions.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "light/error.h"
#include "light/util/bundled.h"
#include "light/util/fs.h"
#include "light/util/utf8.h"

namespace light::geo {

namespace {
uint64_t key(char32_t a, char32_t b) { return (static_cast<uint64_t>(a) << 32) | b; }
}  // namespace

void ReadConfusions::set(char32_t printed, char32_t read, double cost) { costs_[key(printed, read)] = cost; }

double ReadConfusions::substitution(char32_t printed, char32_t read) const {
  if (printed == read) return 0;
  const auto it = costs_.find(key(printed, read));
  return it == costs_.end() ? 1.0 : it->second;
}

double ReadConfusions::distance(const std::u32string& a, const std::u32string& b) const {
  std::vector<double> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<double>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<double>(i);
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + substitution(a[i - 1], b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string default_confusions_path(const std::string& exe_dir) {
  for (const std::string& dir : bundled_folder_candidates(exe_dir, "spotter"))
    if (std::filesystem::exists(dir + "/confusions.tsv")) return dir + "/confusions.tsv";
  return "";
}

ReadConfusions ReadConfusions::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the confusions table");
  note_input(path, "the confusions table");
  ReadConfusions c;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f(1);
    for (char ch : line)
      if (ch == '\t') f.emplace_back();
      else f.back().push_back(ch);
    const std::string where = path + ":" + std::to_string(n) + ": ";
    if (f.size() < 3) throw Error(where + "expected printed<TAB>read<TAB>cost, got " + std::to_string(f.size()) + " column(s)");
    std::u32string a, b;
    try {
      a = utf8_decode(f[0]), b = utf8_decode(f[1]);
    } catch (const Error&) {
      throw Error(where + "column 1 or 2: not UTF-8");
    }
    if (a.size() != 1) throw Error(where + "column 1 (printed): expected one character, got \"" + f[0] + "\"");
    if (b.size() != 1) throw Error(where + "column 2 (read): expected one character, got \"" + f[1] + "\"");
    char* end = nullptr;
    const double cost = std::strtod(f[2].c_str(), &end);
    if (f[2].empty() || *end != '\0' || !(cost > 0 && cost <= 1)) throw Error(where + "column 3 (cost): expected a number in (0, 1], got \"" + f[2] + "\"");
    c.set(a[0], b[0], cost);
  }
  return c;
}

}  // namespace light::geo
