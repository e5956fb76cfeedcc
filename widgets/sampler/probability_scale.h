#pragma once

#include <QColor>
#include <QString>

namespace mrnn::widgets {

// The colour scale of the sampler's symbols: the background behind a generated symbol says
// how probable the model found it, light red (improbable) through light yellow to light
// green (near certain). Linear in the probability, light enough for dark text on top.
class ProbabilityScale {
 public:
  static QColor background(double probability);
  // For figures printed on the scale: "41.2 %", "0.03 %", "< 0.01 %".
  static QString percent(double probability);
};

}  // namespace mrnn::widgets
