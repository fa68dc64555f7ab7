// Phrases to places: each linked phrase's candidate places in a gazetteer (geo/gazetteer_index.h),
// scored by how close the names are, by the feature class the phrase's generic word implies ("Lodge
// Pole Cr." a stream, "Elk Mtn." a mountain), and by where the map's other names lie; the best
// accepted on its own when it stands clear of the rest (docs/gazetteer.md, "Matching").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "light/geo/gazetteer_index.h"
#include "light/geo/read_confusions.h"

namespace light::geo {

struct PlaceCandidate {
  Place place;
  std::string matched;  // the gazetteer's name that matched, as written
  uint32_t name = 0;    // its index in the gazetteer
  uint32_t edits = 0;   // code-point edits between the normalised phrase and that name
  bool historic = false;
  double score = 0;     // 0-1: name similarity x feature class x place among the map's names
};

struct PhrasePlaces {
  std::string text;            // the phrase as read
  std::string query;           // what was looked up (letter-spaced words joined)
  std::string implied_class;   // the GeoNames class its generic word implies ("" when none)
  std::vector<PlaceCandidate> candidates;  // best first
  bool accepted = false;       // candidates[0] accepted without a person's look
};

struct MatchOptions {
  size_t candidates = 5;  // kept a phrase
  int max_edits = -1;     // -1: search::auto_max_edits of the phrase's length
  // A spotter's misreadings (its confusions.tsv): a name misread that way scores as fewer edits off.
  // nullptr: every substitution one edit.
  const ReadConfusions* confusions = nullptr;
  // A candidate of another class than the phrase's generic word implies: its score times this.
  double other_class = 0.6;
  // Candidates whose name and class score under this are dropped (before the spatial factor, which
  // orders and accepts but drops nothing: the map's other names may be wrong).
  double min_score = 0.5;
  // Accepted: the best scores at least `accept_score` and `accept_margin` more than the next place.
  double accept_score = 0.9, accept_margin = 0.15;
  // The map's names agree on a region: a candidate farther than the region's spread from its centre
  // is scored down (exp of minus the excess, in spreads; at least `far_floor`).
  bool spatial = true;
  double far_floor = 0.2;
};

// The GeoNames feature class a phrase's last word implies: "Lodge Pole Creek" H, "Elk Mountain" T,
// "Grant County" A, "Union Station" S, "Lake City" P, "Denver and Rio Grande Railroad" R; "" for none.
std::string implied_feature_class(const std::string& phrase);

// The phrase with runs of three or more single letters joined ("L O N D O N" -> "LONDON"): names set
// letter-spaced across a region.
std::string without_letter_spacing(const std::string& phrase);

// "St." as its last word read as Street ("Main St." -> "Main Street"); elsewhere it stays Saint, as
// search::normalize reads it ("St. Louis").
std::string street_or_saint(const std::string& phrase);

// Whether a phrase can name a place on its own: some word besides generic words ("Creek", "Station",
// "Bank") and small words, and three letters or more.
bool names_a_place(const std::string& phrase);

// Each phrase's candidates, scored and ordered, and the accepted ones marked. Phrases that cannot
// name a place (names_a_place) get none.
std::vector<PhrasePlaces> match_places(const Gazetteer& gazetteer, const std::vector<std::string>& phrases, const MatchOptions& options = {});

}  // namespace light::geo
