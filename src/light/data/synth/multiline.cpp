// The layouts that make linking hardest (Builder::lines_label, Builder::spaced_name): a name set on
// two to four lines, and a name whose words lie far apart, each at its own angle, across a region or
// along a river, road, ridge or rail line. Real sheets hold many: of the links of 39 Ordnance Survey,
// USGS and Rumsey sheets, 19 % go on to the next line and 7 % cross more than two word heights
// (docs/synth.md, "Where the next word lies").
#include <algorithm>
#include <cmath>

#include "light/data/synth/builder.h"

namespace light::synth {

namespace {

// The descriptive names that large-scale sheets set on two or more lines.
const std::vector<std::string> kSites{"Roman Villa", "Castle", "Battle", "Abbey", "Priory", "Roman Fort", "Chapel",
                                      "Old Mill", "Mission", "Fort", "Trading Post", "Stage Station"};
const std::vector<std::string> kDedications{"Holy Trinity", "St. Mary's", "St. John's", "All Saints", "St. Peter's",
                                            "Christ", "St. Michael's", "Our Lady's", "Methodist", "Baptist"};
const std::vector<std::string> kWorkings{"Old Quarry", "Gravel Pit", "Sand Pit", "Clay Pit", "Old Shaft", "Lime Kiln",
                                         "Coal Mine", "Brick Works", "Tramway", "Mill Race", "Mine"};
const std::vector<std::string> kQualifiers{"(disused)", "(dis.)", "(site of)", "(ruins)", "(remains of)", "(abandoned)"};
const std::vector<std::string> kBuildings{"Farm", "Hall", "Mill", "House", "Lodge", "Grange", "Manor", "Ranch", "Court"};
const std::vector<std::string> kInstitutions{"Youth Hostel", "Sewage Works", "Pumping Station", "Coast Guard Station",
                                             "Golf Course", "Water Tower", "County School", "Public House", "Post Office",
                                             "Signal Box", "Filter Beds", "Cattle Grid", "Recreation Ground", "Allotment Gardens"};

template <class T>
T concat(T a, const T& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

Name Builder::descriptive_name() {
  const Name place = names.make(NameKind::Settlement, r.g);  // a town's name before "Junction" or "Church"
  switch (r.integer(0, 5)) {
    case 0: return {concat(split_words("Site of"), split_words(r.pick(kSites))), NameKind::Settlement};
    case 1: return {concat(split_words(r.pick(kDedications)), split_words(r.chance(0.7) ? "Church" : "Chapel")), NameKind::Settlement};
    case 2: return {concat(split_words(r.pick(kWorkings)), split_words(r.pick(kQualifiers))), NameKind::Settlement};
    case 3: return {concat(place.words, split_words(r.pick(kBuildings))), NameKind::Settlement};
    case 4: return {split_words(r.pick(kInstitutions)), NameKind::Settlement};
    default: return {concat(place.words, split_words(r.chance(0.5) ? "Junction" : "Station")), NameKind::Settlement};
  }
}

Builder::StackShape Builder::real_stack(int lines) {
  StackShape s(lines);
  // Line spacing, baseline to baseline in letter sizes: mostly tight, some loose, a few far apart.
  const double u = r.uni(0, 1);
  s.lead = u < 0.8 ? r.uni(0.95, 1.15) : u < 0.91 ? r.uni(1.15, 2.6) : r.uni(2.8, 4.5);
  // Lines that do not line up: each after the first moved along, indented or staggered.
  if (r.chance(0.45)) {
    const double sign = r.chance(0.5) ? 1.0 : -1.0;
    const bool staggered = r.chance(0.5);
    for (int l = 1; l < lines; ++l)
      s.shift[static_cast<size_t>(l)] = (staggered && l % 2 == 0 ? -sign : sign) * r.uni(0.6, 3.5) * (staggered ? 1.0 : l);
  }
  // One line in smaller or larger letters ("Site of" over "ROMAN VILLA", a town over its "Sta.").
  if (r.chance(0.35)) s.size[static_cast<size_t>(r.integer(0, lines - 1))] = r.chance(0.6) ? r.uni(0.55, 0.78) : r.uni(1.3, 1.7);
  // Lines at angles of their own: wrapped round a feature (each turned a little more), or askew.
  if (r.chance(0.3)) {
    const double step = (r.chance(0.5) ? 1.0 : -1.0) * r.uni(5, 18) * M_PI / 180;
    const bool wrapped = r.chance(0.6);
    for (int l = 1; l < lines; ++l) s.turn[static_cast<size_t>(l)] = wrapped ? step * l : step * r.uni(0.6, 1.4) * (r.chance(0.5) ? 1 : -1);
  }
  return s;
}

bool Builder::lines_label(const Name& given) {
  Name name = given;
  if (name.words.size() < 2) name = descriptive_name();
  if (name.words.size() < 2) return straight(name, 0.0, false);
  const FontStyle f = font(name.kind);
  const auto shapes = shape_all(name.words, f);
  const int n = static_cast<int>(name.words.size());
  // Broken at any words: 2-4 lines, each of at least one word.
  const int lines = std::min(n, r.chance(0.7) ? 2 : r.integer(3, 4));
  std::vector<int> cuts;
  for (int k = 1; k < n; ++k) cuts.push_back(k);
  std::shuffle(cuts.begin(), cuts.end(), r.g);
  cuts.resize(static_cast<size_t>(lines - 1));
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(n);
  const double space = f.size_px * r.uni(0.25, 0.45);
  double lead = f.size_px * r.uni(1.0, 2.0);  // baseline to baseline
  const double align = r.uni(0, 1) < 0.55 ? 0.5 : (r.chance(0.55) ? 0.0 : 1.0);  // centred, flush left, flush right
  const double angle = r.chance(0.75) ? 0.0 : r.uni(-0.5, 0.5);
  const double ca = std::cos(angle), sa = std::sin(angle);
  const StackShape stack = opt.real_stacks ? real_stack(lines) : StackShape(lines);
  if (opt.real_stacks) lead = f.size_px * stack.lead;
  std::vector<double> widths, baselines;  // each line's width; its baseline's offset from the first, across
  std::vector<std::vector<WordShape>> line_shapes;
  for (int l = 0, from = 0; l < lines; from = cuts[static_cast<size_t>(l)], ++l) {
    const size_t k = static_cast<size_t>(l);
    std::vector<WordShape> ss(shapes.begin() + from, shapes.begin() + cuts[k]);
    if (stack.size[k] != 1.0) {  // a line in larger or smaller letters than the rest
      FontStyle fl = f;
      fl.size_px *= stack.size[k];
      ss = shape_all(std::vector<std::string>(name.words.begin() + from, name.words.begin() + cuts[k]), fl);
    }
    double w = 0;
    for (size_t i = 0; i < ss.size(); ++i) w += ss[i].advance + (i > 0 ? space * stack.size[k] : 0.0);
    widths.push_back(w);
    line_shapes.push_back(std::move(ss));
    baselines.push_back(l == 0 ? 0.0 : opt.real_stacks ? baselines.back() + lead * std::max(stack.size[k - 1], stack.size[k]) : lead * l);
  }
  const double widest = *std::max_element(widths.begin(), widths.end());
  const double block_h = opt.real_stacks ? baselines.back() + f.size_px : lead * (lines - 1) + f.size_px;
  for (int attempt = 0; attempt < 6; ++attempt) {
    const double mx = std::min(0.45 * W, 0.5 * widest + 20), my = std::min(0.45 * H, 0.5 * block_h + 20);
    const Point c{r.uni(mx, W - mx), r.uni(my, H - my)};
    std::vector<Placed> all;
    for (int l = 0, from = 0; l < lines; from = cuts[static_cast<size_t>(l)], ++l) {
      const size_t k = static_cast<size_t>(l);
      std::vector<std::string> ws(name.words.begin() + from, name.words.begin() + cuts[k]);
      const double w = widths[k];
      // The line's middle in the block's frame (moved along by its shift), then its start along its own angle.
      const double ox = -0.5 * widest + align * (widest - w) + stack.shift[k] * f.size_px;
      const double oy = opt.real_stacks ? baselines[k] - 0.5 * baselines.back() : (l - 0.5 * (lines - 1)) * lead;
      const double a = angle + stack.turn[k];
      Point start{c.x + ox * ca - oy * sa, c.y + ox * sa + oy * ca};
      if (a != angle) {  // turned about the line's middle
        const Point mid{start.x + 0.5 * w * ca, start.y + 0.5 * w * sa};
        start = {mid.x - 0.5 * w * std::cos(a), mid.y - 0.5 * w * std::sin(a)};
      }
      auto placed = along(ws, line_shapes[k], Path::line(start, a, w + 10), 0.0, std::vector<double>(ws.size(), space * stack.size[k]),
                          word_margin(f.size_px * stack.size[k], false));
      all.insert(all.end(), placed.begin(), placed.end());
    }
    if (!commit(all, false)) continue;
    // Distractors: an unrelated label between two lines set far apart, a road and its name across.
    if (lines >= 2 && lead > 1.5 * f.size_px && r.chance(0.4)) {
      Name d = Builder::name(r.chance(0.6) ? NameKind::Number : NameKind::Letter);
      FontStyle df = font(NameKind::Number);
      df.size_px = std::min(df.size_px, 0.6 * f.size_px);
      const auto ds = shape_all(d.words, df);
      std::vector<double> dg(d.words.size(), df.size_px * 0.35);
      const double dl = total(ds, dg);
      const int l = r.integer(0, lines - 2);
      const double ox = (r.chance(0.5) ? -1.0 : 1.0) * r.uni(0.0, 0.5 * widest) - 0.5 * dl;
      const double oy = (l + 0.5 - 0.5 * (lines - 1)) * lead + 0.3 * df.size_px;
      auto dw = along(d.words, ds, Path::line({c.x + ox * ca - oy * sa, c.y + ox * sa + oy * ca}, angle, dl + 10), 0.0, dg,
                      word_margin(df.size_px, false));
      commit(dw, false);
    }
    if (r.chance(0.25)) road_across(c, std::max(widest, block_h));
    return true;
  }
  return false;
}

void Builder::road_across(Point c, double reach) {
  const double a = r.uni(0.35, 1.25) * (r.chance(0.5) ? 1.0 : -1.0);
  const double len = 2.5 * reach + 200;
  const Point p0{c.x - 0.5 * len * std::cos(a), c.y - 0.5 * len * std::sin(a)};
  const Path road = Path::line(p0, a, len);
  double_line(road, r.uni(5, 10), 2.0, 0.8);
  Name street = name(NameKind::Street);
  const FontStyle f = font(NameKind::Street);
  const auto shapes = shape_all(street.words, f);
  std::vector<double> gaps(street.words.size(), f.size_px * 0.35);
  const double sl = total(shapes, gaps);
  const Path path = road.offset(-(7.0 + 0.25 * f.size_px));
  for (int attempt = 0; attempt < 4; ++attempt) {  // beyond the label on either side
    const double s = attempt % 2 == 0 ? r.uni(0, std::max(1.0, 0.5 * len - 0.6 * reach - sl))
                                      : r.uni(std::min(len - sl - 1, 0.5 * len + 0.6 * reach), std::max(0.0, len - sl));
    auto placed = along(street.words, shapes, path, s, gaps, word_margin(f.size_px, false));
    if (commit(placed, false)) return;
  }
}

std::vector<Builder::Placed> Builder::each_at_its_angle(const std::vector<std::string>& words, const std::vector<WordShape>& shapes,
                                                        const Path& path, double start, const std::vector<double>& gaps,
                                                        double margin, bool upright) {
  std::vector<Placed> out;
  double s = start;
  for (size_t i = 0; i < words.size(); ++i) {
    const double adv = shapes[i].advance;
    const double a = upright ? 0.0 : path.angle(s + 0.5 * adv);
    const Point mid = path.at(s + 0.5 * adv);
    const Path line = Path::line({mid.x - 0.5 * adv * std::cos(a), mid.y - 0.5 * adv * std::sin(a)}, a, adv + 10);
    out.push_back({shapes[i], line, 0.0, TextRenderer::polygon(shapes[i], line, 0.0, margin), words[i]});
    s += adv + (i < gaps.size() ? gaps[i] : 0.0);
  }
  return out;
}

bool Builder::spaced_name(const Feature* feat) {
  NameKind kind = r.chance(0.5) ? NameKind::County : NameKind::State;
  if (feat)
    kind = feat->kind == Feature::River     ? (r.chance(0.5) ? NameKind::River : NameKind::Creek)
           : feat->kind == Feature::Road    ? NameKind::Street
           : feat->kind == Feature::Contour ? NameKind::Mountain
                                            : NameKind::Railroad;
  Name name = Builder::name(kind);
  if (name.words.size() < 2) name.words.push_back(kind == NameKind::State ? "TERRITORY" : kind == NameKind::County ? "CO." : "R.");
  FontStyle f = font(kind);
  if (!feat) f.size_px = std::min(f.size_px, 1.4 * opt.font_scale * 24.0);  // a region's name, not a title
  const bool capitals = !feat || r.chance(0.4);
  if (capitals) {
    for (auto& w : name.words) w = to_upper_ascii(w);
    if (r.chance(0.6)) f.letter_spacing_px = f.size_px * r.uni(0.2, 1.2);
  }
  const auto shapes = shape_all(name.words, f);
  // Gaps of 2-20 word heights (a word's height: its polygon's, ink and margins), more of them short.
  const double margin = word_margin(f.size_px, false);
  double h = 0;
  for (const auto& s : shapes) h = std::max(h, s.ink_bottom - s.ink_top + 2 * margin);
  std::vector<double> gaps;
  for (size_t i = 0; i + 1 < name.words.size(); ++i) gaps.push_back(h * std::exp(r.uni(std::log(2.2), std::log(20.0))));
  const double len = total(shapes, gaps);
  const bool upright = r.chance(0.3);  // each word level whatever the path does ("reading upwards" along a rising feature)
  for (int attempt = 0; attempt < 6; ++attempt) {
    Path path;
    if (feat) {
      if (feat->path.length() < len + 60) return false;
      const double s = r.uni(10, feat->path.length() - len - 30);
      path = label_path(*feat, s, s + len + 20, f.size_px);
    } else {  // across a region: a straight line or a gentle arc
      if (len > 0.95 * std::max(W, H)) return false;
      const double a0 = r.chance(0.5) ? 0.0 : r.uni(-0.6, 0.6);
      const double bend = r.chance(0.5) ? 0.0 : r.uni(-0.5, 0.5);
      std::vector<double> angles;
      for (int k = 1; k <= 4; ++k) angles.push_back(a0 + bend * (k - 2.0) / 2.0);
      path = Path::bent(random_start(len, a0, false), len + 20, angles);
    }
    auto placed = each_at_its_angle(name.words, shapes, path, 5.0, gaps, margin, upright);
    if (!commit(placed, feat != nullptr)) continue;
    std::vector<double> ends;
    double e = 5.0;
    for (size_t i = 0; i < shapes.size(); ++i) ends.push_back(e += shapes[i].advance), e += i < gaps.size() ? gaps[i] : 0.0;
    label_gaps(path, ends, gaps, f.size_px, 0.5);
    return true;
  }
  return false;
}

}  // namespace light::synth
