#pragma once

#include <QString>
#include <array>
#include <cstdint>
#include <vector>

#include <qcustomplot.h>

namespace mrnn::engine {
struct ProbeTrace;
}

namespace mrnn::widgets {

// The distribution of one probe's values over every step and unit of the text, in 40 bins:
// gates over [0, 1] (saturation shows as mass at both ends), other probes over the range of
// the values. A second model's bars are overlaid on the same bins; heights are shares of
// each model's values, so models of different sizes compare.
class GateHistogram : public QCustomPlot {
  Q_OBJECT

 public:
  static constexpr int kBins = 40;

  explicit GateHistogram(QWidget* parent = nullptr);

  // `b` may be null. `title` names the probe.
  void setTraces(const engine::ProbeTrace* a, const engine::ProbeTrace* b, const QString& labelA,
                 const QString& labelB, const QString& title);
  void clearHistogram(const QString& message);
  // Models A's and B's colours: their runs' (run_colours.h).
  void setColours(const QColor& a, const QColor& b);

  // Values per bin of model 0 (A) or 1 (B); empty when that model is not shown.
  const std::vector<int64_t>& counts(int model) const;
  double lower() const { return lower_; }
  double upper() const { return upper_; }
  double binWidth() const { return (upper_ - lower_) / kBins; }
  QCPBars* bars(int model) const { return model == 0 ? barsA_ : barsB_; }
  QString title() const;

  // `bins` equal bins over [lower, upper]; values outside are counted in the end bins, the
  // upper bound belongs to the last bin, non-finite values are left out.
  static std::vector<int64_t> binCounts(const std::vector<float>& values, double lower,
                                        double upper, int bins);

 private:
  QCPBars* barsA_ = nullptr;
  QCPBars* barsB_ = nullptr;
  QCPTextElement* title_ = nullptr;
  std::array<std::vector<int64_t>, 2> counts_;
  double lower_ = 0.0;
  double upper_ = 1.0;
};

}  // namespace mrnn::widgets
