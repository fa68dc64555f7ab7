#include "light/train/detector_training.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>

#include "light/data/detector_targets.h"
#include "light/data/text_lines.h"
#include "light/data/tile_image.h"
#include "light/error.h"
#include "light/geometry/polygon.h"
#include "light/model/checkpoint.h"
#include "light/model/device.h"
#include "light/model/ppocr_det.h"
#include "light/train/spotter_run.h"
#include "light/util/fs.h"
#include "light/util/progress.h"

namespace light::train {

namespace fs = std::filesystem;

namespace {

using maptext::Point;

// A tile's regions to find: 16-point word polygons (or a line's polygon around a run of them) and
// whether each is to be masked out (illegible).
struct TileRegions {
  std::string image;
  std::vector<std::vector<Point>> polygons;
  std::vector<bool> ignore;
  double median_height = 0;
};

std::vector<TileRegions> load_regions(const std::string& json, const std::string& images, bool lines) {
  const maptext::Dataset data = maptext::read_maptext(json, {maptext::Kind::GroundTruth});
  std::vector<TileRegions> out;
  for (const auto& tile : data) {
    TileRegions t;
    t.image = data::find_tile_image(images, tile.image);
    // Every tile is read before the run starts, so that an unreadable one stops it with no run written.
    const auto [w, h] = image::image_size(t.image);
    if (static_cast<uint64_t>(w) * static_cast<uint64_t>(h) > image::kMaxImagePixels)
      throw Error(t.image + ": " + std::to_string(w) + " x " + std::to_string(h) + " px, more than a training tile may have");
    std::vector<double> heights;
    for (const auto& g : tile.groups) {
      std::vector<std::vector<Point>> legible;  // a run of legible words, cut at an illegible one
      auto flush = [&] {
        if (legible.empty()) return;
        if (lines)
          for (const auto& r : data::same_line_runs(legible))
            t.polygons.push_back(data::line_polygon({legible.begin() + static_cast<long>(r.first), legible.begin() + static_cast<long>(r.last) + 1}));
        else
          t.polygons.insert(t.polygons.end(), legible.begin(), legible.end());
        t.ignore.resize(t.polygons.size(), false);
        legible.clear();
      };
      for (const auto& w : g) {
        const geometry::Resampled p = geometry::resample_word_polygon(w.vertices, 16);
        if (!p.ok) continue;
        if (w.ignore()) {
          flush();
          t.polygons.push_back(p.polygon);
          t.ignore.push_back(true);
          continue;
        }
        heights.push_back(geometry::reading_frame(p.polygon).height);
        legible.push_back(p.polygon);
      }
      flush();
    }
    if (heights.empty()) continue;
    std::nth_element(heights.begin(), heights.begin() + static_cast<long>(heights.size() / 2), heights.end());
    t.median_height = heights[heights.size() / 2];
    out.push_back(std::move(t));
  }
  if (out.empty()) throw Error(json + ": no tile with a legible word to learn from");
  return out;
}

// A crop's median word height, drawn evenly on a log scale: a range of 16-128 px gives 16-32 as many
// crops as 64-128.
struct LogUniform {
  std::uniform_real_distribution<double> log_height;
  LogUniform(double low, double high) : log_height(std::log(low), std::log(high)) {}
  double operator()(std::mt19937_64& rng) { return std::exp(log_height(rng)); }
};

struct Crop {
  std::vector<float> planes;  // [3, S, S]
  data::DetectorTargets targets;
  data::DetectorBorders borders;  // with the threshold branch only
};

// What a crop's targets are: kernels grown back by `unclip` (0: DB's), and DB's threshold map.
struct CropKind {
  double unclip = 0;
  bool borders = false;
};

// A crop of S x S px of a tile scaled so that its median word is `word_height` px high, centred near a
// random word (or anywhere, one time in four).
Crop make_crop(const TileRegions& t, const image::RgbImage& img, int S, double word_height, const CropKind& kind, std::mt19937_64& rng) {
  const double scale = std::clamp(word_height / std::max(1.0, t.median_height), 0.2, 4.0);
  const double side = S / scale;  // the crop's side in the tile's pixels
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double cx, cy;
  if (!t.polygons.empty() && unit(rng) < 0.75) {
    const auto& p = t.polygons[static_cast<size_t>(unit(rng) * static_cast<double>(t.polygons.size())) % t.polygons.size()];
    cx = (p.front().x + p[p.size() / 2].x) / 2 + (unit(rng) - 0.5) * side * 0.6;
    cy = (p.front().y + p[p.size() / 2].y) / 2 + (unit(rng) - 0.5) * side * 0.6;
  } else {
    cx = unit(rng) * img.width;
    cy = unit(rng) * img.height;
  }
  const int x0 = static_cast<int>(std::floor(cx - side / 2)), y0 = static_cast<int>(std::floor(cy - side / 2));
  const int src = std::max(1, static_cast<int>(std::ceil(side)));
  const image::RgbImage part = image::pil_resize_bilinear(image::crop_padded(img, x0, y0, src, src, 255), S, S);
  const double k = static_cast<double>(S) / src;
  std::vector<std::vector<Point>> polygons;
  std::vector<bool> ignore;
  for (size_t i = 0; i < t.polygons.size(); ++i) {
    std::vector<Point> q;
    bool near = false;
    for (const Point& p : t.polygons[i]) {
      q.push_back({(p.x - x0) * k, (p.y - y0) * k});
      near |= q.back().x > -S && q.back().x < 2 * S && q.back().y > -S && q.back().y < 2 * S;
    }
    if (!near) continue;
    polygons.push_back(std::move(q));
    ignore.push_back(t.ignore[i]);
  }
  Crop c;
  c.planes.resize(static_cast<size_t>(3) * S * S);
  data::detector_planes(part.rgb.data(), S, S, static_cast<size_t>(S) * 3, S, S, c.planes.data());
  c.targets = data::detector_targets(polygons, ignore, S, S, 4.0, kind.unclip);
  if (kind.borders) c.borders = data::detector_borders(polygons, ignore, S, S);
  return c;
}

// DB's probability-map losses: balanced BCE (every text pixel, the 3x as many hardest background
// pixels) + Dice; and the pixel F of p > 0.3 against the kernels (where the mask looks).
struct Losses {
  torch::Tensor loss;
  double tp = 0, fp = 0, fn = 0;
};

// With the threshold branch (`thresh` its map, in 0-1), DB's whole loss as PaddleOCR's DBLoss: 5 x the
// balanced cross-entropy, 10 x the threshold map's L1 where its mask looks, and the Dice loss of the
// approximate binary map 1 / (1 + exp(-50 (P - T))) in place of P's.
struct Thresholds {
  torch::Tensor map, target, mask;
};

Losses db_losses(const torch::Tensor& logits, const torch::Tensor& gt, const torch::Tensor& mask, const Thresholds* thresh = nullptr) {
  const torch::Tensor bce = torch::binary_cross_entropy_with_logits(logits, gt, {}, {}, at::Reduction::None);
  const torch::Tensor pos = gt * mask, neg = (1 - gt) * mask;
  const int64_t n_pos = static_cast<int64_t>(pos.sum().item<double>());
  const int64_t n_neg = std::min<int64_t>(static_cast<int64_t>(neg.sum().item<double>()), std::max<int64_t>(3 * n_pos, 1000));
  const torch::Tensor pos_loss = (bce * pos).sum();
  const torch::Tensor neg_loss = std::get<0>((bce * neg).flatten().topk(n_neg)).sum();
  const torch::Tensor balanced = (pos_loss + neg_loss) / static_cast<double>(n_pos + n_neg + 1e-6);
  const torch::Tensor p = torch::sigmoid(logits);
  auto dice_of = [&](const torch::Tensor& m) { return 1 - 2 * (m * gt * mask).sum() / ((m * mask).sum() + (gt * mask).sum() + 1e-6); };
  Losses l;
  if (thresh) {
    const torch::Tensor l1 = ((thresh->map - thresh->target).abs() * thresh->mask).sum() / (thresh->mask.sum() + 1e-6);
    l.loss = 5 * balanced + 10 * l1 + dice_of(torch::sigmoid(50 * (p - thresh->map)));
  } else {
    l.loss = balanced + dice_of(p);
  }
  torch::NoGradGuard no_grad;
  const torch::Tensor hit = (p > 0.3).to(torch::kFloat) * mask;
  l.tp = (hit * gt).sum().item<double>();
  l.fp = (hit * (1 - gt)).sum().item<double>();
  l.fn = ((1 - hit) * gt * mask).sum().item<double>();
  return l;
}

torch::Tensor stack_planes(const std::vector<const Crop*>& batch, int S, bool targets_wanted, torch::Tensor* gt, torch::Tensor* mask,
                           const c10::Device& device) {
  const int64_t b = static_cast<int64_t>(batch.size());
  torch::Tensor x = torch::empty({b, 3, S, S});
  if (targets_wanted) {
    *gt = torch::empty({b, 1, S, S});
    *mask = torch::empty({b, 1, S, S});
  }
  for (int64_t i = 0; i < b; ++i) {
    std::copy(batch[i]->planes.begin(), batch[i]->planes.end(), x[i].data_ptr<float>());
    if (!targets_wanted) continue;
    float* g = (*gt)[i].data_ptr<float>();
    float* m = (*mask)[i].data_ptr<float>();
    for (size_t k = 0; k < batch[i]->targets.text.size(); ++k) {
      g[k] = batch[i]->targets.text[k];
      m[k] = batch[i]->targets.mask[k];
    }
  }
  if (targets_wanted) {
    *gt = gt->to(device);
    *mask = mask->to(device);
  }
  return x.to(device);
}

// The crops' threshold maps and their masks, [B, 1, S, S] each.
Thresholds stack_borders(const std::vector<const Crop*>& batch, int S, const c10::Device& device) {
  const int64_t b = static_cast<int64_t>(batch.size());
  Thresholds t{torch::Tensor(), torch::empty({b, 1, S, S}), torch::empty({b, 1, S, S})};
  for (int64_t i = 0; i < b; ++i) {
    const data::DetectorBorders& d = batch[i]->borders;
    std::copy(d.threshold.begin(), d.threshold.end(), t.target[i].data_ptr<float>());
    float* m = t.mask[i].data_ptr<float>();
    for (size_t k = 0; k < d.mask.size(); ++k) m[k] = d.mask[k];
  }
  t.target = t.target.to(device);
  t.mask = t.mask.to(device);
  return t;
}

// Training crops made by `threads` workers ahead of the steps, each from its own random stream: a
// decoded tile gives two crops (a tile's image is read for every crop otherwise).
class CropQueue {
 public:
  CropQueue(const std::vector<TileRegions>& tiles, int S, double min_h, double max_h, CropKind kind, int threads, uint64_t seed)
      : cap_(static_cast<size_t>(threads) * 4) {
    for (int w = 0; w < threads; ++w)
      workers_.emplace_back([this, &tiles, S, min_h, max_h, kind, w, seed] {
        std::mt19937_64 rng(seed * 7919 + static_cast<uint64_t>(w));
        LogUniform height(min_h, max_h);
        std::uniform_int_distribution<size_t> pick(0, tiles.size() - 1);
        try {
          while (!stop_) {
            const TileRegions& t = tiles[pick(rng)];
            const image::RgbImage img = image::read_rgb(t.image);
            for (int k = 0; k < 2 && !stop_; ++k) {
              Crop c = make_crop(t, img, S, height(rng), kind, rng);
              std::unique_lock<std::mutex> lock(m_);
              room_.wait(lock, [this] { return stop_ || q_.size() < cap_; });
              if (stop_) return;
              q_.push_back(std::move(c));
              ready_.notify_one();
            }
          }
        } catch (...) {  // an unreadable tile: the training stops with its error
          std::lock_guard<std::mutex> lock(m_);
          if (!error_) error_ = std::current_exception();
          ready_.notify_all();
        }
      });
  }
  ~CropQueue() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    room_.notify_all();
    for (auto& t : workers_) t.join();
  }
  Crop pop() {
    std::unique_lock<std::mutex> lock(m_);
    ready_.wait(lock, [this] { return !q_.empty() || error_; });
    if (error_) std::rethrow_exception(error_);
    Crop c = std::move(q_.front());
    q_.pop_front();
    room_.notify_one();
    return c;
  }

 private:
  size_t cap_;
  std::mutex m_;
  std::condition_variable room_, ready_;
  std::deque<Crop> q_;
  std::exception_ptr error_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> workers_;
};

DetectorScore score(model::TextDetectorImpl& det, const std::vector<Crop>& val, int S, int batch_size, const c10::Device& device) {
  torch::NoGradGuard no_grad;
  DetectorScore s;
  double tp = 0, fp = 0, fn = 0;
  size_t batches = 0;
  for (size_t at = 0; at < val.size(); at += static_cast<size_t>(batch_size)) {
    std::vector<const Crop*> batch;
    for (size_t i = at; i < std::min(val.size(), at + static_cast<size_t>(batch_size)); ++i) batch.push_back(&val[i]);
    torch::Tensor gt, mask;
    const torch::Tensor x = stack_planes(batch, S, true, &gt, &mask, device);
    const Losses l = db_losses(det.logits(x), gt, mask);
    s.loss += l.loss.item<double>();
    tp += l.tp;
    fp += l.fp;
    fn += l.fn;
    ++batches;
  }
  s.loss /= static_cast<double>(std::max<size_t>(1, batches));
  s.pixel_f = tp > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0;
  return s;
}

}  // namespace

DetectorScore train_detector(const DetectorTrainOptions& o) {
  check_spotter_run(o.spotter_dir, o.lr, o.out_dir, o.resume);
  if (o.epochs < 1 || o.batch_size < 1 || o.steps < 1) throw Error("--max-epochs, --batch-size and --steps: expected at least 1");
  if (o.crop < 64 || o.crop > 2048 || o.crop % 32) throw Error("--crop: expected a multiple of 32 from 64 to 2048, got " + std::to_string(o.crop));
  if (o.units != "lines" && o.units != "words") throw Error("--units: expected lines or words, got \"" + o.units + "\"");
  if (!(o.kernel_unclip >= 0 && o.kernel_unclip <= 10)) throw Error("--kernel-unclip: expected 0 to 10");
  if (o.data_threads < 1) throw Error("--data-threads: expected at least 1");
  if (!(o.threshold_lr >= 0) || o.threshold_warmup < 0) throw Error("--threshold-lr, --threshold-warmup: expected at least 0");
  if ((o.threshold_lr > 0 || o.threshold_warmup > 0) && !o.threshold_branch)
    throw Error("--threshold-lr, --threshold-warmup: only with --threshold-branch");
  if (!(o.min_word_height >= 4 && o.max_word_height >= o.min_word_height && o.max_word_height <= 200))
    throw Error("--word-height: expected A-B with 4 <= A <= B <= 200 px");
  const double unclip = o.kernel_unclip;
  const c10::Device device = model::pick_device(o.device);
  const fs::path out(o.out_dir);
  model::set_threads(o.threads);
  model::TextDetector det = model::load_text_detector(o.spotter_dir + "/detector.safetensors");
  det->to(device);
  const bool lines = o.units == "lines";
  const std::vector<TileRegions> train = load_regions(o.train_json, o.train_images, lines);
  const std::vector<TileRegions> val_tiles = load_regions(o.val_json, o.val_images, lines);
  // Fixed validation crops: the same in every epoch and every resumed run.
  std::vector<Crop> val;
  {
    std::mt19937_64 rng(7);
    LogUniform height(o.min_word_height, o.max_word_height);
    for (int i = 0; i < o.val_crops; ++i) {
      const TileRegions& t = val_tiles[static_cast<size_t>(i) % val_tiles.size()];
      val.push_back(make_crop(t, image::read_rgb(t.image), o.crop, height(rng), CropKind{unclip, false}, rng));
    }
  }
  int first_epoch = 1;
  DetectorScore best;
  if (o.resume) {
    const nlohmann::json state = resume_spotter_run(*det, o.out_dir, {"best_loss", "best_pixel_f"});
    first_epoch = state.at("epoch").get<int>() + 1;
    best = {state.at("best_loss").get<double>(), state.at("best_pixel_f").get<double>()};
  } else {
    start_spotter_run(o.spotter_dir, o.out_dir);
    det->eval();
    best = score(*det, val, o.crop, o.batch_size, device);
    if (o.progress) std::fprintf(stderr, "epoch 0: validation %zu crops: loss %.4f, pixel F %.3f\n", val.size(), best.loss, best.pixel_f);
    append_run_log(o.out_dir, nlohmann::json{{"epoch", 0}, {"val_loss", best.loss}, {"val_pixel_f", best.pixel_f}}.dump());
  }
  det->eval();  // batch norm keeps its statistics; every weight learns
  // DB's threshold branch (PaddleOCR's head.thresh), which the released inference model does not hold:
  // started at random (seeded), learning its batch norms' statistics, kept in the run
  // (thresh.safetensors) for --resume, never in a spotter folder.
  const fs::path thresh_file = out / "thresh.safetensors";
  model::DBBranch thresh{nullptr};
  // "head": the neck and the DB head learn; the backbone, which the released model learnt on far more
  // text than a few map tiles hold, is held (no gradient, no step).
  std::vector<torch::Tensor> learnt = det->parameters();
  if (o.learn == "head") {
    for (auto& t : det->backbone->parameters()) t.set_requires_grad(false);
    learnt = det->neck->parameters();
    for (const auto& t : det->head->parameters()) learnt.push_back(t);
  }
  std::vector<torch::optim::OptimizerParamGroup> groups{torch::optim::OptimizerParamGroup(learnt)};
  if (o.threshold_branch) {
    torch::manual_seed(static_cast<uint64_t>(o.seed));
    thresh = model::DBBranch(96);
    if (o.resume && fs::exists(thresh_file))
      model::load_state(*thresh, model::read_safetensors_state_dict(thresh_file.string()), thresh_file.string());
    thresh->to(device);
    thresh->train();
    for (const auto& t : thresh->parameters()) learnt.push_back(t);
    // Its own learning rate: it starts at random, the detector from released weights.
    groups.emplace_back(thresh->parameters(), std::make_unique<torch::optim::AdamOptions>(o.threshold_lr > 0 ? o.threshold_lr : o.lr));
  }
  const CropKind kind{unclip, o.threshold_branch};
  torch::optim::Adam opt(std::move(groups), torch::optim::AdamOptions(o.lr));
  std::mt19937_64 rng(static_cast<uint64_t>(o.seed) * 1000 + static_cast<uint64_t>(first_epoch));
  LogUniform height(o.min_word_height, o.max_word_height);
  std::uniform_int_distribution<size_t> pick(0, train.size() - 1);
  std::unique_ptr<CropQueue> queue;
  if (o.data_threads > 1)
    queue = std::make_unique<CropQueue>(train, o.crop, o.min_word_height, o.max_word_height, kind, o.data_threads,
                                        static_cast<uint64_t>(o.seed) * 1000 + static_cast<uint64_t>(first_epoch));
  for (int epoch = first_epoch; epoch <= o.epochs; ++epoch) {
    Progress bar("epoch " + std::to_string(epoch), static_cast<size_t>(o.steps), "steps");
    if (!o.progress) bar.finish();
    double loss_sum = 0;
    for (int step = 0; step < o.steps; ++step) {
      std::vector<Crop> crops;
      for (int i = 0; i < o.batch_size; ++i) {
        if (queue) {
          crops.push_back(queue->pop());
          continue;
        }
        const TileRegions& t = train[pick(rng)];
        crops.push_back(make_crop(t, image::read_rgb(t.image), o.crop, height(rng), kind, rng));
      }
      std::vector<const Crop*> batch;
      for (const auto& c : crops) batch.push_back(&c);
      torch::Tensor gt, mask;
      const torch::Tensor x = stack_planes(batch, o.crop, true, &gt, &mask, device);
      // While the threshold branch warms up, the detector's weights get no gradient (Adam leaves them).
      const bool warming = thresh && static_cast<long>(epoch - 1) * o.steps + step < o.threshold_warmup;
      torch::Tensor features, logits;
      {
        torch::AutoGradMode detector_learns(!warming);
        features = det->features(x);
        logits = det->head->binarize(features);
      }
      Losses l;
      if (thresh) {
        Thresholds t = stack_borders(batch, o.crop, device);
        t.map = torch::sigmoid(thresh(features));
        l = db_losses(logits, gt, mask, &t);
      } else {
        l = db_losses(logits, gt, mask);
      }
      opt.zero_grad();
      l.loss.backward();
      torch::nn::utils::clip_grad_norm_(learnt, 5.0);
      opt.step();
      loss_sum += l.loss.item<double>();
      if (o.progress) bar.add();
    }
    if (o.progress) bar.finish();
    const DetectorScore s = score(*det, val, o.crop, o.batch_size, device);
    // The best by pixel F, not by loss: trained to thicker kernels, the loss (over the hardest
    // background pixels) kept falling while the maps' regions thickened and the spotter's word
    // detection fell (docs/notes/2026-11-spotter.md).
    const bool better = s.pixel_f > best.pixel_f;
    if (better) {
      best = s;
      model::write_state(*det, (out / "best" / "detector.safetensors").string(), {{"fine_tuned_from", o.spotter_dir}, {"units", o.units}});
    }
    model::write_state(*det, (out / "last.safetensors").string());
    if (thresh) model::write_state(*thresh, thresh_file.string());
    if (o.keep_epochs) model::write_state(*det, (out / ("epoch-" + std::to_string(epoch) + ".safetensors")).string());
    write_file_atomic((out / "state.json").string(),
                      nlohmann::json{{"epoch", epoch}, {"best_loss", best.loss}, {"best_pixel_f", best.pixel_f}}.dump());
    const nlohmann::json line{{"epoch", epoch}, {"train_loss", loss_sum / o.steps}, {"val_loss", s.loss}, {"val_pixel_f", s.pixel_f}, {"best", better}};
    append_run_log(o.out_dir, line.dump());
    if (o.progress)
      std::fprintf(stderr, "epoch %d: train loss %.4f, validation loss %.4f, pixel F %.3f%s\n", epoch, loss_sum / o.steps, s.loss, s.pixel_f,
                   better ? " (best)" : "");
  }
  return best;
}

}  // namespace light::train
