#include "light/spot/spotter_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "light/error.h"
#include "light/eval/edit_distance.h"
#include "light/util/fs.h"
#include "light/util/json.h"
#include "light/util/format.h"

namespace light::spot {

namespace {
constexpr double kBig = 1e9;
}  // namespace

const std::vector<StageInfo>& spotter_stages() {
  static const std::vector<StageInfo> stages = {
      {Stage::db_boxes, "db_boxes", true,
       "the probability map to text lines as PaddleOCR's DB post-processing: threshold, outlines, each outline's minimum-area "
       "rectangle scored by the mean probability inside and grown back by the detector's shrink"},
      {Stage::bend, "bend", false, "a line whose middle bends away from straight gets curved upper and lower edges"},
      {Stage::spaced_letters, "spaced_letters", false, "boxes of single letters in a straight chain (\"C O U N T Y\") joined into one line"},
      {Stage::line_pieces, "line_pieces", false, "pieces of one letter-spaced line (\"MIN\" \"NES\" \"OTA\") joined into one line"},
      {Stage::enlarged, "enlarged", false, "with scale 0: the image read again enlarged when its median line is low, its large lines kept"},
      {Stage::small_lettering, "small_lettering", false,
       "the image read once more, more enlarged, for lettering much smaller than most (a plan's street names); slower"},
      {Stage::turned, "turned", false, "the image read turned a quarter (everywhere, or where the upright reading saw something off the level lines)"},
      {Stage::tilted, "tilted", false,
       "the image read tilted either way (30 degrees), its lines tilted 12-60 degrees added where no line was"},
      {Stage::upside_down, "upside_down", false, "steep lines also read upside down, the more confident reading kept"},
      {Stage::lone_letters, "lone_letters", false, "a letter alone also read levelled, and with the paper about it"},
      {Stage::lone_glyphs, "lone_glyphs", false, "letters standing alone that the detector missed, looked for in the ink and read"},
      {Stage::reading, "reading", true, "every line straightened into a strip, read by the recogniser and split into words"},
      {Stage::baseline, "baseline", false, "a word alone on a short box turned to the direction its letters stand on"},
      {Stage::spaced_words, "spaced_words", false, "the words read on pieces of one letter-spaced name joined, and grown by its letters the detector did not find"},
      {Stage::ink_fit, "ink_fit", false, "each line's upper and lower edges fitted to its lettering's ink"},
  };
  return stages;
}

const StageInfo& stage_info(Stage s) { return spotter_stages()[static_cast<size_t>(s)]; }

std::vector<Stage> default_stages() {
  std::vector<Stage> out;
  for (const StageInfo& s : spotter_stages())
    if (s.stage != Stage::small_lettering && s.stage != Stage::tilted) out.push_back(s.stage);
  return out;
}

bool SpotOptions::runs(Stage s) const { return std::find(stages.begin(), stages.end(), s) != stages.end(); }

void SpotOptions::switch_on(Stage s) {
  if (runs(s)) return;
  stages.insert(std::upper_bound(stages.begin(), stages.end(), s), s);
}

void SpotOptions::switch_off(Stage s) {
  if (stage_info(s).required) throw Error(std::string("the spotter's stage ") + stage_info(s).name + " always runs");
  stages.erase(std::remove(stages.begin(), stages.end(), s), stages.end());
}

const std::vector<SpotSetting>& spot_settings() {
  using F = SpotSetting::Field;
  static const std::vector<SpotSetting> settings = {
      {"detector", "type", [](SpotOptions& o) -> F { return &o.detector; }, 0, 0, "the detector, by name: db (PP-OCR's DB detector)"},
      {"detector", "window", [](SpotOptions& o) -> F { return &o.window; }, 224, 8192, "window side in pixels (a multiple of 32)"},
      {"detector", "overlap", [](SpotOptions& o) -> F { return &o.overlap; }, 0, 4096, "pixels by which windows overlap"},
      {"recognizer", "type", [](SpotOptions& o) -> F { return &o.recognizer; }, 0, 0, "the recogniser, by name: ctc (PP-OCR's CTC recogniser)"},
      {"recognizer", "strip_height", [](SpotOptions& o) -> F { return &o.strip_height; }, 8, 256, "a line's strip, pixels high"},
      {"recognizer", "stride", [](SpotOptions& o) -> F { return &o.stride; }, 1, 64, "pixels of the strip a step of the recogniser covers"},
      {"recognizer", "space_class", [](SpotOptions& o) -> F { return &o.space_class; }, -1, 1e6, "the space's class (-1: the last)"},
      {"recognizer", "batch", [](SpotOptions& o) -> F { return &o.batch; }, 1, 1024, "strips read together (at most)"},
      {"recognizer", "alphabet", [](SpotOptions& o) -> F { return &o.alphabet; }, 0, 0, "latin (letters, digits, punctuation) | all"},
      {"recognizer", "long_s", [](SpotOptions& o) -> F { return &o.long_s; }, 0, 0, "s (the long s written as s) | keep (as printed)"},
      {"db_boxes", "threshold", [](SpotOptions& o) -> F { return &o.boxes.threshold; }, 0, 1, "probability a text pixel has"},
      {"db_boxes", "box_threshold", [](SpotOptions& o) -> F { return &o.boxes.box_threshold; }, 0, 1, "mean probability a box must reach"},
      {"db_boxes", "score_outline", [](SpotOptions& o) -> F { return &o.boxes.score_outline; }, 0, 0,
       "the mean taken inside the outline (PaddleOCR's score_mode slow), not its rectangle (fast)"},
      {"db_boxes", "unclip_ratio", [](SpotOptions& o) -> F { return &o.boxes.unclip_ratio; }, 0, 10, "a box grows by area * ratio / perimeter"},
      {"db_boxes", "min_size", [](SpotOptions& o) -> F { return &o.boxes.min_size; }, 0, 1000, "shortest side a box may have (pixels)"},
      {"db_boxes", "max_boxes", [](SpotOptions& o) -> F { return &o.boxes.max_boxes; }, 1, kBig, "outlines looked at (at most)"},
      {"bend", "bend", [](SpotOptions& o) -> F { return &o.boxes.bend; }, 0, 10, "bend away from straight, in thicknesses, that makes edges curve"},
      {"spaced_letters", "join", [](SpotOptions& o) -> F { return &o.boxes.letter_join; }, 0, 100, "letters' centres at most so many sizes apart"},
      {"spaced_letters", "aspect", [](SpotOptions& o) -> F { return &o.boxes.letter_aspect; }, 1, 10, "a single letter's sides within this ratio"},
      {"spaced_letters", "run", [](SpotOptions& o) -> F { return &o.boxes.letter_run; }, 2, 1000, "letters a chain has at least"},
      {"line_pieces", "join", [](SpotOptions& o) -> F { return &o.boxes.piece_join; }, 0, 100, "pieces' ends at most so many heights apart"},
      {"line_pieces", "height", [](SpotOptions& o) -> F { return &o.boxes.piece_height; }, 1, 10, "pieces' heights within this ratio"},
      {"line_pieces", "axis", [](SpotOptions& o) -> F { return &o.boxes.piece_axis; }, 0, 10, "pieces off one axis by at most so many heights"},
      {"enlarged", "scale", [](SpotOptions& o) -> F { return &o.scale; }, 0, 8, "the image read resized by this (0: auto, at 1 then enlarged)"},
      {"enlarged", "auto_height", [](SpotOptions& o) -> F { return &o.auto_height; }, 1, 1000, "pixels the median line is enlarged to"},
      {"enlarged", "max_scale", [](SpotOptions& o) -> F { return &o.max_scale; }, 1, 16, "enlarged at most so many times"},
      {"enlarged", "large_height", [](SpotOptions& o) -> F { return &o.large_height; }, 0, 100, "lines read at 1 this many auto_heights high kept (0: not)"},
      {"enlarged", "piece_height", [](SpotOptions& o) -> F { return &o.piece_height; }, 0, 1, "what the enlarged reading found lower than this share is a piece"},
      {"enlarged", "overlap", [](SpotOptions& o) -> F { return &o.large_overlap; }, 0, 1, "a large line replaces lines it overlaps above this share"},
      {"enlarged", "second_scale", [](SpotOptions& o) -> F { return &o.second_scale; }, 0, 1, "read again at this share of the enlargement, lines unseen added (0: not)"},
      {"enlarged", "second_overlap", [](SpotOptions& o) -> F { return &o.second_overlap; }, 0, 1, "a line found so is unseen overlapping at most this share"},
      {"small_lettering", "quantile", [](SpotOptions& o) -> F { return &o.small_quantile; }, 0, 0.99, "the lowest lines' share looked at"},
      {"small_lettering", "trigger", [](SpotOptions& o) -> F { return &o.small_trigger; }, 1, 100, "read again when they need so many times the scale"},
      {"small_lettering", "max_scale", [](SpotOptions& o) -> F { return &o.max_small_scale; }, 1, 16, "enlarged at most so many times"},
      {"small_lettering", "height", [](SpotOptions& o) -> F { return &o.small_height; }, 0, 100, "lines kept no higher than so many auto_heights"},
      {"small_lettering", "min_score", [](SpotOptions& o) -> F { return &o.small_min_score; }, 0, 1, "their words kept from this mean probability"},
      {"small_lettering", "overlap", [](SpotOptions& o) -> F { return &o.small_overlap; }, 0, 1, "a line found then is added overlapping at most this share"},
      {"turned", "unsettled", [](SpotOptions& o) -> F { return &o.unsettled; }, 0, 1, "read turned where the probability reaches this off the level lines (0: everywhere)"},
      {"turned", "overlap", [](SpotOptions& o) -> F { return &o.turned_overlap; }, 0, 1, "a steep line replaces upright lines it overlaps above this share"},
      {"turned", "line_work", [](SpotOptions& o) -> F { return &o.line_work; }, 1, 1000, "places longer than so many times their thickness are line work"},
      {"tilted", "angle", [](SpotOptions& o) -> F { return &o.tilt_angle; }, 1, 89, "the image read tilted so many degrees either way"},
      {"tilted", "unsettled", [](SpotOptions& o) -> F { return &o.tilted_unsettled; }, 0, 1, "read tilted where the probability reaches this off the level lines (0: everywhere)"},
      {"tilted", "least_tilt", [](SpotOptions& o) -> F { return &o.least_tilt; }, 0, 90, "lines found so are kept from so many degrees off level"},
      {"tilted", "most_tilt", [](SpotOptions& o) -> F { return &o.most_tilt; }, 0, 90, "... up to so many"},
      {"tilted", "overlap", [](SpotOptions& o) -> F { return &o.tilted_overlap; }, 0, 1, "a tilted line is added where it overlaps no line found before above this share"},
      {"upside_down", "angle", [](SpotOptions& o) -> F { return &o.flip_angle; }, 0, 90, "lines steeper than this (degrees) also read upside down"},
      {"lone_letters", "aspect", [](SpotOptions& o) -> F { return &o.letter_aspect; }, 1, 10, "a box shorter than this many heights is a letter alone"},
      {"lone_letters", "context", [](SpotOptions& o) -> F { return &o.letter_context; }, 1, 20, "read grown so many times along, with the paper"},
      {"lone_letters", "across", [](SpotOptions& o) -> F { return &o.letter_across; }, 1, 20, "and so many times across"},
      {"lone_letters", "grow", [](SpotOptions& o) -> F { return &o.letter_grow; }, 1, 20, "a word read so takes the box grown so many times"},
      {"lone_glyphs", "score", [](SpotOptions& o) -> F { return &o.glyph_score; }, 0, 1, "kept when read with this mean probability"},
      {"lone_glyphs", "read", [](SpotOptions& o) -> F { return &o.glyph_read; }, 1, 20, "the box read is the ink's grown so many times"},
      {"lone_glyphs", "turn", [](SpotOptions& o) -> F { return &o.glyph_turn; }, 0, 90, "also read turned so many degrees either way (0: level only)"},
      {"lone_glyphs", "min_height", [](SpotOptions& o) -> F { return &o.glyphs.min_height; }, 1, 10000, "a candidate's ink at least so many pixels high"},
      {"lone_glyphs", "max_height", [](SpotOptions& o) -> F { return &o.glyphs.max_height; }, 1, 10000, "and at most"},
      {"lone_glyphs", "min_aspect", [](SpotOptions& o) -> F { return &o.glyphs.min_aspect; }, 0, 100, "its width over its height at least"},
      {"lone_glyphs", "max_aspect", [](SpotOptions& o) -> F { return &o.glyphs.max_aspect; }, 0, 100, "and at most"},
      {"lone_glyphs", "min_fill", [](SpotOptions& o) -> F { return &o.glyphs.min_fill; }, 0, 1, "the share of its box the ink fills at least"},
      {"lone_glyphs", "max_fill", [](SpotOptions& o) -> F { return &o.glyphs.max_fill; }, 0, 1, "and at most"},
      {"lone_glyphs", "contrast", [](SpotOptions& o) -> F { return &o.glyphs.contrast; }, 0, 255, "ink darker than the mean about it by so many grey levels"},
      {"lone_glyphs", "alone", [](SpotOptions& o) -> F { return &o.glyphs.alone; }, 0, 100, "no other letter-sized mark nearer than so many heights"},
      {"lone_glyphs", "clear_of_lines", [](SpotOptions& o) -> F { return &o.glyphs.clear_of_lines; }, 0, 100, "nor a line found nearer than so many heights"},
      {"lone_glyphs", "margin", [](SpotOptions& o) -> F { return &o.glyphs.margin; }, 0, 10, "the box is the ink's grown by so many heights"},
      {"lone_glyphs", "max_candidates", [](SpotOptions& o) -> F { return &o.glyphs.max_candidates; }, 1, kBig, "per 2,048 x 2,048 px, the largest first"},
      {"reading", "min_score", [](SpotOptions& o) -> F { return &o.min_score; }, 0, 1, "words whose characters' mean probability is below are dropped"},
      {"reading", "space_probability", [](SpotOptions& o) -> F { return &o.split.space_probability; }, 0, 1, "a space heard between characters splits words"},
      {"reading", "gap_ratio", [](SpotOptions& o) -> F { return &o.split.gap_ratio; }, 1, 100, "a gap over so many median pitches splits words"},
      {"reading", "gap_steps", [](SpotOptions& o) -> F { return &o.split.gap_steps; }, 0, 1000, "and so many steps more than it"},
      {"reading", "lookalikes", [](SpotOptions& o) -> F { return &o.lookalikes; }, 0, 0, "settle (\"6O\" read as 60, \"VoL\" as VOL) | keep (as read)"},
      {"reading", "reach", [](SpotOptions& o) -> F { return &o.split.reach; }, 0, 10, "a word's outline reaches so many pitches towards the next"},
      {"baseline", "max_length", [](SpotOptions& o) -> F { return &o.baseline.max_length; }, 0, 100, "words on boxes shorter than so many heights looked at"},
      {"baseline", "max_turn", [](SpotOptions& o) -> F { return &o.baseline.max_turn; }, 0, 90, "degrees either way searched"},
      {"baseline", "min_turn", [](SpotOptions& o) -> F { return &o.baseline.min_turn; }, 0, 90, "a direction nearer the box's is not taken"},
      {"baseline", "min_contrast", [](SpotOptions& o) -> F { return &o.baseline.min_contrast; }, 0, 255, "grey levels between paper and ink at least"},
      {"baseline", "step", [](SpotOptions& o) -> F { return &o.baseline.step; }, 0.01, 90, "degrees between the directions tried"},
      {"baseline", "min_gain", [](SpotOptions& o) -> F { return &o.baseline.min_gain; }, 0, 1000, "pixels the lowest points lie closer to the line found"},
      {"spaced_words", "spaced_pitch", [](SpotOptions& o) -> F { return &o.spaced.spaced_pitch; }, 0, 100, "spaced letters lie so many heights apart at least"},
      {"spaced_words", "gap", [](SpotOptions& o) -> F { return &o.spaced.gap; }, 0, 100, "pieces join across at most so many pitches"},
      {"spaced_words", "height", [](SpotOptions& o) -> F { return &o.spaced.height; }, 1, 100, "pieces' heights within this ratio"},
      {"spaced_words", "angle", [](SpotOptions& o) -> F { return &o.spaced.angle; }, 0, 90, "pieces' directions within so many degrees"},
      {"spaced_words", "axis", [](SpotOptions& o) -> F { return &o.spaced.axis; }, 0, 10, "the next piece off the axis by at most so many heights"},
      {"spaced_words", "beyond", [](SpotOptions& o) -> F { return &o.spaced.beyond; }, 0, 10, "a spaced word read so many pitches beyond its ends for letters not found (0: not)"},
      {"spaced_words", "beyond_score", [](SpotOptions& o) -> F { return &o.spaced.beyond_score; }, 0, 1, "a letter so found kept from this probability"},
      {"ink_fit", "look", [](SpotOptions& o) -> F { return &o.ink.look; }, 0, 10, "ink looked for so far beyond each edge (of the height)"},
      {"ink_fit", "min_row_ink", [](SpotOptions& o) -> F { return &o.ink.min_row_ink; }, 0, 1, "no fit unless the most inked row holds this share"},
      {"ink_fit", "max_row_ink", [](SpotOptions& o) -> F { return &o.ink.max_row_ink; }, 0, 1, "rows holding more are not lettering"},
      {"ink_fit", "margin", [](SpotOptions& o) -> F { return &o.ink.margin; }, 0, 10, "edges lie 1 px + this share of the ink's height beyond it"},
      {"ink_fit", "min_ratio", [](SpotOptions& o) -> F { return &o.ink.min_ratio; }, 0, 100, "a fit kept from so many times the height given"},
      {"ink_fit", "max_ratio", [](SpotOptions& o) -> F { return &o.ink.max_ratio; }, 0, 100, "to so many times"},
      {"ink_fit", "min_contrast", [](SpotOptions& o) -> F { return &o.ink.min_contrast; }, 0, 255, "grey levels between paper and ink at least"},
      {"ink_fit", "rule_length", [](SpotOptions& o) -> F { return &o.ink.rule_length; }, 0, 100, "runs of ink along the line so many heights long are rules, taken out (0: kept)"},
  };
  return settings;
}

namespace {

[[noreturn]] void unknown(const std::string& where, const std::string& key, const std::vector<std::string>& known) {
  const std::string near = eval::within_edits(key, known);
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  throw Error(where + ": \"" + key + "\": not a key of the spotter's" + (near.empty() ? " (" + list + ")" : "; did you mean \"" + near + "\"?"));
}

void read_value(const SpotSetting& s, SpotOptions& o, const nlohmann::json& v, const std::string& where) {
  const std::string at = where + ": " + s.section + "." + s.key;
  std::visit(
      [&](auto* field) {
        using T = std::remove_pointer_t<decltype(field)>;
        if constexpr (std::is_same_v<T, std::string>) {
          if (!v.is_string()) throw Error(at + ": expected text, got " + v.dump());
          *field = v.get<std::string>();
        } else if constexpr (std::is_same_v<T, bool>) {
          if (!v.is_boolean()) throw Error(at + ": expected true or false, got " + v.dump());
          *field = v.get<bool>();
        } else {
          const double d = json_number(v, where, std::string(s.section) + "." + s.key);
          if (!(d >= s.lo && d <= s.hi)) throw Error(at + ": expected " + short_number(s.lo) + " to " + short_number(s.hi) + ", got " + v.dump());
          if constexpr (!std::is_same_v<T, double>) {
            if (d != std::floor(d)) throw Error(at + ": expected a whole number, got " + v.dump());
            *field = static_cast<T>(d);
          } else {
            *field = d;
          }
        }
      },
      s.field(o));
}

// What the settings must satisfy together, and the names that must be known.
void check_together(const SpotOptions& o, const std::string& where) {
  if (o.detector != "db") throw Error(where + ": detector.type: unknown detector \"" + o.detector + "\" (db)");
  if (o.recognizer != "ctc") throw Error(where + ": recognizer.type: unknown recogniser \"" + o.recognizer + "\" (ctc)");
  if (o.alphabet != "latin" && o.alphabet != "all") throw Error(where + ": recognizer.alphabet: expected latin or all, got \"" + o.alphabet + "\"");
  if (o.long_s != "s" && o.long_s != "keep") throw Error(where + ": recognizer.long_s: expected s or keep, got \"" + o.long_s + "\"");
  if (o.lookalikes != "settle" && o.lookalikes != "keep")
    throw Error(where + ": reading.lookalikes: expected settle or keep, got \"" + o.lookalikes + "\"");
  if (o.window % 32) throw Error(where + ": detector.window: expected a multiple of 32, got " + std::to_string(o.window));
  if (o.overlap + 32 > o.window)
    throw Error(where + ": detector.overlap: expected at most detector.window - 32 (" + std::to_string(o.window - 32) + "), got " +
                std::to_string(o.overlap));
  if (o.strip_height % 8) throw Error(where + ": recognizer.strip_height: expected a multiple of 8, got " + std::to_string(o.strip_height));
  if (o.scale != 0 && o.scale < 0.1) throw Error(where + ": enlarged.scale: expected 0 (auto) or 0.1 to 8, got " + short_number(o.scale));
  if (o.runs(Stage::small_lettering) && o.scale != 0)
    throw Error(where + ": small_lettering: the map is read again enlarged from the scale its lettering sets, so only with enlarged.scale 0");
}

}  // namespace

SpotOptions parse_spotter_config(const nlohmann::json& config, const std::string& where) {
  if (!config.is_object()) throw Error(where + ": expected an object of the spotter's settings");
  SpotOptions o;
  std::vector<std::string> sections = {"stages", "detector", "recognizer"};
  for (const StageInfo& s : spotter_stages()) sections.push_back(s.name);
  for (auto it = config.begin(); it != config.end(); ++it)
    if (std::find(sections.begin(), sections.end(), it.key()) == sections.end()) unknown(where, it.key(), sections);
  if (config.contains("stages")) {
    const nlohmann::json& list = config["stages"];
    if (!list.is_array()) throw Error(where + ": stages: expected a list of the stages that run, in their order");
    o.stages.clear();
    std::vector<std::string> names;
    for (const StageInfo& s : spotter_stages()) names.push_back(s.name);
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = where + ": stages[" + std::to_string(i) + "]";
      if (!list[i].is_string()) throw Error(at + ": expected a stage's name, got " + list[i].dump());
      const std::string name = list[i].get<std::string>();
      const auto k = std::find(names.begin(), names.end(), name);
      if (k == names.end()) unknown(at, name, names);
      const Stage s = spotter_stages()[static_cast<size_t>(k - names.begin())].stage;
      if (o.runs(s)) throw Error(at + ": " + name + " named twice");
      // Each stage reads what the ones before it made: the order is the pipeline's.
      if (!o.stages.empty() && s < o.stages.back())
        throw Error(at + ": " + name + " runs before " + stage_info(o.stages.back()).name + " (the stages' order: " + [&] {
          std::string all;
          for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
          return all;
        }() + ")");
      o.stages.push_back(s);
    }
    for (const StageInfo& s : spotter_stages())
      if (s.required && !o.runs(s.stage)) throw Error(where + ": stages: " + s.name + " always runs: name it");
  }
  for (const std::string& section : sections) {
    if (section == "stages" || !config.contains(section)) continue;
    const nlohmann::json& values = config[section];
    if (!values.is_object()) throw Error(where + ": " + section + ": expected an object of its settings");
    std::vector<std::string> keys;
    for (const SpotSetting& s : spot_settings())
      if (s.section == section) keys.push_back(s.key);
    for (auto it = values.begin(); it != values.end(); ++it) {
      const auto k = std::find(keys.begin(), keys.end(), it.key());
      if (k == keys.end()) {
        if (keys.empty()) throw Error(where + ": " + section + ": this stage has no settings, got \"" + it.key() + "\"");
        unknown(where + ": " + section, it.key(), keys);
      }
      for (const SpotSetting& s : spot_settings())
        if (s.section == section && s.key == it.key()) read_value(s, o, it.value(), where);
    }
  }
  check_together(o, where);
  return o;
}

SpotOptions spotter_settings(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "spotter.json").string();
  if (!std::filesystem::exists(path)) return SpotOptions{};
  return parse_spotter_config(parse_json(read_file(path), path), path);
}

nlohmann::ordered_json spotter_config_json(const SpotOptions& options) {
  SpotOptions o = options;
  nlohmann::ordered_json j;
  j["stages"] = nlohmann::ordered_json::array();
  for (const Stage s : o.stages) j["stages"].push_back(stage_info(s).name);
  for (const SpotSetting& s : spot_settings())
    std::visit([&](auto* field) { j[s.section][s.key] = *field; }, s.field(o));
  return j;
}

void write_spotter_config(const std::string& dir, const SpotOptions& options) {
  write_file_atomic((std::filesystem::path(dir) / "spotter.json").string(), spotter_config_json(options).dump(2) + "\n");
}

std::string describe_stages(const SpotOptions& options) {
  SpotOptions o = options;
  std::string out;
  const auto settings_of = [&](const std::string& section) {
    for (const SpotSetting& s : spot_settings())
      if (s.section == section)
        std::visit([&](auto* field) { out += "    " + std::string(s.key) + " = " + nlohmann::json(*field).dump() + "  (" + s.help + ")\n"; },
                   s.field(o));
  };
  for (const char* section : {"detector", "recognizer"}) {
    out += std::string(section) + "\n";
    settings_of(section);
  }
  for (const StageInfo& stage : spotter_stages()) {
    out += std::string(stage.name) + (o.runs(stage.stage) ? (stage.required ? "  [always runs]" : "  [runs]") : "  [off]") + "\n    " +
           stage.does + "\n";
    settings_of(stage.name);
  }
  return out;
}

}  // namespace light::spot
