#include "light/util/json.h"

#include <cmath>
#include <memory>
#include <unordered_set>
#include <vector>

#include "light/error.h"

namespace light {

namespace {

using json = nlohmann::json;
using DomParser = nlohmann::detail::json_sax_dom_parser<json>;

// Nlohmann's DOM builder with three checks added: depth, duplicate keys, and its errors kept.
// sax_parse calls these by the handler's static type, so hiding the base's methods is enough.
class StrictSax : public DomParser {
 public:
  StrictSax(json& root, const std::string& where) : DomParser(root, false), where_(where) {}

  bool start_object(std::size_t n) {
    enter();
    frames_.emplace_back();
    return DomParser::start_object(n);
  }
  bool end_object() {
    --depth_;
    frames_.pop_back();
    return DomParser::end_object();
  }
  bool start_array(std::size_t n) {
    enter();
    return DomParser::start_array(n);
  }
  bool end_array() {
    --depth_;
    return DomParser::end_array();
  }
  bool key(std::string& k) {
    Frame& f = frames_.back();
    bool seen = false;
    if (f.big) {
      seen = !f.big->insert(k).second;
    } else {
      for (const auto& s : f.small) seen = seen || s == k;
      if (!seen) f.small.push_back(k);
      if (f.small.size() > 16) f.big = std::make_unique<std::unordered_set<std::string>>(f.small.begin(), f.small.end());
    }
    if (seen) throw JsonError(JsonError::DuplicateKey, where_ + ": duplicate key \"" + k.substr(0, 80) + "\" in one object");
    return DomParser::key(k);
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& ex) {
    std::string msg = ex.what();
    const auto p = msg.find("] ");
    if (p != std::string::npos) msg = msg.substr(p + 2);
    if (msg.size() > 160) msg = msg.substr(0, 157) + "...";
    if (ex.id == 406) throw JsonError(JsonError::NumberRange, where_ + ": a number out of range: " + msg);
    throw JsonError(JsonError::Syntax, where_ + ": not valid JSON: " + msg);
  }

 private:
  struct Frame {
    std::vector<std::string> small;
    std::unique_ptr<std::unordered_set<std::string>> big;
  };
  void enter() {
    if (++depth_ > kMaxJsonDepth)
      throw JsonError(JsonError::Depth, where_ + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  }
  const std::string& where_;
  int depth_ = 0;
  std::vector<Frame> frames_;
};

}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& where) {
  json root;
  StrictSax sax(root, where);
  const bool ok = json::sax_parse(text.begin(), text.end(), &sax);
  if (!ok || root.is_discarded()) throw JsonError(JsonError::Syntax, where + ": not valid JSON");
  return root;
}

double json_number(const nlohmann::json& v, const std::string& where, const std::string& field) {
  if (!v.is_number()) throw Error(where + ": \"" + field + "\" must be a number, got " + v.dump().substr(0, 60));
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw Error(where + ": \"" + field + "\" must be a finite number, got " + v.dump().substr(0, 60));
  return d;
}

}  // namespace light
