#include "light/data/synth/names.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "light/error.h"
#include "light/util/utf8.h"

namespace light::synth {

namespace {

const std::vector<std::string> kSurnames{
    "Smith", "Johnson", "Brown", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Moore", "Jackson", "Martin",
    "Clark", "Lewis", "Walker", "Hall", "Allen", "Young", "King", "Wright", "Scott", "Green", "Baker", "Adams",
    "Nelson", "Hill", "Campbell", "Mitchell", "Carter", "Phillips", "Evans", "Turner", "Parker", "Collins",
    "Edwards", "Stewart", "Morris", "Murphy", "Cook", "Rogers", "Morgan", "Cooper", "Peterson", "Reed", "Bailey",
    "Kelly", "Howard", "Ward", "Cox", "Richardson", "Wood", "Watson", "Brooks", "Bennett", "Gray", "James",
    "Hughes", "Price", "Sanders", "Myers", "Long", "Ross", "Foster", "Powell", "Jenkins", "Perry", "Russell",
    "Sullivan", "Bell", "Coleman", "Butler", "Henderson", "Barnes", "Fisher", "Vasquez", "Simmons", "Graham",
    "Marshall", "Owens", "Harrison", "Gibson", "McDonald", "Cruz", "Wallace", "Ellis", "Larimer", "Fremont",
    "Pike", "Carson", "Bent", "Gunnison", "Huerfano", "Chaffee", "Routt", "Logan", "Weld", "Boulder"};

const std::vector<std::string> kDescriptors{
    "Lodge Pole", "Bear", "Elk", "Beaver", "Cottonwood", "Willow", "Sweetwater", "Powder", "Cedar", "Pine",
    "Deer", "Buffalo", "Eagle", "Antelope", "Badger", "Rock", "Sand", "Clear", "Muddy", "Crooked", "Dry",
    "Spring", "Bitter", "Cherry", "Walnut", "Mill", "Indian", "Horse", "Wolf", "Turkey", "Fox", "Big Thompson",
    "Little Blue", "Republican", "Platte", "Arkansas", "Cache la Poudre", "Saint Vrain", "Timber", "Black",
    "White", "Red", "Grand", "Silver", "Boulder", "Otter", "Squaw", "Coal", "Salt", "Stone", "Lone Tree",
    "Twin", "Box Elder", "Plum", "Kiowa", "Bijou", "Hay", "Lost", "Middle", "Blue"};

const std::vector<std::string> kStates{
    "ALABAMA", "ARIZONA", "ARKANSAS", "CALIFORNIA", "COLORADO", "CONNECTICUT", "DAKOTA", "DELAWARE", "FLORIDA",
    "GEORGIA", "IDAHO", "ILLINOIS", "INDIANA", "IOWA", "KANSAS", "KENTUCKY", "LOUISIANA", "MAINE", "MARYLAND",
    "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA", "NEBRASKA", "NEVADA",
    "NEW HAMPSHIRE", "NEW JERSEY", "NEW MEXICO", "NEW YORK", "NORTH CAROLINA", "OHIO", "OKLAHOMA", "OREGON",
    "PENNSYLVANIA", "RHODE ISLAND", "TENNESSEE", "TEXAS", "UTAH", "VERMONT", "VIRGINIA", "WASHINGTON",
    "WISCONSIN", "WYOMING", "INDIAN TERRITORY"};

const std::vector<std::string> kBuiltinPlaces{
    "Denver", "Cheyenne", "Greeley", "Fort Collins", "Loveland", "Longmont", "Golden", "Pueblo", "Colorado Springs",
    "Leadville", "Georgetown", "Central City", "Julesburg", "Sterling", "Trinidad", "Durango", "Ouray", "Salida",
    "Cañon City", "Walsenburg", "La Junta", "Las Animas", "Kit Carson", "Hugo", "Limon", "Brighton", "Evans",
    "Platteville", "Berthoud", "Lyons", "Estes Park", "Idaho Springs", "Black Hawk", "Nederland", "Ward"};

int uniform(int a, int b, std::mt19937_64& rng) { return std::uniform_int_distribution<int>(a, b)(rng); }

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

bool chance(double p, std::mt19937_64& rng) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string to_upper_ascii(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

std::string Gazetteer::default_path() { return "/usr/share/libtimezonemap/ui/cities15000.txt"; }

Gazetteer::Gazetteer(const std::string& path) {
  if (path.empty()) {
    places_ = kBuiltinPlaces;
    return;
  }
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the gazetteer (GeoNames cities15000.txt; install libtimezonemap-data or pass --gazetteer)");
  std::string line;
  size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    // id \t name \t asciiname \t ...: take the name (UTF-8, with accents), fall back to asciiname.
    const auto t1 = line.find('\t');
    if (t1 == std::string::npos) continue;
    const auto t2 = line.find('\t', t1 + 1);
    std::string name = line.substr(t1 + 1, t2 == std::string::npos ? std::string::npos : t2 - t1 - 1);
    try {  // drawn with Pango and written to JSON: UTF-8 only (a Latin-1 or binary file is refused here)
      utf8_decode(name);
    } catch (const Error& e) {
      throw Error(path + ": line " + std::to_string(lineno) + ": the name is not UTF-8 (" + e.what() +
                  "); GeoNames files are UTF-8: convert it (iconv -f latin1 -t utf-8)");
    }
    if (name.empty() || name.size() > 28 || name.find_first_of("()/,") != std::string::npos) continue;
    // Columns 0 id, 4 latitude, 5 longitude, 14 population: kept when the row has them.
    std::vector<std::string> cols;
    for (size_t at = 0; cols.size() < 15;) {
      const size_t tab = line.find('\t', at);
      cols.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
      if (tab == std::string::npos) break;
      at = tab + 1;
    }
    if (cols.size() == 15) {
      char* end = nullptr;
      LocatedPlace p;
      p.id = std::strtoll(cols[0].c_str(), &end, 10);
      const bool id_ok = end && *end == '\0' && !cols[0].empty();
      p.lat = std::strtod(cols[4].c_str(), &end);
      const bool lat_ok = end && *end == '\0' && !cols[4].empty() && p.lat >= -90 && p.lat <= 90;
      p.lon = std::strtod(cols[5].c_str(), &end);
      const bool lon_ok = end && *end == '\0' && !cols[5].empty() && p.lon >= -180 && p.lon <= 180;
      p.population = std::strtoll(cols[14].c_str(), nullptr, 10);
      if (id_ok && lat_ok && lon_ok) p.name = name, located_.push_back(std::move(p));
    }
    places_.push_back(std::move(name));
  }
  if (places_.empty()) throw Error(path + ": no place names found (expected GeoNames tab-separated rows)");
}

std::string Gazetteer::place(std::mt19937_64& rng) const { return pick(places_, rng); }

Name Gazetteer::make(NameKind kind, std::mt19937_64& rng) const {
  Name n;
  n.kind = kind;
  auto desc = [&] { return split_words(pick(kDescriptors, rng)); };
  auto surname = [&] { return pick(kSurnames, rng); };
  switch (kind) {
    case NameKind::Settlement: {
      n.words = split_words(place(rng));
      if (chance(0.35, rng))
        for (auto& w : n.words) w = to_upper_ascii(w);
      break;
    }
    case NameKind::River: {
      const int form = uniform(0, 4, rng);
      std::vector<std::string> base = chance(0.3, rng) ? std::vector<std::string>{surname()} : desc();
      if (form == 0) n.words = concat(base, {"R."});
      else if (form == 1) n.words = concat(base, {"River"});
      else if (form == 2) n.words = concat(concat({pick(std::vector<std::string>{"N.", "S.", "North", "South", "Middle"}, rng)}, base), {"R."});
      else if (form == 3) n.words = concat(base, {"Fork"});
      else n.words = concat(concat({"Fork", "of"}, base), {"R."});
      break;
    }
    case NameKind::Creek: {
      const int form = uniform(0, 3, rng);
      if (form == 0) n.words = concat(desc(), {"Cr."});
      else if (form == 1) n.words = {surname() + "'s", "Fork"};
      else if (form == 2) n.words = concat(desc(), {"Creek"});
      else n.words = {surname(), "Cr."};
      break;
    }
    case NameKind::Lake: {
      const int form = uniform(0, 3, rng);
      if (form == 0) n.words = concat({"Lake"}, desc());
      else if (form == 1) n.words = concat(desc(), {"L."});
      else if (form == 2) n.words = {"Lake", "of", "the", pick(std::vector<std::string>{"Woods", "Hills", "Pines", "Isles", "Clouds"}, rng)};
      else n.words = concat(desc(), {"Lake"});
      break;
    }
    case NameKind::Mountain: {
      const int form = uniform(0, 3, rng);
      if (form == 0) n.words = {"Mt.", pick(std::vector<std::string>{"Baldy", "Evans", "Meeker", "Elbert", "Lincoln", "Massive"}, rng)};
      else if (form == 1) n.words = concat(desc(), {"Peak"});
      else if (form == 2) n.words = concat(desc(), {"Mts."});
      else n.words = concat(desc(), {"Butte"});
      if (chance(0.3, rng))
        for (auto& w : n.words) w = to_upper_ascii(w);
      break;
    }
    case NameKind::Railroad: {
      const int form = uniform(0, 2, rng);
      auto city = [&] {
        std::vector<std::string> w = split_words(place(rng));
        for (auto& x : w) x = to_upper_ascii(x);
        return w;
      };
      if (form == 0) n.words = concat(concat(concat(city(), {"AND"}), city()), {"R.R."});
      else if (form == 1) n.words = {"DENVER", "AND", "RIO", "GRANDE", "R.R."};
      else n.words = concat(city(), {pick(std::vector<std::string>{"PACIFIC", "CENTRAL", "SOUTHERN"}, rng), "RY."});
      break;
    }
    case NameKind::County:
      n.words = {to_upper_ascii(surname()), chance(0.5, rng) ? "CO." : "COUNTY"};
      break;
    case NameKind::State:
      n.words = split_words(pick(kStates, rng));
      break;
    case NameKind::Street: {
      static const std::vector<std::string> ords{"1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "12th", "15th"};
      const int form = uniform(0, 2, rng);
      if (form == 0) n.words = {surname(), chance(0.5, rng) ? "St." : "Street"};
      else if (form == 1) n.words = {pick(ords, rng), chance(0.5, rng) ? "Ave." : "Avenue"};
      else n.words = {pick(std::vector<std::string>{"Main", "Broadway", "Market", "Colfax", "Larimer", "Blake"}, rng), "St."};
      break;
    }
    case NameKind::Number: {
      const int form = uniform(0, 3, rng);
      if (form == 0) n.words = {std::to_string(uniform(1, 36, rng))};
      else if (form == 1) n.words = {std::to_string(uniform(100, 9999, rng))};
      else if (form == 2) n.words = {"T." + std::to_string(uniform(1, 12, rng)) + (chance(0.5, rng) ? "N." : "S.")};
      else n.words = {"R." + std::to_string(uniform(60, 105, rng)) + "W."};
      break;
    }
    case NameKind::Letter:
      n.words = {std::string(1, "NESWABCDX"[uniform(0, 8, rng)])};
      break;
  }
  return n;
}

}  // namespace light::synth
