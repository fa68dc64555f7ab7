// The MapText data model, part of light's public API: a dataset is a list of tiles (image entries); a
// tile holds groups (phrases, in reading order); a group holds words (a polygon and, usually, a
// transcription). Format: README "MapText files" and docs/commands.md.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace light::maptext {

// A vertex in pixel coordinates of the tile (x to the right, y down).
struct Point {
  double x = 0.0;
  double y = 0.0;
};

struct Word {
  std::vector<Point> vertices;     // at least 3 points, pixel coordinates of the tile
  std::optional<std::string> text;  // required in ground truth and for recognition tasks
  std::optional<bool> illegible;    // required in ground truth; absent in most predictions
  std::optional<bool> truncated;    // required in ground truth (word cut by the tile border)
  std::string extra;                // other keys of the word object, as a JSON object text ("" if none)

  // The evaluator's single "ignore" flag: illegible or truncated.
  bool ignore() const { return illegible.value_or(false) || truncated.value_or(false); }
};

using Group = std::vector<Word>;

struct Tile {
  std::string image;  // the image key, e.g. "rumsey/test/5797073_h2_w4.png"
  std::vector<Group> groups;

  size_t word_count() const;
};

using Dataset = std::vector<Tile>;

enum class Kind { GroundTruth, Predictions };

struct ReadOptions {
  Kind kind = Kind::GroundTruth;
  // Predictions only: whether every word must carry "text" (recognition tasks).
  bool require_text = false;
};

// Reads and fully validates a MapText JSON file. Every problem throws light::Error with a message
// naming the file, the image entry, the group/word index (0-based), the field and what was expected.
Dataset read_maptext(const std::string& path, const ReadOptions& options);

// Same, from JSON text; `source` names the input in error messages.
Dataset parse_maptext(const std::string& json_text, const std::string& source, const ReadOptions& options);

// Serialises a dataset as MapText JSON (one tile per line). Words keep their extra keys.
std::string to_json_text(const Dataset& data);

// Writes a dataset atomically (temporary file, then rename).
void write_maptext(const std::string& path, const Dataset& data);

}  // namespace light::maptext
