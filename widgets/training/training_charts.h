#pragma once

#include <QColor>
#include <QVector>
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "widgets/training/chart_readout.h"
#include "widgets/training/ema_smoother.h"
#include "widgets/training/run_curves.h"

class QCustomPlot;
class QGridLayout;
class QCPGraph;
class QCPItemText;
class QCPRange;

namespace mrnn::widgets {

class RankGraphs;
class SeedBand;

// The monitor's charts (training loss raw and smoothed, validation, learning rate, gradient
// norm, throughput, and for Hessian-free runs λ beside the learning rate and a chart of CG
// iterations) for the live run and any overlaid runs. Points are appended as
// events arrive; redrawing is left to replot(), which the owner calls from a coalescing
// timer, so a fast run does not redraw on every step. The x axes move together: drag or
// wheel-zoom one chart and the others follow; a double click (or fitToData) goes back to
// following the data as it grows. The legend, above the loss curves rather than over them,
// hides and shows a run when its entry is clicked; moving the mouse over a chart reads every
// shown run's value at that x (ChartReadout). A live run on several processes also draws
// each rank's throughput (RankGraphs). An overlay that is a seed group (seed_group_curves.h)
// draws its mean with a ± one standard deviation band on the loss and validation charts.
class TrainingCharts : public QWidget {
  Q_OBJECT

 public:
  // CgIterations is shown only while a run with Hessian-free steps is drawn.
  enum class Chart { Loss, Validation, LearningRate, GradientNorm, Throughput, CgIterations };
  static constexpr int kChartCount = 6;
  // Symbols: training symbols read, the axis on which runs of different update rules (one
  // window a step, or Hessian-free's many) compare fairly; training time is the other.
  enum class XAxis { Step, Epoch, WallTime, Symbols };
  // Bits per symbol, or perplexity (the natural unit at word level); for a real-valued output
  // (the addition and multiplication problems) the squared error itself. Training loss follows
  // the same unit so that it compares with validation.
  enum class Unit { BitsPerSymbol, Perplexity, SquaredError };
  // The graphs each run has. Lambda (Hessian-free's damping, on the learning-rate chart: it
  // sets how far a step goes, as a rate does) and the CG iterations run and kept. ErrorRate:
  // a long-range problem's % of validation sequences wrong, on the validation chart's right
  // axis (shown while a run drawn has it).
  enum class Series {
    LossRaw,
    LossSmoothed,
    Validation,
    LearningRate,
    GradientNorm,
    Throughput,
    Lambda,
    CgIterations,
    KeptIterate,
    ErrorRate
  };
  static constexpr int kSeriesCount = 10;

  explicit TrainingCharts(QWidget* parent = nullptr);
  ~TrainingCharts() override;

  // Clears the live run's curves for a new run named `label`.
  void startLive(const QString& label);
  // Nothing drawn: no live run, no overlays, the axes on their empty ranges (another project).
  void clear();
  // Curves the live run had before it was resumed; they are drawn before its new points.
  void setLiveHistory(const RunCurves& history);
  void setLiveLabel(const QString& label);
  void addStep(const engine::StepEvent& event);
  void addValidation(const engine::ValidationEvent& event);
  const RunCurves& liveCurves() const { return live_.curves; }
  // Whether any run, live or overlaid, has a point to draw.
  bool hasData() const;
  // What the empty charts say: `text`, or (empty) that there is no data yet and Start makes
  // some. A run starting says so until its first step.
  void setWaitingText(const QString& text);
  // The empty charts' text, when it is shown (empty while there is data).
  QString placeholderText() const;
  // The validation series the unit reads.
  RunMetric validationMetric() const;
  // Whether the runs drawn include Hessian-free runs and first-order ones.
  bool mixesUpdateRules() const;
  // Whether the next run (the project's optimiser) trains by Hessian-free: until the live run
  // has a step, the charts are laid out for it (λ and CG iterations, not a learning rate).
  void setNextRunHessianFree(bool on);

  // Other runs drawn beside the live one (replacing any before); seed groups among them.
  void setOverlays(const QVector<RunCurves>& runs);
  int overlayCount() const { return static_cast<int>(overlays_.size()); }

  void setXAxis(XAxis axis);
  XAxis xAxis() const { return xAxis_; }
  void setUnit(Unit unit);
  Unit unit() const { return unit_; }
  void setLogScale(bool on);
  bool logScale() const { return logScale_; }
  // EMA weight of the smoothed loss, 0 (none) to 0.999.
  void setSmoothing(double weight);
  double smoothing() const { return smoothing_; }

  // Follow the data again after a zoom or pan, and redraw.
  void fitToData();
  bool isFollowing() const { return following_; }
  // Rescales (while following) and redraws every chart.
  void replot();

  QCustomPlot* plot(Chart chart) const { return plots_[static_cast<size_t>(chart)]; }
  QCPGraph* liveGraph(Series series) const;
  QCPGraph* overlayGraph(int overlay, Series series) const;
  // A seed group's band on the loss (smoothed) or validation chart; null for a single run.
  const SeedBand* overlayBand(int overlay, Chart chart) const;
  // The live run's throughput line for `rank`; null when it has no such rank.
  QCPGraph* liveRankGraph(int rank) const;
  int liveRankCount() const;
  // Colour of the live run (index 0) and of overlay i (index i + 1).
  static QColor runColor(int index);
  // The colour index of run `runId`: the same run has the same colour in every selection.
  static int colourIndexOf(qint64 runId);
  // The live run was given its id: it takes that run's colour.
  void setLiveRunId(qint64 runId);

  // Runs by the same index: 0 the live run, i + 1 overlay i. A hidden run's curves leave
  // every chart, its legend entry turns grey, and the axes fit the runs still shown.
  void setRunVisible(int index, bool visible);
  bool isRunVisible(int index) const;

  // The read-out at `key` (an x in the current axis' units), with the box on `chart`; what
  // hovering does, callable for tests. readoutText() is that box's text.
  void showReadout(Chart chart, double key);
  void hideReadout();
  QString readoutText(Chart chart) const;

  // Every shown run's curves, one row per point: run id, label, metric, step, epoch,
  // seconds, value (loss in bits per symbol, a real-valued output's as its squared error, as
  // the charts show it); the live run's ranks as
  // metrics rank<r>_symbols_per_second.
  QByteArray toCsv() const;
  // The five charts as one figure (.png, .svg or .pdf); throws std::runtime_error.
  void saveFigure(const QString& path);

 signals:
  // Points were added or the view changed: the owner schedules replot().
  void changed();
  // The user zoomed or panned, so the charts stopped following the data.
  void followingChanged(bool following);

 private:
  struct RunGraphs {
    RunCurves curves;
    std::array<QCPGraph*, kSeriesCount> graphs{};
    EmaSmoother ema;
    int colorIndex = 0;
    bool visible = true;
    // A seed group's ± std bands (training_charts_seeds.cpp).
    std::unique_ptr<SeedBand> lossBand;
    std::unique_ptr<SeedBand> validationBand;
  };

  bool eventFilter(QObject* watched, QEvent* event) override;

  void setUpPlot(QCustomPlot* plot, const QString& title, const QString& yLabel);
  void createGraphs(RunGraphs& run, bool live);
  void colourGraphs(RunGraphs& run, bool live);
  void removeGraphs(RunGraphs& run);
  void refill(RunGraphs& run);
  // A seed group's bands: created before its lines (drawn under them), filled from its spread.
  void createBands(RunGraphs& run);
  void refillBands(RunGraphs& run);
  // The smoothed loss drawn again, at the smoothing its curve's length allows.
  void refillSmoothedLoss(RunGraphs& run);
  template <class Value>
  void fillGraph(QCPGraph* graph, const Curve& curve, Value value) const;
  void refillAll();
  void appendPoint(RunGraphs& run, Series series, const CurvePoint& point);
  double keyOf(const CurvePoint& point) const;
  double lossValue(double nats) const;
  void applyAxisModes();
  void rescale();
  void updateTickers();
  // One chart's; whether its ticks changed.
  bool updateTickers(QCustomPlot* target);
  void updateLabels();
  void updatePlaceholder();
  void syncXRange(QCustomPlot* source, const QCPRange& range);
  void stopFollowing();
  Chart chartOf(Series series) const;
  RunGraphs* runAt(int index);
  const RunGraphs* runAt(int index) const;
  void onLegendClick(QCPGraph* graph);
  // Shows the CG chart (and λ's title) while a run drawn has Hessian-free steps.
  void updateHessianFreeCharts();
  void onHover(QCustomPlot* target, const QPoint& position);
  QString keyText(double key) const;
  void layOutLegend();

  std::array<QCustomPlot*, kChartCount> plots_{};
  QGridLayout* grid_ = nullptr;
  bool hessianFreeShown_ = false;
  bool nextRunHessianFree_ = false;
  RunGraphs live_;
  std::vector<std::unique_ptr<RunGraphs>> overlays_;
  std::unique_ptr<RankGraphs> liveRanks_;
  std::array<std::unique_ptr<ChartReadout>, kChartCount> readouts_;
  QCPItemText* placeholder_ = nullptr;
  XAxis xAxis_ = XAxis::Step;
  Unit unit_ = Unit::BitsPerSymbol;
  bool logScale_ = false;
  double smoothing_ = 0.9;
  bool following_ = true;
  bool syncing_ = false;
};

}  // namespace mrnn::widgets
