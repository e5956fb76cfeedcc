#include "widgets/gates/activation_colour_scale.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "engine/probing/gate_report.h"

namespace mrnn::widgets {

namespace {

// ColorBrewer's Oranges and RdBu: light enough at the low end for dark text, and readable
// by the common forms of colour blindness.
std::vector<std::pair<double, QColor>> gateStops() {
  return {{0.0, QColor(255, 255, 255)}, {0.5, QColor(253, 141, 60)}, {1.0, QColor(127, 39, 4)}};
}

std::vector<std::pair<double, QColor>> signedStops() {
  return {{0.0, QColor(5, 48, 97)},
          {0.25, QColor(67, 147, 195)},
          {0.5, QColor(255, 255, 255)},
          {0.75, QColor(214, 96, 77)},
          {1.0, QColor(103, 0, 31)}};
}

int mix(int a, int b, double t) {
  return static_cast<int>(std::lround(a + (b - a) * t));
}

}  // namespace

ActivationColourScale::ActivationColourScale() : stops_(gateStops()) {}

ActivationColourScale ActivationColourScale::gate() {
  return ActivationColourScale();
}

ActivationColourScale ActivationColourScale::symmetric(double limit) {
  ActivationColourScale scale;
  scale.gate_ = false;
  const double bound = limit > 0.0 && std::isfinite(limit) ? limit : 1.0;
  scale.lower_ = -bound;
  scale.upper_ = bound;
  scale.stops_ = signedStops();
  return scale;
}

ActivationColourScale ActivationColourScale::forTraces(
    const std::vector<const engine::ProbeTrace*>& traces) {
  const engine::ProbeTrace* first = nullptr;
  double largest = 0.0;
  for (const engine::ProbeTrace* trace : traces) {
    if (!trace) continue;
    if (!first) first = trace;
    for (const float v : trace->floats()) {
      if (std::isfinite(v)) largest = std::max(largest, static_cast<double>(std::abs(v)));
    }
  }
  if (first && first->isGate) return gate();
  return symmetric(largest);
}

QColor ActivationColourScale::colour(double value) const {
  if (!std::isfinite(value)) return QColor(200, 200, 200);
  const double position = std::clamp((value - lower_) / (upper_ - lower_), 0.0, 1.0);
  for (size_t i = 1; i < stops_.size(); ++i) {
    if (position <= stops_[i].first) {
      const auto& [from, a] = stops_[i - 1];
      const auto& [to, b] = stops_[i];
      const double t = (position - from) / (to - from);
      return QColor(mix(a.red(), b.red(), t), mix(a.green(), b.green(), t),
                    mix(a.blue(), b.blue(), t));
    }
  }
  return stops_.back().second;
}

QColor ActivationColourScale::textColour(double value) const {
  const QColor background = colour(value);
  // Relative luminance (Rec. 709 weights) of the background.
  const double luminance =
      0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
  return luminance < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

QCPColorGradient ActivationColourScale::gradient() const {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  for (const auto& [position, colour] : stops_) gradient.setColorStopAt(position, colour);
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  gradient.setLevelCount(512);
  gradient.setNanHandling(QCPColorGradient::nhNanColor);
  gradient.setNanColor(QColor(200, 200, 200));
  return gradient;
}

}  // namespace mrnn::widgets
