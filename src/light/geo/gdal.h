// What geo/'s GDAL users share: GDAL's drivers registered once (errors kept off stderr: they become
// light::Error messages), and an owned dataset handle.
#pragma once
#include <memory>

namespace light::geo {

void init_gdal();
struct GdalCloser {
  void operator()(void* dataset) const;
};
using GdalDataset = std::unique_ptr<void, GdalCloser>;

}  // namespace light::geo
