#include "light/geo/gazetteer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/util/utf8.h"

namespace light::geo {

namespace {

// The fields of a tab-separated line (GeoNames quotes nothing).
void split_tabs(const std::string& line, std::vector<std::string>& out) {
  out.clear();
  size_t at = 0;
  while (true) {
    const size_t tab = line.find('\t', at);
    out.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
    if (tab == std::string::npos) break;
    at = tab + 1;
  }
}

std::string where(const std::string& path, size_t line, size_t column, const std::string& name) {
  return path + ":" + std::to_string(line) + ": column " + std::to_string(column) + " (" + name + ")";
}

int64_t whole_number(const std::string& s, const std::string& path, size_t line, size_t column, const std::string& name, bool empty_ok) {
  if (s.empty() && empty_ok) return 0;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno != 0)
    throw Error(where(path, line, column, name) + ": \"" + s + "\" is not a whole number");
  return v;
}

double degrees(const std::string& s, double limit, const std::string& path, size_t line, size_t column, const std::string& name) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    throw Error(where(path, line, column, name) + ": \"" + s + "\" is not a number");
  if (std::abs(v) > limit)
    throw Error(where(path, line, column, name) + ": " + s + " lies outside [-" + std::to_string(static_cast<int>(limit)) + ", " +
                std::to_string(static_cast<int>(limit)) + "]");
  return v;
}

std::ifstream open_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read: " + std::strerror(errno));
  note_input(path, "a gazetteer source");
  return in;
}

void check_text(const std::string& s, const std::string& path, size_t line, size_t column, const std::string& name) {
  if (!is_valid_utf8(s)) throw Error(where(path, line, column, name) + ": not UTF-8");
}

}  // namespace

void read_geonames(const std::string& path, const std::function<void(Place&&, std::vector<std::string>&&)>& row) {
  std::ifstream in = open_text(path);
  std::string line;
  std::vector<std::string> f;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    split_tabs(line, f);
    if (f.size() != 19)
      throw Error(path + ":" + std::to_string(n) + ": " + std::to_string(f.size()) +
                  " tab-separated columns, a GeoNames row has 19 (geonameid, name, asciiname, alternatenames, latitude, longitude, "
                  "feature class, feature code, country code, ...)");
    Place p;
    p.id = whole_number(f[0], path, n, 1, "geonameid", false);
    check_text(f[1], path, n, 2, "name");
    check_text(f[3], path, n, 4, "alternatenames");
    p.name = f[1];
    p.lat = degrees(f[4], 90, path, n, 5, "latitude");
    p.lon = degrees(f[5], 180, path, n, 6, "longitude");
    p.feature_class = f[6], p.feature_code = f[7], p.country = f[8];
    if (p.feature_class.size() > 1) throw Error(where(path, n, 7, "feature class") + ": \"" + f[6] + "\" is not one letter");
    p.population = whole_number(f[14], path, n, 15, "population", true);
    p.modified = f[18];
    p.geonames = true;
    std::vector<std::string> names;
    if (!f[2].empty() && f[2] != f[1]) names.push_back(f[2]);
    for (size_t at = 0; at < f[3].size();) {
      size_t comma = f[3].find(',', at);
      if (comma == std::string::npos) comma = f[3].size();
      if (comma > at) names.push_back(f[3].substr(at, comma - at));
      at = comma + 1;
    }
    row(std::move(p), std::move(names));
  }
}

void read_alternate_names(const std::string& path, const std::function<void(int64_t, AlternateName&&)>& row) {
  static const char* const codes[] = {"link", "wkdt", "post", "iata", "icao", "faac", "tcid", "unlc", "fr_1793", "phon", "piny"};
  std::ifstream in = open_text(path);
  std::string line;
  std::vector<std::string> f;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    split_tabs(line, f);
    if (f.size() != 10 && f.size() != 8)
      throw Error(path + ":" + std::to_string(n) + ": " + std::to_string(f.size()) +
                  " tab-separated columns, an alternate-names row has 10 (alternateNameId, geonameid, isolanguage, alternate name, "
                  "isPreferredName, isShortName, isColloquial, isHistoric, from, to)");
    whole_number(f[0], path, n, 1, "alternateNameId", false);
    const int64_t id = whole_number(f[1], path, n, 2, "geonameid", false);
    check_text(f[3], path, n, 4, "alternate name");
    if (std::find(std::begin(codes), std::end(codes), f[2]) != std::end(codes)) continue;
    AlternateName a;
    a.text = f[3], a.language = f[2];
    const char* flags[] = {"isPreferredName", "isShortName", "isColloquial", "isHistoric"};
    bool* into[] = {&a.preferred, &a.short_name, &a.colloquial, &a.historic};
    for (size_t k = 0; k < 4; ++k) {
      const std::string& v = f[4 + k];
      if (!v.empty() && v != "1" && v != "0") throw Error(where(path, n, 5 + k, flags[k]) + ": \"" + v + "\" is neither 1 nor empty");
      *into[k] = v == "1";
    }
    if (f.size() == 10) a.from = f[8], a.to = f[9];
    row(id, std::move(a));
  }
}

namespace {

// CSV fields with double quotes ("" inside a quoted field is one quote).
std::vector<std::string> split_fields(const std::string& line, char sep, const std::string& path, size_t n) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"' && out.back().empty()) {
      quoted = true;
    } else if (c == sep) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) throw Error(path + ":" + std::to_string(n) + ": a quoted field is not closed");
  for (std::string& s : out) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::vector<Place> read_places_table(const std::string& path) {
  std::ifstream in = open_text(path);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (n == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a byte-order mark
    if (!line.empty()) break;
  }
  if (line.empty()) throw Error(path + ": empty; a places table needs a header row (name, lon, lat, type)");
  const char sep = line.find('\t') != std::string::npos ? '\t' : ',';
  const std::vector<std::string> header = split_fields(line, sep, path, n);
  const auto column = [&](std::initializer_list<const char*> names) -> int {
    for (size_t c = 0; c < header.size(); ++c)
      for (const char* want : names)
        if (lower(header[c]) == want) return static_cast<int>(c);
    return -1;
  };
  const int name = column({"name"}), lon = column({"lon", "longitude", "lng", "x"}), lat = column({"lat", "latitude", "y"});
  const int type = column({"type", "feature_code", "feature code"}), id = column({"id", "geonameid"}), country = column({"country", "country_code"});
  const int population = column({"population"});
  if (name < 0 || lon < 0 || lat < 0)
    throw Error(path + ":" + std::to_string(n) + ": header: a places table needs columns name, lon and lat (found: " + line + ")");
  std::vector<Place> out;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t,") == std::string::npos) continue;
    const std::vector<std::string> f = split_fields(line, sep, path, n);
    if (f.size() != header.size())
      throw Error(path + ":" + std::to_string(n) + ": " + std::to_string(f.size()) + " fields, the header has " + std::to_string(header.size()));
    Place p;
    p.name = f[static_cast<size_t>(name)];
    check_text(p.name, path, n, static_cast<size_t>(name) + 1, "name");
    if (p.name.empty()) throw Error(where(path, n, static_cast<size_t>(name) + 1, "name") + ": empty");
    p.lon = degrees(f[static_cast<size_t>(lon)], 180, path, n, static_cast<size_t>(lon) + 1, header[static_cast<size_t>(lon)]);
    p.lat = degrees(f[static_cast<size_t>(lat)], 90, path, n, static_cast<size_t>(lat) + 1, header[static_cast<size_t>(lat)]);
    p.id = id >= 0 ? whole_number(f[static_cast<size_t>(id)], path, n, static_cast<size_t>(id) + 1, header[static_cast<size_t>(id)], false)
                   : static_cast<int64_t>(n);
    if (type >= 0) {
      p.feature_code = f[static_cast<size_t>(type)];
      check_text(p.feature_code, path, n, static_cast<size_t>(type) + 1, "type");
      p.feature_class = feature_class_of(p.feature_code);
    }
    if (country >= 0) p.country = f[static_cast<size_t>(country)];
    if (population >= 0)
      p.population = whole_number(f[static_cast<size_t>(population)], path, n, static_cast<size_t>(population) + 1, "population", true);
    out.push_back(std::move(p));
  }
  return out;
}

std::string feature_class_of(const std::string& code) {
  // GeoNames' classes, by the codes and the plain words a user's table most often holds. A one-letter
  // class is its own class.
  static const std::map<std::string, std::string> table = {
      {"a", "A"}, {"h", "H"}, {"l", "L"}, {"p", "P"}, {"r", "R"}, {"s", "S"}, {"t", "T"}, {"u", "U"}, {"v", "V"},
      {"adm1", "A"}, {"adm2", "A"}, {"adm3", "A"}, {"adm4", "A"}, {"pcli", "A"}, {"county", "A"}, {"state", "A"}, {"country", "A"},
      {"parish", "A"}, {"township", "A"},
      {"ppl", "P"}, {"ppla", "P"}, {"ppla2", "P"}, {"ppla3", "P"}, {"ppla4", "P"}, {"pplc", "P"}, {"pplx", "P"}, {"ppll", "P"},
      {"pplh", "P"}, {"pplq", "P"}, {"pplf", "P"}, {"ppls", "P"}, {"city", "P"}, {"town", "P"}, {"village", "P"}, {"hamlet", "P"},
      {"settlement", "P"}, {"locality", "P"}, {"suburb", "P"},
      {"stm", "H"}, {"stms", "H"}, {"stmi", "H"}, {"lk", "H"}, {"lks", "H"}, {"bay", "H"}, {"cove", "H"}, {"spng", "H"}, {"rsv", "H"},
      {"pnd", "H"}, {"sea", "H"}, {"chn", "H"}, {"strt", "H"}, {"river", "H"}, {"stream", "H"}, {"creek", "H"}, {"brook", "H"},
      {"lake", "H"}, {"pond", "H"}, {"spring", "H"}, {"canal", "H"}, {"cnl", "H"},
      {"mt", "T"}, {"mts", "T"}, {"hll", "T"}, {"hlls", "T"}, {"pk", "T"}, {"pass", "T"}, {"val", "T"}, {"isl", "T"}, {"isls", "T"},
      {"cape", "T"}, {"rdge", "T"}, {"mountain", "T"}, {"hill", "T"}, {"peak", "T"}, {"island", "T"}, {"valley", "T"}, {"ridge", "T"},
      {"frm", "S"}, {"ch", "S"}, {"rstn", "S"}, {"sch", "S"}, {"bldg", "S"}, {"mill", "S"}, {"ml", "S"}, {"farm", "S"},
      {"church", "S"}, {"station", "S"}, {"school", "S"}, {"building", "S"}, {"fort", "S"}, {"ft", "S"},
      {"rd", "R"}, {"rr", "R"}, {"road", "R"}, {"railroad", "R"}, {"railway", "R"},
      {"frst", "V"}, {"forest", "V"}, {"wood", "V"}, {"prk", "L"}, {"park", "L"}, {"area", "L"}, {"rgn", "L"}, {"region", "L"},
  };
  const auto it = table.find(lower(code));
  return it == table.end() ? "" : it->second;
}

std::string place_uri(const Place& p) {
  return p.geonames ? "https://sws.geonames.org/" + std::to_string(p.id) + "/" : "urn:light:place:" + std::to_string(p.id);
}

}  // namespace light::geo
