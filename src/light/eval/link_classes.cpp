#include "light/eval/link_classes.h"

#include <cstdio>
#include <unordered_map>
#include <vector>

#include "light/error.h"

namespace light::eval {

namespace {
std::vector<geometry::ReadingFrame> frames_of(const maptext::Tile& tile) {
  std::vector<geometry::ReadingFrame> f;
  for (const auto& g : tile.groups)
    for (const auto& w : g) f.push_back(geometry::reading_frame(w.vertices));
  return f;
}

int class_of(const std::vector<geometry::ReadingFrame>& frames, int a, int b) {
  const auto n = static_cast<int>(frames.size());
  if (a < 0 || b < 0 || a >= n || b >= n) throw Error("link classes: a verdict names a word the image does not have");
  return static_cast<int>(geometry::classify_link(frames[static_cast<size_t>(a)], frames[static_cast<size_t>(b)]));
}
}  // namespace

LinkClassReport count_link_classes(const maptext::Dataset& gt, const maptext::Dataset& pred, const Report& report) {
  if (report.edges.size() != report.per_image.size())
    throw Error("link classes: the report has no link verdicts (evaluate with Options::edge_verdicts, a 2025 link task)");
  std::unordered_map<std::string, const maptext::Tile*> gt_tiles, pred_tiles;
  for (const auto& t : gt) gt_tiles.emplace(t.image, &t);
  for (const auto& t : pred) pred_tiles.emplace(t.image, &t);
  LinkClassReport out{};
  for (size_t k = 0; k < report.edges.size(); ++k) {
    const std::string& image = report.per_image[k].first;
    const EdgeVerdicts& v = report.edges[k];
    const auto g = gt_tiles.find(image);
    if (g == gt_tiles.end()) throw Error("link classes: image \"" + image + "\" is not in the ground truth");
    const auto gf = frames_of(*g->second);
    for (const auto& [a, b] : v.found) {
      auto& c = out[static_cast<size_t>(class_of(gf, a, b))];
      ++c.gt, ++c.found;
    }
    for (const auto& [a, b] : v.missed) ++out[static_cast<size_t>(class_of(gf, a, b))].gt;
    if (v.wrong.empty()) continue;
    const auto p = pred_tiles.find(image);
    if (p == pred_tiles.end()) throw Error("link classes: image \"" + image + "\" has wrong links but no predictions");
    const auto pf = frames_of(*p->second);
    for (const auto& [a, b] : v.wrong) ++out[static_cast<size_t>(class_of(pf, a, b))].wrong;
  }
  return out;
}

std::string link_classes_to_json_line(const LinkClassReport& counts) {
  std::string s = "{";
  for (const geometry::LinkClass c : geometry::kAllLinkClasses) {
    const LinkClassCounts& n = counts[static_cast<size_t>(c)];
    char recall[32] = "null";
    if (n.gt > 0) std::snprintf(recall, sizeof recall, "%.4f", static_cast<double>(n.found) / static_cast<double>(n.gt));
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s\"%s\": {\"links\": %lld, \"found\": %lld, \"recall\": %s, \"false_links\": %lld}",
                  s.size() > 1 ? ", " : "", geometry::link_class_name(c), n.gt, n.found, recall, n.wrong);
    s += buf;
  }
  return s + "}";
}

}  // namespace light::eval
