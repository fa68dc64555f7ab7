#include "light/model/decoding_settings.h"

#include <cmath>

#include "light/error.h"
#include "light/util/format.h"

namespace light::model {

const std::vector<DecodingSetting>& decoding_settings() {
  static const std::vector<DecodingSetting> table = {
      {"no_successor_bias", "--no-successor-bias", 0, 1e6, true, &ModelConfig::no_successor_bias, 1.0,
       "a positive factor (1: the paper's decoding)",
       "Multiply each word's \"no successor\" probability by this before decoding (1: the paper's)"},
      {"spotted_no_successor_bias", "", 0, 1e6, false, &ModelConfig::spotted_no_successor_bias, 0.0,
       "0 (no_successor_bias for spotted words too) or a positive factor",
       "The same factor for a text spotter's words (link/model_linking.h words_from)"},
      {"no_successor_exponent", "--no-successor-exponent", -4, 4, false, &ModelConfig::no_successor_exponent, 0.0,
       "an exponent in [-4, 4] (0: the same factor in every window)",
       "... times (words within a window around it / 50) to this power (0: the same for every word)"},
      {"reading_prior_above", "--reading-prior-above", 0, 1, false, &ModelConfig::reading_prior_above, 1.0,
       "a factor in [0, 1] (1: no reading prior)",
       "Multiply a candidate successor lying above the word, in its reading frame, by this (1: none)"},
      {"reading_prior_next_line", "--reading-prior-next-line", 0, 100, false, &ModelConfig::reading_prior_next_line, 1.0,
       "a factor in [0, 100] (1: none)",
       "Multiply a candidate successor on the line below the word (0.75-3 heights below) by this (1: none)"},
      {"figure_prior", "--figure-prior", 0, 1, false, &ModelConfig::figure_prior, 1.0, "a factor in [0, 1] (1: none)",
       "Multiply a candidate successor by this when it and the word are both bare figures (\"125\" after \"123\": house or lot numbers "
       "in a row) (1: none)"},
      {"lettering_prior", "--lettering-prior", 1, 100, false, &ModelConfig::lettering_prior, 1.0, "a factor in [1, 100] (1: none)",
       "Multiply a candidate on the line below or spread along the line by this when lettered as the word is (ink, height, case), "
       "divide it when not (1: none)"},
      {"alignment_prior", "--alignment-prior", 1, 100, false, &ModelConfig::alignment_prior, 1.0, "a factor in [1, 100] (1: none)",
       "After a first decoding: multiply a candidate on the line below by this when its line and the word's line up (left, right or "
       "centre), divide it when not (1: none)"},
      {"baseline_prior", "--baseline-prior", 1, 100, false, &ModelConfig::baseline_prior, 1.0, "a factor in [1, 100] (1: none)",
       "After a first decoding: multiply a candidate spread along the line by this when it sits on the word's baseline (one height, "
       "a straight or curved line), divide it when not (1: none)"},
      {"other_window_prior", "--other-window-prior", 0, 10, false, &ModelConfig::other_window_prior, 0.0,
       "a factor in [0, 10] (0: none)",
       "Take a word's candidates outside the window it is most central in from the window holding both in which it is most "
       "central, times this (0: that window's words only)"},
      {"line_judge", "--line-judge", 0, 4, false, &ModelConfig::line_judge, 0.0, "a factor in [0, 4] (0: none)",
       "After a first decoding: weigh each candidate by the line judge fitted to the model (line_judge_weights: how it lies against "
       "the word's line and the line below), its weights times this; 0: the alignment and baseline priors instead"},
      {"spotted_line_judge", "", 0, 4, false, &ModelConfig::spotted_line_judge, 0.0, "a factor in [0, 4] (0: none)",
       "The line judge's factor for a text spotter's words (0: the alignment and baseline priors for them)"},
      {"spotted_baseline_log_height", "", 0, 1, false, &ModelConfig::spotted_baseline_log_height, 0.0,
       "0 (as drawn words) or a log ratio in (0, 1]", "On the baseline, for a spotter's words: heights within this in log"},
      {"spotted_baseline_degrees", "", 0, 45, false, &ModelConfig::spotted_baseline_degrees, 0.0, "0 (as drawn words) or degrees in (0, 45]",
       "On the baseline, for a spotter's words: the chord within these degrees"},
      {"polygon_height", "--polygon-height", 0.25, 4, false, &ModelConfig::polygon_height, 1.0,
       "a share of the words' height in [0.25, 4] (1: as given)",
       "The model reads each word's polygon at this share of its height, about its middle; the output keeps the polygons as given "
       "(1: as given)"},
  };
  return table;
}

const DecodingSetting& decoding_setting(const std::string& key, const std::string& where) {
  std::string keys;
  for (const DecodingSetting& s : decoding_settings()) {
    if (key == s.key) return s;
    keys += (keys.empty() ? "" : ", ") + std::string(s.key);
  }
  throw Error(where + ": \"" + key + "\" is not a decoding setting (" + keys + ")");
}

bool in_range(const DecodingSetting& s, double v) { return std::isfinite(v) && (s.above_lo ? v > s.lo : v >= s.lo) && v <= s.hi; }

void check_decoding_value(const DecodingSetting& s, double v, const std::string& where) {
  if (in_range(s, v)) return;
  throw Error(where + ": expected " + s.expected + ", got " + short_number(v));
}

ModelConfig with_decoding(ModelConfig config, const std::map<std::string, double>& overrides, bool by_option) {
  for (const auto& [key, v] : overrides) {
    const DecodingSetting& s = decoding_setting(key, "decoding");
    check_decoding_value(s, v, by_option && *s.option ? s.option : s.key);
    config.*s.field = v;
  }
  return config;
}

}  // namespace light::model
