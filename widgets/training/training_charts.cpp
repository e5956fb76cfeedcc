#include "widgets/training/training_charts.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QGridLayout>
#include <QLocale>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "widgets/display_format.h"
#include "widgets/plot_legend.h"
#include "widgets/run_colours.h"
#include "widgets/training/rank_graphs.h"
#include "widgets/training/seed_band.h"

namespace mrnn::widgets {
namespace {

QFont chartFont(double points, bool bold = false) {
  QFont font;
  font.setPointSizeF(points);
  font.setBold(bold);
  return font;
}

// The numbers' locale: "25,000", not "25000", whatever the desktop's language.
QLocale chartLocale() {
  return QLocale(QLocale::English, QLocale::UnitedStates);
}

}  // namespace

TrainingCharts::TrainingCharts(QWidget* parent) : QWidget(parent) {
  grid_ = new QGridLayout(this);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(4);
  const std::array<QString, kChartCount> names = {
      QStringLiteral("lossPlot"),         QStringLiteral("validationPlot"),
      QStringLiteral("learningRatePlot"), QStringLiteral("gradientNormPlot"),
      QStringLiteral("throughputPlot"),   QStringLiteral("cgIterationsPlot")};
  for (size_t i = 0; i < plots_.size(); ++i) {
    plots_[i] = new QCustomPlot(this);
    plots_[i]->setObjectName(names[i]);
  }
  setUpPlot(plot(Chart::Loss), tr("Training loss"), QString());
  setUpPlot(plot(Chart::Validation), tr("Validation"), QString());
  setUpPlot(plot(Chart::LearningRate), tr("Learning rate"), tr("rate"));
  setUpPlot(plot(Chart::GradientNorm), tr("Gradient norm (before clipping)"), tr("norm"));
  setUpPlot(plot(Chart::Throughput), tr("Throughput"), tr("symbols/s"));
  setUpPlot(plot(Chart::CgIterations), tr("Hessian-free: CG iterations (run, kept)"),
            tr("iterations"));
  // Whole numbers read better than "4e+04" for rates in the tens of thousands.
  plot(Chart::Throughput)->yAxis->setNumberFormat(QStringLiteral("f"));
  plot(Chart::Throughput)->yAxis->setNumberPrecision(0);
  // A long-range problem's criterion on the right: its share of sequences wrong (rescale
  // shows the axis while a run drawn has it).
  QCPAxis* wrong = plot(Chart::Validation)->yAxis2;
  wrong->setLabel(tr("% wrong"));
  wrong->setRange(0, 100);
  wrong->grid()->setVisible(false);
  plot(Chart::Loss)
      ->setToolTip(
          tr("Training loss of each step (light) and its exponential moving average (bold).\n"
             "Click a run in the legend to hide or show it; the mouse reads every run's value.\n"
             "Drag to pan, wheel to zoom, double-click to follow the data again."));
  plot(Chart::Validation)
      ->setToolTip(tr("Loss on the validation split at each validation; for a long-range problem "
                      "also the % of its validation sequences wrong (dotted, right axis), the "
                      "measure it is solved by."));
  plot(Chart::LearningRate)->setToolTip(tr("The learning rate the schedule set for each step."));
  plot(Chart::GradientNorm)
      ->setToolTip(tr("Global gradient norm of each step, measured before clipping."));
  plot(Chart::Throughput)
      ->setToolTip(tr("Training symbols processed per second; on several processes each rank's "
                      "too (the lowest line is the slowest rank)."));
  plot(Chart::CgIterations)
      ->setToolTip(tr("Each Hessian-free step's conjugate-gradient iterations (solid) and the "
                      "one backtracking kept (dashed); the read-out adds ρ, the reduction "
                      "ratio that sets λ."));

  // Loss and validation get the room: they are what a researcher watches. The CG chart joins
  // the small ones below while a Hessian-free run is shown (updateHessianFreeCharts).
  grid_->addWidget(plot(Chart::Loss), 0, 0, 1, 6);
  grid_->addWidget(plot(Chart::Validation), 0, 6, 1, 6);
  grid_->setRowStretch(0, 3);
  grid_->setRowStretch(1, 2);
  hessianFreeShown_ = true;  // so that the first update lays the small charts out

  // The legend goes between the title and the curves, in rows, so it never hides the
  // curves' right end however many runs it lists; a click on an entry hides that run.
  QCustomPlot* loss = plot(Chart::Loss);
  placeLegendInRow(loss, 1);
  QCPLegend* legend = loss->legend;
  legend->setFont(chartFont(7.5));
  legend->setRowSpacing(0);
  legend->setColumnSpacing(10);
  legend->setIconSize(18, 9);
  legend->setSelectableParts(QCPLegend::spNone);
  legend->setMargins(QMargins(6, 0, 6, 0));
  connect(loss, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(item)) {
              onLegendClick(qobject_cast<QCPGraph*>(entry->plottable()));
            }
          });

  placeholder_ = new QCPItemText(loss);
  placeholder_->position->setType(QCPItemPosition::ptAxisRectRatio);
  placeholder_->position->setCoords(0.5, 0.5);
  placeholder_->setPositionAlignment(Qt::AlignCenter);
  placeholder_->setFont(chartFont(9));
  placeholder_->setColor(QColor(0x90, 0x90, 0x90));
  setWaitingText(QString());

  for (size_t i = 0; i < plots_.size(); ++i) {
    readouts_[i] = std::make_unique<ChartReadout>(plots_[i]);
    plots_[i]->setMouseTracking(true);
    plots_[i]->installEventFilter(this);  // Leave hides the read-out; Resize re-flows the legend
  }

  updateHessianFreeCharts();
  live_.colorIndex = 0;
  createGraphs(live_, true);
  // Under the live run's total (its own layer): the total is what the run goes at.
  liveRanks_ = std::make_unique<RankGraphs>(plot(Chart::Throughput), QStringLiteral("main"));
  applyAxisModes();
  updateLabels();
  updatePlaceholder();
}

TrainingCharts::~TrainingCharts() = default;

QColor TrainingCharts::runColor(int index) {
  return runColour(index + 1);  // colourIndexOf's inverse: one colour per run in every view
}

void TrainingCharts::setUpPlot(QCustomPlot* target, const QString& title, const QString& yLabel) {
  target->setMinimumSize(140, 90);
  // "25,000", not "25000": numbers as a researcher reads them.
  target->setLocale(chartLocale());
  target->setBackground(Qt::white);
  target->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  target->setNoAntialiasingOnDrag(true);
  target->addLayer(QStringLiteral("live"), target->layer(QStringLiteral("main")),
                   QCustomPlot::limAbove);
  target->plotLayout()->insertRow(0);
  auto* heading = new QCPTextElement(target, title, chartFont(8.5, true));
  heading->setTextColor(QColor(0x30, 0x30, 0x30));
  heading->setMargins(QMargins(0, 4, 0, 0));
  target->plotLayout()->addElement(0, 0, heading);
  for (QCPAxis* axis : {target->xAxis, target->yAxis, target->yAxis2}) {
    axis->setTickLabelFont(chartFont(7.5));
    axis->setLabelFont(chartFont(7.5));
    axis->setLabelColor(QColor(0x50, 0x50, 0x50));
    axis->setTickLabelColor(QColor(0x50, 0x50, 0x50));
    axis->setBasePen(QPen(QColor(0x9a, 0x9a, 0x9a)));
    axis->setTickPen(QPen(QColor(0x9a, 0x9a, 0x9a)));
    axis->setSubTickPen(QPen(QColor(0xb8, 0xb8, 0xb8)));
    axis->grid()->setPen(QPen(QColor(0xe6, 0xe6, 0xe6)));
    axis->grid()->setZeroLinePen(Qt::NoPen);
    axis->setPadding(2);
  }
  target->yAxis->setLabel(yLabel);
  target->yAxis->setNumberFormat(QStringLiteral("g"));
  target->yAxis->setNumberPrecision(4);
  target->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  target->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);

  // A drag or wheel zoom means the user wants this view: stop following the data.
  connect(target, &QCustomPlot::mousePress, this, [this, target](QMouseEvent* event) {
    if (target->axisRect()->rect().contains(event->pos())) stopFollowing();
  });
  connect(target, &QCustomPlot::mouseMove, this,
          [this, target](QMouseEvent* event) { onHover(target, event->pos()); });
  connect(target, &QCustomPlot::mouseWheel, this, [this] { stopFollowing(); });
  // Tick counts follow the curves' height, known only once a replot has laid the chart out
  // (the first one, a resize), after it made this replot's ticks: a change asks the owner for
  // another, which its coalescing timer merges with the data's.
  connect(target, &QCustomPlot::afterLayout, this, [this, target] {
    if (updateTickers(target)) emit changed();
  });
  connect(target, &QCustomPlot::mouseDoubleClick, this, [this] { fitToData(); });
  connect(target->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this, target](const QCPRange& range) { syncXRange(target, range); });
}

TrainingCharts::Chart TrainingCharts::chartOf(Series series) const {
  switch (series) {
    case Series::LossRaw:
    case Series::LossSmoothed:
      return Chart::Loss;
    case Series::Validation:
      return Chart::Validation;
    case Series::LearningRate:
      return Chart::LearningRate;
    case Series::GradientNorm:
      return Chart::GradientNorm;
    case Series::Throughput:
      return Chart::Throughput;
    case Series::Lambda:
      return Chart::LearningRate;
    case Series::CgIterations:
    case Series::KeptIterate:
      return Chart::CgIterations;
    case Series::ErrorRate:
      return Chart::Validation;
  }
  return Chart::Loss;
}

void TrainingCharts::setNextRunHessianFree(bool on) {
  if (on == nextRunHessianFree_) return;
  nextRunHessianFree_ = on;
  updateHessianFreeCharts();
  emit changed();
}

void TrainingCharts::updateHessianFreeCharts() {
  // Before its first step the live run is what the project will train.
  const bool nextRun = live_.curves.isEmpty() && nextRunHessianFree_;
  bool any = nextRun || live_.curves.hessianFree();
  bool firstOrderOverlay = false;
  for (const auto& overlay : overlays_) {
    any = any || overlay->curves.hessianFree();
    firstOrderOverlay =
        firstOrderOverlay || (!overlay->curves.isEmpty() && !overlay->curves.hessianFree());
  }
  // The rate chart says what it draws: a learning rate, Hessian-free's λ (dotted), or both.
  auto* title =
      qobject_cast<QCPTextElement*>(plot(Chart::LearningRate)->plotLayout()->element(0, 0));
  const bool both = mixesUpdateRules() || (nextRun && firstOrderOverlay);
  if (title) {
    title->setText(!any   ? tr("Learning rate")
                   : both ? tr("Learning rate · Hessian-free λ (dotted)")
                          : tr("Hessian-free λ (damping)"));
  }
  plot(Chart::LearningRate)->yAxis->setLabel(!any ? tr("rate") : both ? tr("rate · λ") : tr("λ"));
  if (any == hessianFreeShown_) return;
  hessianFreeShown_ = any;
  const std::array<Chart, 4> small = {Chart::LearningRate, Chart::GradientNorm, Chart::Throughput,
                                      Chart::CgIterations};
  const int count = any ? 4 : 3;
  for (int i = 0; i < 4; ++i) grid_->removeWidget(plot(small[static_cast<size_t>(i)]));
  for (int i = 0; i < count; ++i) {
    grid_->addWidget(plot(small[static_cast<size_t>(i)]), 1, i * 12 / count, 1, 12 / count);
  }
  plot(Chart::CgIterations)->setVisible(any);
}

void TrainingCharts::createGraphs(RunGraphs& run, bool live) {
  createBands(run);
  for (int s = 0; s < kSeriesCount; ++s) {
    const auto series = static_cast<Series>(s);
    QCustomPlot* target = plot(chartOf(series));
    QCPGraph* graph = series == Series::ErrorRate ? target->addGraph(target->xAxis, target->yAxis2)
                                                  : target->addGraph();
    graph->setAdaptiveSampling(true);
    if (series == Series::LossSmoothed) {
      graph->setName(run.curves.label());
    } else {
      graph->removeFromLegend();
    }
    run.graphs[static_cast<size_t>(s)] = graph;
  }
  colourGraphs(run, live);
  // The live run is drawn over the overlays.
  if (live) {
    for (QCPGraph* graph : run.graphs) graph->setLayer(QStringLiteral("live"));
  }
}

void TrainingCharts::colourGraphs(RunGraphs& run, bool live) {
  const QColor color = runColor(run.colorIndex);
  QColor faint = color;
  faint.setAlpha(live ? 80 : 45);
  for (int s = 0; s < kSeriesCount; ++s) {
    const auto series = static_cast<Series>(s);
    QCPGraph* graph = run.graphs[static_cast<size_t>(s)];
    QPen pen(series == Series::LossRaw ? faint : color);
    pen.setWidthF(series == Series::LossSmoothed ? 2.0 : (live ? 1.3 : 1.0));
    if (!live && series != Series::LossRaw) {
      pen.setStyle(Qt::DashLine);  // overlays read as references, the live run as solid
    }
    // The kept iterate beside the iterations run, λ beside a learning rate, the % wrong beside
    // the validation loss: dotted.
    if (series == Series::KeptIterate || series == Series::Lambda || series == Series::ErrorRate) {
      pen.setStyle(Qt::DotLine);
    }
    graph->setPen(pen);
    if (series == Series::ErrorRate) {
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, color, live ? 4 : 3));
    }
    if (series == Series::Validation) {
      graph->setScatterStyle(
          QCPScatterStyle(QCPScatterStyle::ssCircle, color, QColor(Qt::white), live ? 6 : 5));
    }
  }
  for (SeedBand* band : {run.lossBand.get(), run.validationBand.get()}) {
    if (band) band->setColour(color);
  }
}

int TrainingCharts::colourIndexOf(qint64 runId) {
  return runId > 0 ? static_cast<int>((runId - 1) % 1000) : 0;
}

void TrainingCharts::setLiveRunId(qint64 runId) {
  const int index = colourIndexOf(runId);
  if (index == live_.colorIndex) return;
  live_.colorIndex = index;
  colourGraphs(live_, true);
  emit changed();
}

void TrainingCharts::removeGraphs(RunGraphs& run) {
  for (QCPGraph*& graph : run.graphs) {
    if (graph) graph->parentPlot()->removeGraph(graph);
    graph = nullptr;
  }
  run.lossBand.reset();
  run.validationBand.reset();
}

double TrainingCharts::keyOf(const CurvePoint& point) const {
  switch (xAxis_) {
    case XAxis::Step:
      return point.step;
    case XAxis::Epoch:
      return point.epoch;
    case XAxis::WallTime:
      return point.wallSeconds;
    case XAxis::Symbols:
      return point.symbols;
  }
  return point.step;
}

double TrainingCharts::lossValue(double nats) const {
  switch (unit_) {
    case Unit::BitsPerSymbol:
      return natsToBits(nats);
    case Unit::Perplexity:
      return std::exp(nats);
    case Unit::SquaredError:
      break;
  }
  return nats;
}

RunMetric TrainingCharts::validationMetric() const {
  switch (unit_) {
    case Unit::BitsPerSymbol:
      return RunMetric::ValidBits;
    case Unit::Perplexity:
      return RunMetric::ValidPerplexity;
    case Unit::SquaredError:
      break;
  }
  return RunMetric::ValidLoss;
}

void TrainingCharts::appendPoint(RunGraphs& run, Series series, const CurvePoint& point) {
  run.graphs[static_cast<size_t>(series)]->addData(keyOf(point), point.value);
}

template <class Value>
void TrainingCharts::fillGraph(QCPGraph* graph, const Curve& curve, Value value) const {
  QVector<double> keys;
  QVector<double> values;
  keys.reserve(curve.size());
  values.reserve(curve.size());
  for (const CurvePoint& point : curve) {
    keys.append(keyOf(point));
    values.append(value(point.value));
  }
  graph->setData(keys, values);
}

void TrainingCharts::refillSmoothedLoss(RunGraphs& run) {
  const Curve& train = run.curves.curve(RunMetric::TrainLoss);
  run.ema = EmaSmoother(EmaSmoother::weightFor(smoothing_, train.size()));
  fillGraph(run.graphs[static_cast<size_t>(Series::LossSmoothed)], train,
            [this, &run](double nats) { return lossValue(run.ema.add(nats)); });
}

void TrainingCharts::refill(RunGraphs& run) {
  const auto fill = [this](QCPGraph* graph, const Curve& curve, auto value) {
    fillGraph(graph, curve, value);
  };
  const auto same = [](double v) { return v; };
  const auto loss = [this](double nats) { return lossValue(nats); };
  fill(run.graphs[static_cast<size_t>(Series::LossRaw)], run.curves.curve(RunMetric::TrainLoss),
       loss);
  refillSmoothedLoss(run);
  fill(run.graphs[static_cast<size_t>(Series::Validation)], run.curves.curve(validationMetric()),
       same);
  fill(run.graphs[static_cast<size_t>(Series::LearningRate)],
       run.curves.curve(RunMetric::LearningRate), same);
  fill(run.graphs[static_cast<size_t>(Series::GradientNorm)],
       run.curves.curve(RunMetric::GradientNorm), same);
  fill(run.graphs[static_cast<size_t>(Series::Throughput)], run.curves.curve(RunMetric::Throughput),
       same);
  fill(run.graphs[static_cast<size_t>(Series::Lambda)], run.curves.curve(RunMetric::Lambda), same);
  fill(run.graphs[static_cast<size_t>(Series::CgIterations)],
       run.curves.curve(RunMetric::CgIterations), same);
  fill(run.graphs[static_cast<size_t>(Series::KeptIterate)],
       run.curves.curve(RunMetric::KeptIterate), same);
  fill(run.graphs[static_cast<size_t>(Series::ErrorRate)],
       run.curves.curve(RunMetric::ValidErrorRate), [](double share) { return 100.0 * share; });
  refillBands(run);
  if (&run == &live_) {
    liveRanks_->refill(run.curves.rankThroughput(),
                       [this](const CurvePoint& point) { return keyOf(point); });
  }
}

void TrainingCharts::refillAll() {
  updateHessianFreeCharts();
  refill(live_);
  for (auto& overlay : overlays_) refill(*overlay);
  updatePlaceholder();
  if (!following_) {
    following_ = true;
    emit followingChanged(true);
  }
  emit changed();
}

void TrainingCharts::startLive(const QString& label) {
  live_.curves = RunCurves(0, label);
  if (live_.colorIndex != 0) {  // until the new run has its id
    live_.colorIndex = 0;
    colourGraphs(live_, true);
  }
  live_.graphs[static_cast<size_t>(Series::LossSmoothed)]->setName(label);
  refill(live_);
  updatePlaceholder();
  if (!following_) {
    following_ = true;
    emit followingChanged(true);
  }
  emit changed();
}

void TrainingCharts::clear() {
  startLive(QString());
  setOverlays({});
  replot();
}

void TrainingCharts::setLiveHistory(const RunCurves& history) {
  live_.curves.prependHistory(history);
  refill(live_);
  updatePlaceholder();
  emit changed();
}

void TrainingCharts::setLiveLabel(const QString& label) {
  live_.curves.setLabel(label);
  live_.graphs[static_cast<size_t>(Series::LossSmoothed)]->setName(label);
  emit changed();
}

void TrainingCharts::addStep(const engine::StepEvent& event) {
  live_.curves.addStep(event);
  const auto at = [&event](double value) {
    return CurvePoint{static_cast<double>(event.step), event.epoch, event.wallSeconds, value,
                      static_cast<double>(event.symbols)};
  };
  appendPoint(live_, Series::LossRaw, at(lossValue(event.loss)));
  // While the run is short its smoothing grows with it: the smoothed curve is drawn again.
  if (EmaSmoother::weightFor(smoothing_, live_.curves.curve(RunMetric::TrainLoss).size()) !=
      live_.ema.weight()) {
    refillSmoothedLoss(live_);
  } else {
    appendPoint(live_, Series::LossSmoothed, at(lossValue(live_.ema.add(event.loss))));
  }
  if (event.update.empty()) {
    appendPoint(live_, Series::LearningRate, at(event.learningRate));
    // A first-order run's first step beside Hessian-free overlays: the rate chart shows both.
    if (live_.curves.curve(RunMetric::TrainLoss).size() == 1) updateHessianFreeCharts();
  } else {
    updateHessianFreeCharts();
    for (const auto& [series, metric] : {std::pair{Series::Lambda, RunMetric::Lambda},
                                         std::pair{Series::CgIterations, RunMetric::CgIterations},
                                         std::pair{Series::KeptIterate, RunMetric::KeptIterate}}) {
      const Curve& curve = live_.curves.curve(metric);
      if (!curve.isEmpty() && curve.last().step == event.step)
        appendPoint(live_, series, curve.last());
    }
  }
  appendPoint(live_, Series::GradientNorm, at(event.gradientNorm));
  appendPoint(live_, Series::Throughput, at(event.symbolsPerSecond));
  liveRanks_->addStep(event.rankSymbolsPerSecond, keyOf(at(0.0)));
  if (live_.curves.curve(RunMetric::TrainLoss).size() == 1) updatePlaceholder();
  emit changed();
}

void TrainingCharts::addValidation(const engine::ValidationEvent& event) {
  live_.curves.addValidation(event);
  // The curves just gained the point, with the wall time they resolved for it.
  appendPoint(live_, Series::Validation, live_.curves.curve(validationMetric()).last());
  if (event.figures.errorRate >= 0) {
    const CurvePoint& wrong = live_.curves.curve(RunMetric::ValidErrorRate).last();
    live_.graphs[static_cast<size_t>(Series::ErrorRate)]->addData(keyOf(wrong),
                                                                  100.0 * wrong.value);
  }
  emit changed();
}

void TrainingCharts::setOverlays(const QVector<RunCurves>& runs) {
  // A run the user hid stays hidden when the overlays are read again.
  QSet<qint64> hidden;
  for (const auto& overlay : overlays_) {
    if (!overlay->visible) hidden.insert(overlay->curves.runId());
    removeGraphs(*overlay);
  }
  overlays_.clear();
  for (int i = 0; i < runs.size(); ++i) {
    auto overlay = std::make_unique<RunGraphs>();
    overlay->curves = runs[i];
    // A run keeps its colour whichever runs are shown beside it.
    overlay->colorIndex = colourIndexOf(runs[i].runId());
    createGraphs(*overlay, false);
    overlays_.push_back(std::move(overlay));
    if (hidden.contains(runs[i].runId())) setRunVisible(i + 1, false);
  }
  layOutLegend();
  refillAll();
}

QCPGraph* TrainingCharts::liveGraph(Series series) const {
  return live_.graphs[static_cast<size_t>(series)];
}

QCPGraph* TrainingCharts::liveRankGraph(int rank) const {
  return liveRanks_->graph(rank);
}

int TrainingCharts::liveRankCount() const {
  return liveRanks_->count();
}

QCPGraph* TrainingCharts::overlayGraph(int overlay, Series series) const {
  if (overlay < 0 || overlay >= overlayCount()) return nullptr;
  return overlays_[static_cast<size_t>(overlay)]->graphs[static_cast<size_t>(series)];
}

void TrainingCharts::setXAxis(XAxis axis) {
  if (axis == xAxis_) return;
  xAxis_ = axis;
  applyAxisModes();
  updateLabels();
  refillAll();
}

void TrainingCharts::setUnit(Unit unit) {
  if (unit == unit_) return;
  unit_ = unit;
  updateLabels();
  refillAll();
}

void TrainingCharts::setLogScale(bool on) {
  if (on == logScale_) return;
  logScale_ = on;
  applyAxisModes();
  if (!following_) {
    following_ = true;
    emit followingChanged(true);
  }
  emit changed();
}

void TrainingCharts::setSmoothing(double weight) {
  weight = std::clamp(weight, 0.0, 0.999);
  if (weight == smoothing_) return;
  smoothing_ = weight;
  refill(live_);
  for (auto& overlay : overlays_) refill(*overlay);
  emit changed();
}

bool TrainingCharts::mixesUpdateRules() const {
  bool hessianFree = false;
  bool firstOrder = false;
  const auto count = [&](const RunCurves& curves) {
    if (curves.isEmpty()) return;
    (curves.hessianFree() ? hessianFree : firstOrder) = true;
  };
  count(live_.curves);
  for (const auto& overlay : overlays_) count(overlay->curves);
  return hessianFree && firstOrder;
}

bool TrainingCharts::hasData() const {
  bool any = !live_.curves.isEmpty();
  for (const auto& overlay : overlays_) any = any || !overlay->curves.isEmpty();
  return any;
}

void TrainingCharts::setWaitingText(const QString& text) {
  placeholder_->setText(text.isEmpty() ? tr("No training data yet: press Start (F5)") : text);
  emit changed();
}

QString TrainingCharts::placeholderText() const {
  return placeholder_->visible() ? placeholder_->text() : QString();
}

void TrainingCharts::updatePlaceholder() {
  const bool any = hasData();
  placeholder_->setVisible(!any);
  plot(Chart::Loss)->legend->setVisible(any);
  // A run that has drawn nothing has no place in the legend (an empty line, first).
  QCPGraph* live = live_.graphs[static_cast<size_t>(Series::LossSmoothed)];
  if (live_.curves.isEmpty()) {
    live->removeFromLegend();
  } else if (!plot(Chart::Loss)->legend->hasItemWithPlottable(live)) {
    live->addToLegend();
    setRunVisible(0, live_.visible);  // the entry's grey, if the run was hidden
  }
  layOutLegend();
}

void TrainingCharts::stopFollowing() {
  if (!following_) return;
  following_ = false;
  emit followingChanged(false);
}

void TrainingCharts::fitToData() {
  const bool was = following_;
  following_ = true;
  if (!was) emit followingChanged(true);
  replot();
}

void TrainingCharts::syncXRange(QCustomPlot* source, const QCPRange& range) {
  if (syncing_) return;
  syncing_ = true;
  for (QCustomPlot* target : plots_) {
    if (target == source) continue;
    target->xAxis->setRange(range);
    target->replot(QCustomPlot::rpQueuedReplot);
  }
  syncing_ = false;
}

void TrainingCharts::replot() {
  if (following_) rescale();
  updateTickers();
  for (QCustomPlot* target : plots_) target->replot();
}

TrainingCharts::RunGraphs* TrainingCharts::runAt(int index) {
  if (index == 0) return &live_;
  if (index < 1 || index > overlayCount()) return nullptr;
  return overlays_[static_cast<size_t>(index - 1)].get();
}

const TrainingCharts::RunGraphs* TrainingCharts::runAt(int index) const {
  return const_cast<TrainingCharts*>(this)->runAt(index);
}

bool TrainingCharts::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Leave) {
    hideReadout();
  } else if (event->type() == QEvent::Resize && watched == plot(Chart::Loss)) {
    layOutLegend();
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace mrnn::widgets
