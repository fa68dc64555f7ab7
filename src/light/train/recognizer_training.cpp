#include "light/train/recognizer_training.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <random>

#include <nlohmann/json.hpp>

#include "light/data/text_lines.h"
#include "light/data/tile_image.h"
#include "light/data/word_crops.h"
#include "light/error.h"
#include "light/eval/edit_distance.h"
#include "light/geometry/polygon.h"
#include "light/model/checkpoint.h"
#include "light/model/device.h"
#include "light/model/ppocr_rec.h"
#include "light/text/ctc_dictionary.h"
#include "light/text/latin_letters.h"
#include "light/train/spotter_run.h"
#include "light/util/fs.h"
#include "light/util/progress.h"
#include "light/util/utf8.h"

namespace light::train {

namespace fs = std::filesystem;

namespace {

struct WordExample {
  data::WordStrip strip;
  std::vector<int> target;
  std::string text;
};

// Every legible word with a text the dictionary can spell in the allowed alphabet, straightened; with
// `lines`, each run of such words of a phrase on one line (data::same_line_runs) as one strip whose text
// holds their spaces, grown by a margin like a detector's box (random in training, fixed in validation).
// At most `max_units` (a random choice of them when there are more).
std::vector<WordExample> load_words(const std::string& json, const std::string& images, const text::Dictionary& dict,
                                    const std::vector<bool>& allowed, int max_units, uint64_t seed, bool progress, const char* what,
                                    bool lines, bool random_margin) {
  const maptext::Dataset data = maptext::read_maptext(json, {maptext::Kind::GroundTruth});
  struct Ref {
    size_t tile;
    std::vector<std::vector<maptext::Point>> polygons;
    std::string text;
  };
  std::vector<Ref> refs;
  size_t unspellable = 0;
  for (size_t t = 0; t < data.size(); ++t)
    for (const auto& g : data[t].groups) {
      // The phrase's readable words, cut into segments at any word that is not.
      std::vector<std::vector<std::pair<std::vector<maptext::Point>, std::string>>> segments(1);
      for (const auto& w : g) {
        const bool legible = !w.ignore() && w.text && !w.text->empty();
        const auto ids = legible ? dict.encode(*w.text) : std::nullopt;
        const geometry::Resampled p = geometry::resample_word_polygon(w.vertices, 16);
        if (!ids || !p.ok || std::any_of(ids->begin(), ids->end(), [&](int c) { return !allowed[static_cast<size_t>(c)]; })) {
          unspellable += legible;
          if (!segments.back().empty()) segments.emplace_back();
          continue;
        }
        segments.back().push_back({p.polygon, *w.text});
      }
      for (const auto& seg : segments) {
        if (seg.empty()) continue;
        std::vector<std::vector<maptext::Point>> polys;
        for (const auto& [poly, text] : seg) polys.push_back(poly);
        std::vector<data::LineRun> runs;  // each word its own run, or the phrase's lines
        if (lines)
          runs = data::same_line_runs(polys);
        else
          for (size_t i = 0; i < polys.size(); ++i) runs.push_back({i, i});
        for (const auto& run : runs) {
          Ref r{t, {}, {}};
          for (size_t i = run.first; i <= run.last; ++i) {
            r.polygons.push_back(polys[i]);
            r.text += (i > run.first ? " " : "") + seg[i].second;
          }
          refs.push_back(std::move(r));
        }
      }
    }
  std::mt19937_64 rng(seed);
  if (max_units > 0 && refs.size() > static_cast<size_t>(max_units)) {
    std::shuffle(refs.begin(), refs.end(), rng);
    refs.resize(static_cast<size_t>(max_units));
    std::stable_sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.tile < b.tile; });
  }
  std::vector<WordExample> out;
  Progress bar(std::string(lines ? "lines (" : "words (") + what + ")", refs.size(), lines ? "lines" : "words");
  if (!progress) bar.finish();
  size_t loaded_tile = SIZE_MAX;
  image::RgbImage img;
  std::uniform_real_distribution<double> across(0.0, 0.2), along(0.0, 0.4);
  for (const Ref& r : refs) {
    if (r.tile != loaded_tile) {
      img = image::read_rgb(data::find_tile_image(images, data[r.tile].image));
      loaded_tile = r.tile;
    }
    WordExample e;
    const std::vector<maptext::Point> polygon =
        !lines ? r.polygons.front() : random_margin ? data::line_polygon(r.polygons, across(rng), along(rng)) : data::line_polygon(r.polygons, 0.1, 0.2);
    e.strip = data::straighten_word(img, polygon, 48, 48 * 25);
    e.target = *dict.encode(r.text);
    e.text = r.text;
    if (static_cast<size_t>(e.strip.width / 8) < e.target.size()) continue;  // too short to read its letters
    out.push_back(std::move(e));
    if (progress) bar.add();
  }
  if (progress) bar.finish();
  if (progress && unspellable)
    std::fprintf(stderr, "note: %s: %zu word(s) with characters outside the dictionary or the alphabet left out\n", json.c_str(), unspellable);
  if (out.empty()) throw Error(json + ": no legible word with a transcription to learn from");
  return out;
}

// A batch of strips as the recogniser's input: [b, 3, 48, W] (W the widest, a multiple of 8), BGR,
// (x/255 - 0.5)/0.5, padded with 0; and each strip's own step count.
torch::Tensor batch_pixels(const std::vector<const WordExample*>& batch, std::vector<int64_t>& steps) {
  int width = 8;
  for (const auto* e : batch) width = std::max(width, (e->strip.width + 7) / 8 * 8);
  torch::Tensor x = torch::zeros({static_cast<int64_t>(batch.size()), 3, 48, width});
  steps.clear();
  for (size_t i = 0; i < batch.size(); ++i) {
    data::recognizer_planes(batch[i]->strip, width, x.data_ptr<float>() + i * 3 * 48 * static_cast<size_t>(width));
    steps.push_back(std::max<int64_t>(1, batch[i]->strip.width / 8));
  }
  return x;
}

std::string greedy_text(const torch::Tensor& ids, int64_t steps, const text::Dictionary& dict) {
  std::string out;
  int prev = 0;
  for (int64_t t = 0; t < steps; ++t) {
    const int id = static_cast<int>(ids[t].item<int64_t>());
    if (id != 0 && id != prev) out += dict.text(id);
    prev = id;
  }
  return out;
}

RecognizerScore score(model::TextRecognizerImpl& rec, const std::vector<WordExample>& words, const torch::Tensor& ids,
                      const text::Dictionary& dict, int batch_size) {
  torch::NoGradGuard no_grad;
  RecognizerScore s;
  double chars = 0;
  for (size_t at = 0; at < words.size(); at += static_cast<size_t>(batch_size)) {
    std::vector<const WordExample*> batch;
    for (size_t i = at; i < std::min(words.size(), at + static_cast<size_t>(batch_size)); ++i) batch.push_back(&words[i]);
    std::vector<int64_t> steps;
    const torch::Tensor best = rec.forward(batch_pixels(batch, steps), ids).argmax(-1);
    const torch::Tensor classes = ids.index_select(0, best.flatten()).view_as(best);
    for (size_t i = 0; i < batch.size(); ++i) {
      const std::string read = greedy_text(classes[static_cast<int64_t>(i)], steps[i], dict);
      s.exact += read == batch[i]->text;
      chars += 1.0 - eval::normalized_levenshtein(read, batch[i]->text);
      ++s.words;
    }
  }
  s.exact /= static_cast<double>(std::max<size_t>(1, s.words));
  s.char_accuracy = chars / static_cast<double>(std::max<size_t>(1, s.words));
  return s;
}

// A new class starts this much below the plain letter it copies (in logit), so that it is read only
// once training has taught it apart: e^-2, a seventh of the plain letter's probability.
constexpr double kNewClassBiasDrop = 2.0;

// The letters --add-characters names that the dictionary lacks, in the order given (latin_letters'
// for "latin"); each must be one of text::latin_letters() (its row starts from its plain letter's).
std::vector<char32_t> characters_to_add(const std::string& spec, const text::Dictionary& dict) {
  if (!is_valid_utf8(spec)) throw Error("--add-characters: not UTF-8");
  const std::u32string given = spec == "latin" ? std::u32string(text::latin_letters().begin(), text::latin_letters().end()) : utf8_decode(spec);
  std::vector<char32_t> out;
  for (const char32_t c : given) {
    if (text::plain_letter(c) == 0)
      throw Error("--add-characters: \"" + utf8_encode(std::u32string(1, c)) +
                  "\" is not a letter of Latin-1 or Latin Extended-A (or the long s): a new class starts from its plain letter's row");
    if (!dict.encode(utf8_encode(std::u32string(1, c))) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  if (out.empty()) throw Error("--add-characters: the recogniser's dictionary has every one of these already (\"" + spec + "\")");
  return out;
}

}  // namespace

RecognizerScore train_recognizer(const RecognizerTrainOptions& o) {
  check_spotter_run(o.spotter_dir, o.lr, o.out_dir, o.resume);
  if (o.epochs < 1 || o.batch_size < 1) throw Error("--max-epochs and --batch-size: expected at least 1");
  const fs::path out(o.out_dir);
  model::set_threads(o.threads);
  if (o.learn != "all" && o.learn != "added") throw Error("--learn: expected all or added, got \"" + o.learn + "\"");
  if (o.learn == "added" && o.resume)
    throw Error("--learn added: a new run's option, with --add-characters (a run of minutes: start it again with a new --out)");
  if (o.learn == "added" && o.add_characters.empty())
    throw Error("--learn added: learns the classes --add-characters adds; give the letters (or latin)");
  if (o.resume && !o.add_characters.empty())
    throw Error("--add-characters: a new run's option (the run in " + o.out_dir + " holds the classes it started with)");
  // A resumed run reads its own dictionary and recogniser, which may hold classes the spotter lacks.
  const std::string keys = o.resume ? (out / "best" / "keys.txt").string() : o.spotter_dir + "/keys.txt";
  model::TextRecognizer rec = model::load_text_recognizer(o.resume ? (out / "last.safetensors").string() : o.spotter_dir + "/recognizer.safetensors");
  text::Dictionary dict(keys, static_cast<int>(rec->classes));
  size_t added_count = 0;
  if (!o.add_characters.empty()) {
    std::vector<int64_t> rows;
    std::vector<std::string> added;
    for (const char32_t c : characters_to_add(o.add_characters, dict)) {
      rows.push_back(dict.encode(utf8_encode(std::u32string(1, text::plain_letter(c)))).value().at(0));
      added.push_back(utf8_encode(std::u32string(1, c)));
    }
    rec = model::with_classes_added(rec, rows, kNewClassBiasDrop);
    added_count = rows.size();
    dict = dict.with_characters(added);
  }
  const std::vector<bool> allowed = dict.allowed(o.alphabet);
  // The classes read and learnt: the blank and the alphabet's; the CTC head's other rows stay as they are.
  std::vector<int64_t> ids_list, position(static_cast<size_t>(dict.classes()), -1);
  for (int c = 0; c < dict.classes(); ++c)
    if (c == 0 || allowed[c]) {
      position[static_cast<size_t>(c)] = static_cast<int64_t>(ids_list.size());
      ids_list.push_back(c);
    }
  const torch::Tensor ids = torch::tensor(ids_list, torch::kLong);
  if (o.units != "lines" && o.units != "words") throw Error("--units: expected lines or words, got \"" + o.units + "\"");
  const bool lines = o.units == "lines";
  const auto train =
      load_words(o.train_json, o.train_images, dict, allowed, o.max_words, static_cast<uint64_t>(o.seed), o.progress, "training", lines, true);
  const auto val = load_words(o.val_json, o.val_images, dict, allowed, std::max(0, o.max_words / 5), 7, o.progress, "validation", lines, false);
  int first_epoch = 1;
  RecognizerScore best;
  if (o.resume) {
    const nlohmann::json state = resume_spotter_run(*rec, o.out_dir, {"best_words", "best_exact", "best_char_accuracy"});
    first_epoch = state.at("epoch").get<int>() + 1;
    best = {state.at("best_words").get<size_t>(), state.at("best_exact").get<double>(), state.at("best_char_accuracy").get<double>()};
  } else {
    start_spotter_run(o.spotter_dir, o.out_dir);
    if (!o.add_characters.empty()) {  // the run's spotter folder reads the new classes from the start
      write_file_atomic((out / "best" / "keys.txt").string(), dict.keys_text());
      model::write_state(*rec, (out / "best" / "recognizer.safetensors").string(), {{"fine_tuned_from", o.spotter_dir}});
    }
    rec->eval();
    best = score(*rec, val, ids, dict, o.batch_size);
    if (o.progress)
      std::fprintf(stderr, "epoch 0: validation %zu %s: exact %.3f, characters %.3f\n", best.words, o.units.c_str(), best.exact, best.char_accuracy);
  }
  rec->eval();  // batch norm keeps its statistics
  // Every weight learns; with learn "added" only the CTC head's rows of the added classes (between the
  // released rows and the space, the last) move: every other weight is held (no gradient), and the
  // head's other rows get a zero gradient (Adam's step is then 0 for them).
  const bool added_alone = o.learn == "added";
  const auto& fc = rec->head->ctc_head->fc;
  std::vector<torch::Tensor> learning = rec->parameters();
  if (added_alone) {
    for (auto& p : learning) p.set_requires_grad(false);
    learning = {fc->weight, fc->bias};
    for (auto& p : learning) p.set_requires_grad(true);
  }
  torch::optim::Adam opt(learning, torch::optim::AdamOptions(o.lr));
  const int64_t added_from = rec->classes - 1 - static_cast<int64_t>(added_count);
  const auto hold_all_but_added_rows = [&] {
    for (auto& p : learning) {
      p.grad().narrow(0, 0, added_from).zero_();
      p.grad().narrow(0, rec->classes - 1, 1).zero_();
    }
  };
  std::mt19937_64 rng(static_cast<uint64_t>(o.seed) * 1000 + static_cast<uint64_t>(first_epoch));
  // Batches of words of similar widths (little padding), in a random order each epoch.
  std::vector<size_t> by_width(train.size());
  std::iota(by_width.begin(), by_width.end(), 0);
  std::stable_sort(by_width.begin(), by_width.end(), [&](size_t a, size_t b) { return train[a].strip.width < train[b].strip.width; });
  std::vector<size_t> batch_starts;
  for (size_t at = 0; at < by_width.size(); at += static_cast<size_t>(o.batch_size)) batch_starts.push_back(at);
  for (int epoch = first_epoch; epoch <= o.epochs; ++epoch) {
    std::shuffle(batch_starts.begin(), batch_starts.end(), rng);
    Progress bar("epoch " + std::to_string(epoch), batch_starts.size(), "steps");
    if (!o.progress) bar.finish();
    double loss_sum = 0;
    size_t steps_done = 0;
    for (const size_t at : batch_starts) {
      std::vector<const WordExample*> batch;
      for (size_t i = at; i < std::min(by_width.size(), at + static_cast<size_t>(o.batch_size)); ++i) batch.push_back(&train[by_width[i]]);
      std::vector<int64_t> steps, lengths;
      std::vector<int64_t> targets;
      const torch::Tensor x = batch_pixels(batch, steps);
      for (const auto* e : batch) {
        for (const int c : e->target) targets.push_back(position[static_cast<size_t>(c)]);
        lengths.push_back(static_cast<int64_t>(e->target.size()));
      }
      const torch::Tensor log_probs = torch::log_softmax(rec->forward(x, ids), -1).transpose(0, 1);  // [T, b, K]
      const torch::Tensor loss = torch::ctc_loss(log_probs, torch::tensor(targets), steps, lengths, 0, at::Reduction::Mean, true);
      opt.zero_grad();
      loss.backward();
      if (added_alone) hold_all_but_added_rows();
      torch::nn::utils::clip_grad_norm_(learning, 5.0);
      opt.step();
      loss_sum += loss.item<double>();
      ++steps_done;
      if (o.progress) bar.add();
    }
    if (o.progress) bar.finish();
    const RecognizerScore s = score(*rec, val, ids, dict, o.batch_size);
    const bool better = s.char_accuracy > best.char_accuracy;
    if (better) {
      best = s;
      model::write_state(*rec, (out / "best" / "recognizer.safetensors").string(), {{"fine_tuned_from", o.spotter_dir}});
    }
    model::write_state(*rec, (out / "last.safetensors").string());
    write_file_atomic((out / "state.json").string(), nlohmann::json{{"epoch", epoch}, {"best_words", best.words}, {"best_exact", best.exact},
                                                                     {"best_char_accuracy", best.char_accuracy}}
                                                         .dump());
    const nlohmann::json line{{"epoch", epoch}, {"train_loss", loss_sum / std::max<size_t>(1, steps_done)}, {"val_exact", s.exact},
                              {"val_char_accuracy", s.char_accuracy}, {"best", better}};
    append_run_log(o.out_dir, line.dump());
    if (o.progress)
      std::fprintf(stderr, "epoch %d: train loss %.4f, validation exact %.3f, characters %.3f%s\n", epoch, loss_sum / std::max<size_t>(1, steps_done),
                   s.exact, s.char_accuracy, better ? " (best)" : "");
  }
  return best;
}

}  // namespace light::train
