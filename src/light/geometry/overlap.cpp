#include "light/geometry/overlap.h"

#include <geos_c.h>

#include <algorithm>

#include "light/error.h"

namespace light::geometry {

namespace {
void on_geos_error(const char* message, void* userdata) {
  static_cast<GeosContext*>(userdata)->set_error(message);
}
void on_geos_notice(const char*, void*) {}
}  // namespace

GeosGeometry& GeosGeometry::operator=(GeosGeometry&& o) noexcept {
  if (this != &o) {
    if (g_) GEOSGeom_destroy_r(ctx_->handle(), g_);
    ctx_ = o.ctx_;
    g_ = o.g_;
    o.g_ = nullptr;
  }
  return *this;
}

GeosGeometry::~GeosGeometry() {
  if (g_) GEOSGeom_destroy_r(ctx_->handle(), g_);
}

GeosContext::GeosContext() : h_(GEOS_init_r()) {
  if (!h_) throw Error("GEOS: cannot initialise a context");
  GEOSContext_setErrorMessageHandler_r(h_, on_geos_error, this);
  GEOSContext_setNoticeMessageHandler_r(h_, on_geos_notice, this);
}

GeosContext::~GeosContext() { GEOS_finish_r(h_); }

BoxIndex::BoxIndex(GeosContext& ctx, const std::vector<BBox>& boxes, const std::vector<char>& present)
    : ctx_(ctx), boxes_(boxes), ids_(boxes.size()) {
  tree_ = GEOSSTRtree_create_r(ctx.handle(), 10);
  if (!tree_) throw Error("GEOS: cannot create an STRtree");
  shapes_.reserve(boxes.size());
  for (size_t k = 0; k < boxes.size(); ++k) {
    ids_[k] = static_cast<int>(k);
    if (!present[k]) continue;
    const BBox& b = boxes[k];
    GEOSGeometry* g = GEOSGeom_createRectangle_r(ctx.handle(), b.x0, b.y0, b.x1, b.y1);
    if (!g) throw Error("GEOS: cannot make a box for the STRtree: " + ctx.last_error());
    shapes_.emplace_back(&ctx, g);
    GEOSSTRtree_insert_r(ctx.handle(), tree_, g, &ids_[k]);
  }
}

BoxIndex::~BoxIndex() {
  if (tree_) GEOSSTRtree_destroy_r(ctx_.handle(), tree_);
}

std::vector<int> BoxIndex::touching(const BBox& b) const {
  std::vector<int> out;
  if (shapes_.empty()) return out;
  GEOSGeometry* q = GEOSGeom_createRectangle_r(ctx_.handle(), b.x0, b.y0, b.x1, b.y1);
  if (!q) throw Error("GEOS: cannot make a query box for the STRtree: " + ctx_.last_error());
  GeosGeometry hold(&ctx_, q);
  GEOSSTRtree_query_r(
      ctx_.handle(), tree_, q, [](void* item, void* user) { static_cast<std::vector<int>*>(user)->push_back(*static_cast<int*>(item)); },
      &out);
  // The tree answers by envelope; keep exactly the closed boxes that touch, in index order.
  std::vector<int> exact;
  for (int k : out)
    if (boxes_[k].intersects(b)) exact.push_back(k);
  std::sort(exact.begin(), exact.end());
  return exact;
}

GeosGeometry GeosContext::polygon(const Polygon& vertices) {
  last_error_.clear();
  if (vertices.size() < 3) {
    last_error_ = "a polygon needs at least 3 vertices";
    return {};
  }
  const unsigned n = static_cast<unsigned>(vertices.size());
  GEOSCoordSequence* seq = GEOSCoordSeq_create_r(h_, n + 1, 2);
  if (!seq) return {};
  for (unsigned i = 0; i <= n; ++i) {
    const Point& p = vertices[i % n];
    GEOSCoordSeq_setXY_r(h_, seq, i, p.x, p.y);
  }
  GEOSGeometry* ring = GEOSGeom_createLinearRing_r(h_, seq);  // takes ownership of seq
  if (!ring) return {};
  GEOSGeometry* poly = GEOSGeom_createPolygon_r(h_, ring, nullptr, 0);  // takes ownership of ring
  if (!poly) return {};
  return GeosGeometry(this, poly);
}

GeosGeometry GeosContext::unary_union(const std::vector<const GeosGeometry*>& parts) {
  last_error_.clear();
  std::vector<GEOSGeometry*> clones;
  clones.reserve(parts.size());
  for (const GeosGeometry* p : parts) {
    if (!p || !*p) {
      for (GEOSGeometry* c : clones) GEOSGeom_destroy_r(h_, c);
      last_error_ = "invalid member polygon";
      return {};
    }
    clones.push_back(GEOSGeom_clone_r(h_, p->get()));
  }
  GEOSGeometry* coll = GEOSGeom_createCollection_r(h_, GEOS_GEOMETRYCOLLECTION, clones.data(),
                                                   static_cast<unsigned>(clones.size()));
  if (!coll) return {};
  GeosGeometry owned(this, coll);
  GEOSGeometry* u = GEOSUnaryUnion_r(h_, coll);
  if (!u) return {};
  return GeosGeometry(this, u);
}

double GeosContext::area(const GeosGeometry& g) {
  if (!g) return 0.0;
  double a = 0.0;
  if (!GEOSArea_r(h_, g.get(), &a)) return 0.0;
  return a;
}

bool GeosContext::is_valid(const GeosGeometry& g) { return g && GEOSisValid_r(h_, g.get()) == 1; }

OverlapResult GeosContext::iou(const GeosGeometry& a, double area_a, const GeosGeometry& b, double area_b) {
  OverlapResult r;
  if (!a || !b) return r;
  last_error_.clear();
  const char hit = GEOSIntersects_r(h_, a.get(), b.get());
  if (hit == 2) return {0.0, false, last_error_};
  if (hit == 0 || area_a < kPolyEpsilon || area_b < kPolyEpsilon) return r;
  GEOSGeometry* inter = GEOSIntersection_r(h_, a.get(), b.get());
  if (!inter) return {0.0, false, last_error_};
  GeosGeometry inter_owned(this, inter);
  GEOSGeometry* uni = GEOSUnion_r(h_, a.get(), b.get());
  if (!uni) return {0.0, false, last_error_};
  GeosGeometry uni_owned(this, uni);
  double ai = 0.0, au = 0.0;
  if (!GEOSArea_r(h_, inter, &ai) || !GEOSArea_r(h_, uni, &au)) return {0.0, false, last_error_};
  r.value = ai / (au + kPolyEpsilon);
  return r;
}

}  // namespace light::geometry
