// Polygon overlap with GEOS, the engine under shapely, so that areas, intersections and unions are
// the ones the official MapText evaluator computes. GEOS's C API is reentrant: one GeosContext per
// thread, and geometries are used only with the context that made them.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "light/geometry/polygon.h"

struct GEOSContextHandle_HS;
struct GEOSGeom_t;
struct GEOSSTRtree_t;

namespace light::geometry {

class GeosContext;

// An owned GEOS geometry (or null when construction failed).
class GeosGeometry {
 public:
  GeosGeometry() = default;
  GeosGeometry(GeosContext* ctx, GEOSGeom_t* g) : ctx_(ctx), g_(g) {}
  GeosGeometry(GeosGeometry&& o) noexcept : ctx_(o.ctx_), g_(o.g_) { o.g_ = nullptr; }
  GeosGeometry& operator=(GeosGeometry&& o) noexcept;
  GeosGeometry(const GeosGeometry&) = delete;
  GeosGeometry& operator=(const GeosGeometry&) = delete;
  ~GeosGeometry();

  explicit operator bool() const { return g_ != nullptr; }
  const GEOSGeom_t* get() const { return g_; }

 private:
  GeosContext* ctx_ = nullptr;
  GEOSGeom_t* g_ = nullptr;
};

// Result of one overlap computation. `ok` is false when GEOS raised an error (invalid geometry);
// `error` then holds GEOS's message.
struct OverlapResult {
  double value = 0.0;
  bool ok = true;
  std::string error;
};

class GeosContext {
 public:
  GeosContext();
  ~GeosContext();
  GeosContext(const GeosContext&) = delete;
  GeosContext& operator=(const GeosContext&) = delete;

  GEOSContextHandle_HS* handle() const { return h_; }

  // A polygon whose ring is the vertices closed by repeating the first one (as eval.py builds it).
  // No validity repair. Null on failure (fewer than 3 vertices), with last_error() set.
  GeosGeometry polygon(const Polygon& vertices);

  // Union of several geometries (shapely.unary_union of a collection). Null on GEOS error.
  GeosGeometry unary_union(const std::vector<const GeosGeometry*>& parts);

  // GEOS area of a geometry (0 for null).
  double area(const GeosGeometry& g);

  // GEOS validity (OGC simple-feature rules); false for null.
  bool is_valid(const GeosGeometry& g);

  // The official MapText IoU: if the shapes intersect and both areas are >= 1e-5,
  // area(a ∩ b) / (area(a ∪ b) + 1e-5), else 0. Areas are passed in (computed once per shape).
  OverlapResult iou(const GeosGeometry& a, double area_a, const GeosGeometry& b, double area_b);

  const std::string& last_error() const { return last_error_; }
  void set_error(const char* message) { last_error_ = message ? message : ""; }

 private:
  GEOSContextHandle_HS* h_ = nullptr;
  std::string last_error_;
};

inline constexpr double kPolyEpsilon = 1e-5;  // eval.py POLY_EPSILON

// GEOS's STRtree over axis-aligned boxes: which of them a query box touches, in time about
// proportional to the answer, and memory proportional to the boxes.
class BoxIndex {
 public:
  // Boxes with present[k] == 0 are left out (never returned).
  BoxIndex(GeosContext& ctx, const std::vector<BBox>& boxes, const std::vector<char>& present);
  ~BoxIndex();
  BoxIndex(const BoxIndex&) = delete;
  BoxIndex& operator=(const BoxIndex&) = delete;
  // Indices, ascending, of the boxes whose closed box shares a point with `b`'s.
  std::vector<int> touching(const BBox& b) const;

 private:
  GeosContext& ctx_;
  const std::vector<BBox>& boxes_;
  std::vector<GeosGeometry> shapes_;  // kept alive while the tree refers to them
  std::vector<int> ids_;
  GEOSSTRtree_t* tree_ = nullptr;
};

}  // namespace light::geometry
