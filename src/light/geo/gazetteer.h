// Gazetteers as `light gazetteer build` reads them: GeoNames dumps (a country file, allCountries.txt,
// the cities files: 19 tab-separated columns), GeoNames' alternateNamesV2.txt (each name's language,
// whether it is historic, its period), and a user's own places (CSV or TSV with a header naming at
// least name, lon and lat; type and id optional). Every bad row is a light::Error naming the file, the
// line and the column.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace light::geo {

// One place of a gazetteer.
struct Place {
  int64_t id = 0;              // GeoNames id (a user's file: its id column, else the row's line)
  std::string name;            // as the gazetteer writes it
  double lon = 0, lat = 0;     // degrees, WGS 84
  std::string feature_class;   // GeoNames' one letter (P populated place, H water, T hypsographic, S spot, A, L, R, U, V)
  std::string feature_code;    // GeoNames' code (PPL, STM, MT, ...); a user's "type" as written
  std::string country;         // ISO 3166 alpha-2 ("" when unknown)
  int64_t population = 0;
  std::string modified;        // GeoNames' modification date (yyyy-mm-dd; "" when unknown)
  bool geonames = false;       // from a GeoNames dump (its id is GeoNames'), not a user's table
};

// A place's URI: https://sws.geonames.org/ID/ for a GeoNames place, urn:light:place:ID for one of a
// user's table.
std::string place_uri(const Place& place);

// A place's other name.
struct AlternateName {
  std::string text;
  std::string language;  // ISO 639 code as GeoNames writes it ("" when unknown)
  bool historic = false, colloquial = false, short_name = false, preferred = false;
  std::string from, to;  // the period the name was used in, as written ("" when open)
};

// Streams a GeoNames dump: each row's place and the names of its alternatenames column. A row of
// another column count, an id that is not a whole number, a latitude outside [-90, 90] or a longitude
// outside [-180, 180] is an error naming file, line and column (1-based).
void read_geonames(const std::string& path, const std::function<void(Place&&, std::vector<std::string>&&)>& row);

// Streams alternateNamesV2.txt (10 columns: alternateNameId, geonameid, isolanguage, alternate name,
// isPreferredName, isShortName, isColloquial, isHistoric, from, to; the older 8-column
// alternateNames.txt is read too). Rows whose language is a code rather than a language ("link",
// "wkdt", "post", "iata", "icao", "faac", "tcid", "unlc", "abbr" is kept) are passed over.
void read_alternate_names(const std::string& path, const std::function<void(int64_t geonameid, AlternateName&&)>& row);

// A user's places: CSV (comma) or TSV (tab, when the header has a tab), a header row naming the
// columns (name, lon or longitude or x, lat or latitude or y; optional: type, id, country,
// population; any order, case ignored, others passed over), fields in double quotes when they hold
// the separator. The type, when it is a GeoNames feature code or class letter, sets the feature class.
std::vector<Place> read_places_table(const std::string& path);

// The GeoNames feature class of a feature code ("PPL" -> "P", "STM" -> "H", "MT" -> "T"), "" for a
// code GeoNames does not have.
std::string feature_class_of(const std::string& code);

}  // namespace light::geo
