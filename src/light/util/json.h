// Strict JSON for the files users hand to `light`: every reader of a user's JSON goes through here,
// so that no input can crash the process or be read differently from what it says.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "light/error.h"

namespace light {

// Deeper nesting than this is refused (copying or printing a deeper tree would recurse that deep).
inline constexpr int kMaxJsonDepth = 256;

// What parse_json refuses. Its message is complete ("WHERE: duplicate key \"image\"").
class JsonError : public Error {
 public:
  enum Kind { Syntax, Depth, DuplicateKey, NumberRange };
  JsonError(Kind kind, const std::string& message) : Error(message), kind(kind) {}
  Kind kind;
};

// Parses `text`. Throws JsonError, its message starting with `where`, for: invalid JSON (with the
// parser's position), nesting deeper than kMaxJsonDepth, a key that appears twice in one object (JSON
// parsers disagree on which one wins), and a number outside a double's range (1e309).
nlohmann::json parse_json(std::string_view text, const std::string& where);

// Throws light::Error naming `where` and `field` unless `v` is a number (not a boolean) and finite.
double json_number(const nlohmann::json& v, const std::string& where, const std::string& field);

}  // namespace light
