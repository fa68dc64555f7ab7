// Reading and writing a LinkWeights spec (model/config.cpp keeps it in config.json); the rows' weights
// themselves are in link_row_weights.cpp.
#include "light/data/link_weights.h"

#include <cmath>
#include <sstream>

#include "light/error.h"

namespace light::data {

LinkWeights parse_link_weights(const std::string& spec, const std::string& where) {
  LinkWeights w;
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double* field = key == "spread"                ? &w.spread
                    : key == "next_line"           ? &w.next_line
                    : key == "next_line_unaligned" ? &w.next_line_unaligned
                    : key == "above"               ? &w.above
                                                   : nullptr;
    if (!field) throw Error(where + ": unknown link class \"" + key + "\" (spread, next_line, next_line_unaligned, above)");
    double v = 0;
    size_t used = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument("no value");
      v = std::stod(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || used == 0 || used != item.size() - eq - 1 || !(v > 0) || !std::isfinite(v))
      throw Error(where + ": " + key + ": expected a weight above 0, as " + key + "=2, got \"" + item + "\"");
    *field = v;
  }
  return w;
}

std::string link_weights_spec(const LinkWeights& w) {
  std::string out;
  auto put = [&](const char* key, double v) {
    if (v == 1) return;
    std::ostringstream s;
    s << (out.empty() ? "" : ",") << key << '=' << v;
    out += s.str();
  };
  put("spread", w.spread);
  put("next_line", w.next_line);
  put("next_line_unaligned", w.next_line_unaligned);
  put("above", w.above);
  return out;
}

}  // namespace light::data
