#include "light/view/view.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "light/error.h"
#include "light/geo/raster.h"
#include "light/geometry/polygon.h"
#include "light/search/normalize.h"
#include "light/util/fs.h"
#include "light/util/interrupt.h"
#include "light/util/progress.h"
#include "light/view/assets.h"

namespace light::view {

namespace {

using Json = nlohmann::json;

double round2(double v) { return std::round(v * 100.0) / 100.0; }

maptext::Point centre(const std::vector<maptext::Point>& v) {
  const geometry::BBox b = geometry::bbox(v);
  return {(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2};
}

std::vector<const maptext::Word*> flat_words(const maptext::Tile& t) {
  std::vector<const maptext::Word*> out;
  for (const auto& g : t.groups)
    for (const auto& w : g) out.push_back(&w);
  return out;
}

// A word's successor_probability (written by `light link` with a model), or null.
Json successor_probability(const maptext::Word& w) {
  if (w.extra.empty()) return nullptr;
  const Json extra = Json::parse(w.extra, nullptr, false);
  if (extra.is_object() && extra.contains("successor_probability") && extra["successor_probability"].is_number())
    return round2(extra["successor_probability"].get<double>() * 100) / 100;  // 4 decimals
  return nullptr;
}

std::string metric(const eval::Metrics& m, const std::string& key) {
  for (const auto& [k, v] : m)
    if (k == key) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", 100 * v);
      return buf;
    }
  return "";
}

}  // namespace

std::string view_data_json(const maptext::Dataset& linked, const std::vector<Pyramid>& pyramids, const ViewOptions& opt) {
  if (pyramids.size() != linked.size()) throw Error("view: one pyramid an image expected");
  Json root;
  root["title"] = opt.title;
  root["generator"] = "light view";
  Json abbr = Json::array();
  for (const auto& a : search::abbreviations()) abbr.push_back({a.short_form, a.word});
  root["abbreviations"] = abbr;
  // Verdicts: the evaluator over the images that have ground truth.
  std::unordered_map<std::string, size_t> gt_index;
  eval::Report report;
  if (opt.gt) {
    eval::Options eo;
    eo.task = opt.task;
    eo.edge_verdicts = true;
    report = eval::evaluate(*opt.gt, linked, eo);
    for (size_t k = 0; k < opt.gt->size(); ++k) gt_index[(*opt.gt)[k].image] = k;
    root["scores"] = {{"task", opt.task == eval::Task::DetRecEdges ? "detrecedges" : "detedges"},
                      {"edges_recall", metric(report.overall, "edges_recall")},
                      {"edges_precision", metric(report.overall, "edges_precision")},
                      {"edges_fscore", metric(report.overall, "edges_fscore")},
                      {"correct", report.edges_correct},
                      {"wrong", report.edges_wrong},
                      {"missed", report.edges_missed}};
  } else {
    root["scores"] = nullptr;
  }
  Json images = Json::array();
  for (size_t k = 0; k < linked.size(); ++k) {
    const maptext::Tile& tile = linked[k];
    const Pyramid& p = pyramids[k];
    Json img = {{"key", tile.image},
                {"width", p.width},
                {"height", p.height},
                {"tiles", {{"url", "tiles/" + std::to_string(k) + "/"}, {"maxLevel", p.max_level}, {"tileSize", p.tile_size}, {"overlap", p.overlap}}}};
    const auto words = flat_words(tile);
    Json polys = Json::array(), texts = Json::array(), phrase_of = Json::array(), next = Json::array(), prob = Json::array();
    Json phrases = Json::array();
    const std::vector<std::optional<output::PlaceLink>> places = opt.places ? opt.places(tile.image) : std::vector<std::optional<output::PlaceLink>>{};
    size_t at = 0;
    for (size_t g = 0; g < tile.groups.size(); ++g) {
      Json members = Json::array();
      std::string text;
      for (size_t i = 0; i < tile.groups[g].size(); ++i, ++at) {
        const maptext::Word& w = tile.groups[g][i];
        Json poly = Json::array();
        for (const auto& v : w.vertices) poly.push_back(round2(v.x)), poly.push_back(round2(v.y));
        polys.push_back(std::move(poly));
        texts.push_back(w.text.value_or(""));
        phrase_of.push_back(g);
        next.push_back(i + 1 < tile.groups[g].size() ? static_cast<long>(at + 1) : -1L);
        prob.push_back(successor_probability(w));
        members.push_back(at);
        if (w.text && !w.text->empty()) text += (text.empty() ? "" : " ") + *w.text;
      }
      phrases.push_back({{"text", text}, {"n", search::normalize(text)}, {"words", members}});
      if (g < places.size() && places[g])
        phrases.back()["place"] = {{"uri", places[g]->uri}, {"name", places[g]->name}, {"accepted", places[g]->accepted}};
    }
    img["words"] = polys, img["texts"] = texts, img["phrase"] = phrase_of, img["next"] = next, img["prob"] = prob;
    img["phrases"] = phrases;
    // Verdicts of this image's links ("c" correct, "w" wrong, null not counted) and its missed links.
    Json verdict = Json::array(), missed = Json::array();
    if (opt.gt) {
      for (size_t i = 0; i < words.size(); ++i) verdict.push_back(nullptr);
      const auto it = gt_index.find(tile.image);
      // report.edges follows the ground truth's order; an image without ground truth has no verdicts.
      if (it != gt_index.end()) {
        const eval::EdgeVerdicts& e = report.edges.at(it->second);
        for (const auto& [a, b] : e.correct) verdict[static_cast<size_t>(a)] = "c";
        for (const auto& [a, b] : e.wrong) verdict[static_cast<size_t>(a)] = "w";
        const auto gw = flat_words((*opt.gt)[it->second]);
        for (const auto& [a, b] : e.missed) {
          const auto ca = centre(gw[static_cast<size_t>(a)]->vertices), cb = centre(gw[static_cast<size_t>(b)]->vertices);
          missed.push_back({{"from", gw[static_cast<size_t>(a)]->text.value_or("")},
                            {"to", gw[static_cast<size_t>(b)]->text.value_or("")},
                            {"line", {round2(ca.x), round2(ca.y), round2(cb.x), round2(cb.y)}}});
        }
      }
    }
    img["verdict"] = verdict, img["missed"] = missed;
    images.push_back(std::move(img));
  }
  root["images"] = std::move(images);
  return root.dump();
}

void write_view(const maptext::Dataset& linked, const std::function<std::string(const std::string&)>& image_of, const std::string& out,
                const ViewOptions& opt) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec)))
    throw Error(out + " (-o/--out): exists and is not an empty folder; name a new folder (a page is never written over anything)");
  if (linked.empty()) throw Error("--words: no image in it");
  // Every image found before anything is written.
  std::vector<std::string> paths;
  for (const auto& t : linked) paths.push_back(image_of(t.image));
  // The folder itself, not a symbolic link to it (the page goes into the link's target), nor "page/".
  std::string name = out;
  while (name.size() > 1 && name.back() == '/') name.pop_back();
  const fs::path target = fs::weakly_canonical(fs::absolute(name), ec);
  if (ec) throw Error(out + " (-o/--out): " + ec.message());
  const fs::path tmp = target.parent_path() / (target.filename().string() + ".tmp." + std::to_string(::getpid()));
  const InterruptScope interrupt;  // SIGINT/SIGTERM/SIGHUP: the half-made page is removed, as on an error
  remove_tree(tmp.string());
  fs::create_directories(tmp, ec);
  if (ec) throw Error(out + ": cannot create the page folder: " + ec.message());
  try {
    size_t total = 0;
    for (const std::string& path : paths)
      if (const auto size = geo::raster_size(path)) total += pyramid_tile_count(size->first, size->second, opt.pyramid);
    std::vector<Pyramid> pyramids;
    Progress bar("view", total, "tiles");
    for (size_t k = 0; k < linked.size(); ++k)
      pyramids.push_back(write_pyramid(paths[k], (tmp / "tiles" / std::to_string(k)).string(), opt.pyramid, [&] {
        check_interrupted();
        if (opt.progress) bar.add();
      }));
    if (opt.progress) bar.finish();
    for (const Asset& a : assets()) {
      const fs::path p = tmp / a.name;
      fs::create_directories(p.parent_path());
      std::ofstream f(p, std::ios::binary);
      f.write(reinterpret_cast<const char*>(a.data), static_cast<std::streamsize>(a.size));
      if (!f) throw Error(p.string() + ": cannot write");
    }
    ViewOptions o = opt;
    if (o.title.empty()) o.title = "light view";
    const std::string data = "window.LIGHT_VIEW_DATA = " + view_data_json(linked, pyramids, o) + ";\n";
    std::ofstream f(tmp / "data.js", std::ios::binary);
    f << data;
    if (!f) throw Error((tmp / "data.js").string() + ": cannot write");
    f.close();
    if (fs::exists(target, ec)) fs::remove(target, ec);  // the empty folder
    fs::rename(tmp, target, ec);
    if (ec) throw Error(out + ": cannot move the page into place: " + ec.message());
  } catch (...) {
    remove_tree(tmp.string());
    throw;
  }
}

}  // namespace light::view
