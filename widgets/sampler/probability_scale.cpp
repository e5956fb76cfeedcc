#include "widgets/sampler/probability_scale.h"

#include <algorithm>
#include <cmath>

namespace mrnn::widgets {

QColor ProbabilityScale::background(double probability) {
  const double p = std::isfinite(probability) ? std::clamp(probability, 0.0, 1.0) : 0.0;
  // Hue 0 (red) to 120 degrees (green) at one saturation and value: equal lightness, so the
  // text stays equally readable along the whole scale.
  return QColor::fromHsvF(static_cast<float>(p / 3.0), 0.40f, 1.0f);
}

QString ProbabilityScale::percent(double probability) {
  const double value = 100.0 * probability;
  if (value >= 9.95) return QStringLiteral("%1 %").arg(value, 0, 'f', 1);
  if (value >= 0.01) return QStringLiteral("%1 %").arg(value, 0, 'f', 2);
  return QStringLiteral("< 0.01 %");
}

}  // namespace mrnn::widgets
