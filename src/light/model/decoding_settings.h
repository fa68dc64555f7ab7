// The decoding settings of a LIGHT model (beyond the paper; link/decoding_prior.h, line_alignment.h,
// data::polygons_at_height): one table from which the model config's reading, validation and writing,
// `light link`'s options, the C++ API's overrides (LinkByModelOptions::decoding) and Python's keyword
// arguments all come. A setting added here appears in all of them. No LibTorch here.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "light/model/config.h"

namespace light::model {

struct DecodingSetting {
  const char* key;     // config.json key, Python keyword, the C++ API's override key
  const char* option;  // `light link`'s option, or "" (set in config.json only)
  double lo, hi;       // the range, both ends allowed
  bool above_lo;       // lo itself is not allowed (a positive factor)
  double ModelConfig::*field;
  double neutral;      // the paper's decoding (released checkpoints): not written to config.json
  const char* expected;  // the range in words, for messages ("a factor in [1, 100] (1: none)")
  const char* help;      // what it does, for --help and the docs
};

// Every decoding setting, in config.json's order.
const std::vector<DecodingSetting>& decoding_settings();
// The setting of `key`; light::Error naming `where` and the key (with the keys there are) when none.
const DecodingSetting& decoding_setting(const std::string& key, const std::string& where);
// Whether `v` is in the setting's range.
bool in_range(const DecodingSetting& s, double v);
// light::Error "WHERE: expected ..., got V" unless `v` is in range.
void check_decoding_value(const DecodingSetting& s, double v, const std::string& where);
// `config` with each override (by key) put in, each checked; `what` names an override's origin in
// messages: "option" (its `light link` option) or "key".
ModelConfig with_decoding(ModelConfig config, const std::map<std::string, double>& overrides, bool by_option);

}  // namespace light::model
