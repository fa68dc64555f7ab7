// The spotter's settings: which of its stages run, and each stage's settings. A spotter folder
// carries them in its spotter.json (spot/spotter_config.h reads and writes it); the defaults here are
// the bundled spotter's. docs/spotter.md describes every stage.
#pragma once
#include <string>
#include <vector>

#include "light/spot/baseline.h"
#include "light/spot/ink_extent.h"
#include "light/spot/lone_glyphs.h"
#include "light/spot/reading.h"
#include "light/spot/spaced_words.h"
#include "light/spot/text_boxes.h"

namespace light::spot {

// The spotter's stages in the order they run (spotter_stages() names them and says what each does).
enum class Stage {
  db_boxes,         // the detector's probability map to text lines, as PaddleOCR's DB post-processing
  bend,             // curved edges for a line set along a curve
  spaced_letters,   // single letters of a letter-spaced name joined into lines
  line_pieces,      // pieces of one letter-spaced line joined
  enlarged,         // the image read again enlarged when its lettering is small
  small_lettering,  // and again, more enlarged, for lettering much smaller than most
  turned,           // the image read turned a quarter where steep lettering may be
  tilted,           // the image read tilted either way where tilted lettering may be
  upside_down,      // steep lines also read upside down
  lone_letters,     // a letter alone also read levelled and with the paper about it
  lone_glyphs,      // letters alone the detector missed, looked for in the ink
  reading,          // every line read by the recogniser and split into words
  baseline,         // a short word turned to where its letters stand on one line
  spaced_words,     // the pieces of letter-spaced words joined, and grown by letters not found
  ink_fit,          // each line's upper and lower edges fitted to its lettering's ink
};

// The stages a spotter runs unless its spotter.json says otherwise: all but small_lettering and tilted.
std::vector<Stage> default_stages();

struct SpotOptions {
  // Which stages run, in the pipeline's order (db_boxes and reading always do).
  std::vector<Stage> stages = default_stages();
  bool runs(Stage s) const;
  void switch_on(Stage s);   // added in its place in the order
  void switch_off(Stage s);  // light::Error for db_boxes and reading

  // detector: the model that gives every pixel's text probability, chosen by name ("db": PP-OCR's
  // DB detector), read in windows of `window` pixels (a multiple of 32) overlapping by `overlap`.
  std::string detector = "db";
  int window = 1536;
  int overlap = 192;
  // recognizer: the model that reads a straightened line, chosen by name ("ctc": PP-OCR's CTC
  // recogniser): strips `strip_height` px high, one step every `stride` px, the space's class
  // `space_class` (-1: the last of the dictionary, as in PaddleOCR's), `batch` strips read together
  // (at most; only strips of one padded width are), `alphabet` latin | all (spot/reading Dictionary::allowed).
  std::string recognizer = "ctc";
  int strip_height = 48;
  int stride = 8;
  int space_class = -1;
  int batch = 16;
  std::string alphabet = "latin";
  // The long s (ſ), where the recogniser has a class for it: "s" writes it as the round s a reader
  // types today ("Preſsburg" as "Pressburg"), "keep" as printed.
  std::string long_s = "s";

  TextBoxOptions boxes;  // db_boxes, bend (boxes.bend), spaced_letters (boxes.letter_*), line_pieces (boxes.piece_join)

  // enlarged: the detector reads the image resized by `scale`; 0: at 1, then, when the median line
  // found is lower than auto_height pixels, again enlarged to make it so (at most max_scale).
  double scale = 0;
  // Real lettering among line work and hatching is found better seen larger than the synthetic
  // tiles asked for (28 px, at most 3): chosen on the real dev scans and Paris tiles.
  double auto_height = 40;
  double max_scale = 4;
  // Enlarged so, lettering that was already large is lost: the lines read at 1 that the enlargement
  // makes higher than `large_height` times auto_height are kept (spot/text_boxes merge_large_lines;
  // 0: not), replacing what the enlarged reading made of them where it found only pieces lower than
  // `piece_height` times theirs.
  double large_height = 2;
  double piece_height = 0.7;
  double large_overlap = 0.2;  // a line overlaps another: their common area over the smaller's above this
  // No one enlargement sees every family of lettering (a plan's engraved names among hatching are
  // found at a lower one than its neighbours' italics): with `second_scale` > 0 the image is read
  // again at that share of the enlargement (at least 1), and the lines found there that overlap none
  // found before (their common area over the smaller's at most `second_overlap`) are added.
  double second_scale = 0.6;  // chosen on the dev scans
  double second_overlap = 0.1;
  // small_lettering: lettering much smaller than most of a map's (a plan's street names among its
  // districts' names) stays too small for the detector at the scale the median line sets. Where the
  // lowest `small_quantile` of the lines found would need `small_trigger` times that scale or more to
  // be auto_height pixels high, the image is read again so enlarged (at most `max_small_scale`), and
  // the lines found there no higher than `small_height` times auto_height that overlap none found
  // before are added (spot/text_boxes add_unseen_lines; with `scale` 0 only). Lettering so small is
  // read less surely: their words are kept from `small_min_score`. Off by default (`light spot
  // --small-lettering` switches it on): the map is read once more, enlarged, which costs time.
  double small_quantile = 0.1;
  void read_small_lettering() { switch_on(Stage::small_lettering); }  // as `--small-lettering` asks
  double small_trigger = 1.25;
  double max_small_scale = 4;
  double small_height = 1.5;
  double small_min_score = 0.8;
  double small_overlap = 0.1;  // a line found then overlaps none found before: their common area over the smaller's at most this
  // turned: the image is also read turned a quarter where the upright reading's probability reaches
  // `unsettled` outside the level lines it found (0: everywhere), and the steep lines found so are
  // kept (Spotter::lines), replacing the upright lines they overlap (common area over the smaller's
  // above `turned_overlap`) unless one is level. A place the upright probability reaches more than
  // `line_work` times as long as thick is line work, not read turned.
  double unsettled = 0;
  double turned_overlap = 0.3;
  double line_work = 25;
  // tilted: the image is also read tilted by `tilt_angle` degrees either way (where its upright
  // probability reaches `tilted_unsettled` outside the level lines found, as the turned stage
  // chooses its places; 0: everywhere), and the lines found so that lie `least_tilt` to `most_tilt`
  // degrees from level (and are 1.5 times as long as high) are added where they overlap no line
  // found before (common area over the smaller's at most `tilted_overlap`): the detector finds words
  // set at 15-40 degrees along a road or a railway less well than level ones.
  double tilt_angle = 30;
  double tilted_unsettled = 0;
  double least_tilt = 12;
  double most_tilt = 60;
  double tilted_overlap = 0.3;
  double flip_angle = 60;  // upside_down: lines steeper than this (degrees) are also read upside down
  // lone_letters: a box less than `letter_aspect` times as long as high (a letter alone: a block's
  // letter, a sheet's figure) is read along its side nearer level, and also with the paper about it:
  // grown `letter_context` times along and `letter_across` times across, keeping what is read on the
  // box. The more confident reading wins; with the paper's, the word's polygon is the box grown
  // `letter_grow` times.
  double letter_aspect = 1.5;
  double letter_context = 3;
  double letter_across = 1.4;
  double letter_grow = 1.15;
  // lone_glyphs: letters standing alone that the detector did not see, looked for in the ink
  // (spot/lone_glyphs.h) and read with the paper about them: kept when read as one or two letters or
  // figures with a mean probability of at least `glyph_score`.
  LoneGlyphOptions glyphs;
  double glyph_score = 0.9;
  double glyph_read = 1.45;  // the box read is the candidate's grown so many times (as high as the detector's box of a letter)
  double glyph_turn = 30;    // and read turned either way by so many degrees (0: level only)
  // reading: words whose characters' mean probability is below `min_score` are dropped; `split`
  // splits a line's characters into words (spot/reading.h).
  double min_score = 0.5;
  SplitOptions split;
  // "settle": a word's look-alike characters settled by the word they are in ("6O" 60, "VoL" VOL:
  // spot/reading.h settle_lookalikes); "keep": as read.
  std::string lookalikes = "settle";
  // baseline: a word read alone on a short box (less than baseline.max_length times as long as high:
  // "St.", "Co.", a pair of letters found in the ink) turns to the direction its letters' lowest
  // points line up along (spot/baseline.h).
  BaselineOptions baseline;
  SpacedWordOptions spaced;  // spaced_words (spot/spaced_words.h)
  InkExtentOptions ink;      // ink_fit (spot/ink_extent.h)
};

}  // namespace light::spot
