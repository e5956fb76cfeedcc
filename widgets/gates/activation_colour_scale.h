#pragma once

#include <QColor>
#include <utility>
#include <vector>

class QCPColorGradient;

namespace mrnn::engine {
struct ProbeTrace;
}

namespace mrnn::widgets {

// The colours of a probe's values, shared by the heatmap and the coloured text so that a
// colour means the same value in both. Gates (sigmoids) run white (0) to dark orange (1) on
// a fixed [0, 1]; every other probe is signed: blue (negative) through white (0) to red
// (positive), symmetric around 0 so that white always means zero.
class ActivationColourScale {
 public:
  ActivationColourScale();  // a gate scale
  static ActivationColourScale gate();
  // [-limit, limit]; a limit <= 0 becomes 1.
  static ActivationColourScale symmetric(double limit);
  // The scale for `traces` (null entries skipped): gate when the first is a gate, else
  // symmetric around the largest |value| of them all.
  static ActivationColourScale forTraces(const std::vector<const engine::ProbeTrace*>& traces);

  bool isGate() const { return gate_; }
  double lower() const { return lower_; }
  double upper() const { return upper_; }
  // The colour of `value` (clamped to the range), interpolated linearly in RGB between the
  // scale's stops, exactly as gradient() does at its resolution.
  QColor colour(double value) const;
  // Black or white, whichever reads better on colour(value).
  QColor textColour(double value) const;
  // The same stops for QCPColorMap and QCPColorScale.
  QCPColorGradient gradient() const;

 private:
  bool gate_ = true;
  double lower_ = 0.0;
  double upper_ = 1.0;
  std::vector<std::pair<double, QColor>> stops_;  // positions in [0, 1], ascending
};

}  // namespace mrnn::widgets
