#include "widgets/surprisal/surprisal_scale.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace mrnn::widgets {
namespace {

// ColorBrewer Reds (9 classes), its lightest class replaced by white so that 0 bits leaves
// the text unmarked.
constexpr std::array<QRgb, 9> kReds = {0xffffff, 0xfee0d2, 0xfcbba1, 0xfc9272, 0xfb6a4a,
                                       0xef3b2c, 0xcb181d, 0xa50f15, 0x67000d};

// ColorBrewer RdBu (9 classes) from its blue end to its red end, its middle class replaced
// by white so that no difference leaves the text unmarked.
constexpr std::array<QRgb, 9> kBlueToRed = {0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xffffff,
                                            0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b};

// WCAG relative luminance: dark text reads better above 0.179, white below.
double luminance(const QColor& colour) {
  const auto linear = [](double c) {
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) +
         0.0722 * linear(colour.blueF());
}

int mix(int a, int b, double t) {
  return static_cast<int>(std::lround(a + (b - a) * t));
}

// The colour at `x` (0 .. classes - 1) along a scale of classes, mixed between the two
// classes it lies between.
QColor alongClasses(const std::array<QRgb, 9>& classes, double x) {
  const auto low = static_cast<size_t>(std::floor(x));
  if (low + 1 >= classes.size()) return QColor(classes.back());
  const double t = x - static_cast<double>(low);
  const QColor a(classes[low]);
  const QColor b(classes[low + 1]);
  return QColor(mix(a.red(), b.red(), t), mix(a.green(), b.green(), t), mix(a.blue(), b.blue(), t));
}

}  // namespace

QColor SurprisalScale::bitsColour(double bits) {
  return alongClasses(kReds, std::isfinite(bits) ? std::clamp(bits, 0.0, kMaxBits) : kMaxBits);
}

QColor SurprisalScale::differenceColour(double bits) {
  if (std::isnan(bits)) return QColor(kBlueToRed[4]);
  // Four classes each way over kMaxDifferenceBits: one class per bit.
  return alongClasses(
      kBlueToRed, std::clamp(bits, -kMaxDifferenceBits, kMaxDifferenceBits) + kMaxDifferenceBits);
}

int SurprisalScale::rankBucket(int64_t rank) {
  if (rank <= 1) return 0;
  if (rank <= 10) return 1;
  if (rank <= 100) return 2;
  return 3;
}

QColor SurprisalScale::bucketColour(int bucket) {
  // GLTR's green, yellow, red and purple, light enough for dark text.
  switch (bucket) {
    case 0:
      return QColor(0xb8, 0xe6, 0xa8);
    case 1:
      return QColor(0xff, 0xe6, 0x80);
    case 2:
      return QColor(0xfb, 0x9a, 0x8a);
    default:
      return QColor(0xcf, 0xb4, 0xea);
  }
}

QColor SurprisalScale::rankColour(int64_t rank) {
  return bucketColour(rankBucket(rank));
}

QString SurprisalScale::bucketName(int bucket) {
  switch (bucket) {
    case 0:
      return QStringLiteral("top 1");
    case 1:
      return QStringLiteral("top 10");
    case 2:
      return QStringLiteral("top 100");
    default:
      return QStringLiteral("rest");
  }
}

QColor SurprisalScale::unpredictedColour() {
  return QColor(0xe4, 0xe4, 0xe4);
}

QColor SurprisalScale::textOn(const QColor& background) {
  // Whichever of the two reads with more contrast (WCAG ratio): on saturated reds white
  // wins even where the 0.179 rule of thumb (made for pure black) picks dark text.
  const QColor dark(0x1a, 0x1a, 0x1a);
  const double l = luminance(background);
  const double onWhite = 1.05 / (l + 0.05);
  const double onDark = (l + 0.05) / (luminance(dark) + 0.05);
  return onWhite >= onDark ? QColor(Qt::white) : dark;
}

QColor SurprisalScale::markOn(const QColor& background) {
  return textOn(background) == QColor(Qt::white) ? QColor(0xf0, 0xd0, 0xd0)
                                                 : QColor(0x80, 0x80, 0x80);
}

}  // namespace mrnn::widgets
