#include "light/geo/raster.h"

#include <cpl_error.h>
#include <gdal.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "light/error.h"
#include "light/util/fs.h"
#include "light/geo/gdal.h"

namespace light::geo {

namespace {

using Dataset = GdalDataset;

// An image GDAL reads as stored. One whose EXIF orientation turns or mirrors it (a photo of a map) is
// left to OpenCV, which applies it as viewers do (nullopt below): the spotter, the linker and the page
// see it in the same frame.
Dataset open(const std::string& path) {
  note_input(path, "an image this command reads");
  init_gdal();
  Dataset ds(GDALOpen(path.c_str(), GA_ReadOnly));
  if (ds) {
    const char* o = GDALGetMetadataItem(ds.get(), "EXIF_Orientation", nullptr);
    if (o && std::string(o) != "1") return Dataset(nullptr);
  }
  return ds;
}

}  // namespace

void init_gdal() {
  static std::once_flag once;
  std::call_once(once, [] {
    GDALAllRegister();
    CPLSetErrorHandler(CPLQuietErrorHandler);
  });
}

void GdalCloser::operator()(void* ds) const { GDALClose(static_cast<GDALDatasetH>(ds)); }

std::optional<std::pair<int, int>> raster_size(const std::string& path) {
  const Dataset ds = open(path);
  if (!ds) return std::nullopt;
  return std::make_pair(GDALGetRasterXSize(ds.get()), GDALGetRasterYSize(ds.get()));
}

std::optional<image::RgbImage> read_rgb_resized(const std::string& path, int width, int height) {
  const Dataset ds = open(path);
  if (!ds) return std::nullopt;
  GDALDatasetH d = ds.get();
  const int bands = GDALGetRasterCount(d), W = GDALGetRasterXSize(d), H = GDALGetRasterYSize(d);
  if (bands < 1 || bands > 4 || W <= 0 || H <= 0) return std::nullopt;
  for (int b = 1; b <= bands; ++b)
    if (GDALGetRasterDataType(GDALGetRasterBand(d, b)) != GDT_Byte) return std::nullopt;
  // As OpenCV's IMREAD_COLOR reads them: RGB(A) without alpha, gray (+ alpha) as three equal channels,
  // a palette looked up.
  enum class Kind { Rgb, Gray, Palette } kind;
  GDALColorTableH palette = nullptr;
  if (bands >= 3) {
    const GDALColorInterp r = GDALGetRasterColorInterpretation(GDALGetRasterBand(d, 1)),
                          g = GDALGetRasterColorInterpretation(GDALGetRasterBand(d, 2)),
                          b = GDALGetRasterColorInterpretation(GDALGetRasterBand(d, 3));
    if (r != GCI_RedBand || g != GCI_GreenBand || b != GCI_BlueBand) return std::nullopt;
    kind = Kind::Rgb;
  } else if ((palette = GDALGetRasterColorTable(GDALGetRasterBand(d, 1))) != nullptr) {
    if (bands != 1 || GDALGetPaletteInterpretation(palette) != GPI_RGB) return std::nullopt;
    kind = Kind::Palette;
  } else {
    kind = Kind::Gray;
  }
  std::vector<uint8_t> lut(256 * 3);
  if (kind == Kind::Palette)
    for (int i = 0; i < 256; ++i) {
      const GDALColorEntry* e = i < GDALGetColorEntryCount(palette) ? GDALGetColorEntry(palette, i) : nullptr;
      lut[i * 3] = e ? static_cast<uint8_t>(e->c1) : 0;
      lut[i * 3 + 1] = e ? static_cast<uint8_t>(e->c2) : 0;
      lut[i * 3 + 2] = e ? static_cast<uint8_t>(e->c3) : 0;
    }
  std::vector<uint8_t> one;
  const image::ReadRows read = [&](int y0, int rows, uint8_t* dst) {
    CPLErrorReset();
    CPLErr err;
    if (kind == Kind::Rgb) {
      int bandmap[3] = {1, 2, 3};
      err = GDALDatasetRasterIO(d, GF_Read, 0, y0, W, rows, dst, W, rows, GDT_Byte, 3, bandmap, 3, static_cast<GSpacing>(W) * 3, 1);
    } else {
      one.resize(static_cast<size_t>(W) * rows);
      err = GDALRasterIO(GDALGetRasterBand(d, 1), GF_Read, 0, y0, W, rows, one.data(), W, rows, GDT_Byte, 0, 0);
      for (size_t i = 0; i < one.size(); ++i)
        for (int c = 0; c < 3; ++c) dst[i * 3 + c] = kind == Kind::Gray ? one[i] : lut[one[i] * 3 + c];
    }
    if (err != CE_None) {
      const char* m = CPLGetLastErrorMsg();
      throw Error(path + ": GDAL could not read rows " + std::to_string(y0) + "-" + std::to_string(y0 + rows - 1) + (m && *m ? std::string(": ") + m : ""));
    }
  };
  return image::pil_resize_bilinear_rows(W, H, read, width, height);
}

}  // namespace light::geo
