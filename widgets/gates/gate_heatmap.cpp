#include "widgets/gates/gate_heatmap.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/probing/gate_report.h"
#include "widgets/plot_heights.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {

namespace {

QString tickSymbol(const std::string& symbol) {
  if (symbol == "<eos>") return QString(QChar(0x21B5));
  return visibleSymbol(symbol);
}

QSharedPointer<QCPAxisTickerFixed> integerTicker() {
  QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
  ticker->setTickStep(1.0);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  return ticker;
}

}  // namespace

GateHeatmap::GateHeatmap(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("gateHeatmapPlot"));
  plot_->setMinimumHeight(kLeastStackedPlotHeight);
  // No tooltip on the map itself: it would cover the cells being read. The read-out line
  // below says what is under the pointer, and how to use the map when nothing is.
  plot_->setWhatsThis(
      tr("Each cell is one unit's value at one step of the text. Hover to read a value, click "
         "to colour the text by that unit, drag or scroll to move along the text, double-click "
         "to see all of it, Shift+drag to select steps and rank the units that follow them."));
  plot_->plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setBold(true);
  title_ = new QCPTextElement(plot_, QString(), titleFont);
  plot_->plotLayout()->addElement(0, 0, title_);

  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  colourScale_ = new QCPColorScale(plot_);
  colourScale_->setType(QCPAxis::atRight);
  colourScale_->setBarWidth(12);
  plot_->plotLayout()->addElement(1, 1, colourScale_);
  map_->setColorScale(colourScale_);
  // The colour bar runs exactly as tall as the map.
  auto* margins = new QCPMarginGroup(plot_);
  plot_->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  colourScale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

  plot_->xAxis->setLabel(tr("time step"));
  plot_->yAxis->setLabel(tr("unit"));
  plot_->yAxis->setTicker(integerTicker());
  plot_->xAxis->setTicker(integerTicker());
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->installEventFilter(this);

  halo_ = new QCPItemRect(plot_);
  halo_->setPen(QPen(QColor(255, 255, 255), 4.0));
  selection_ = new QCPItemRect(plot_);
  selection_->setPen(QPen(QColor(0, 0, 0), 1.5));
  for (QCPItemRect* rect : {halo_, selection_}) {
    rect->setBrush(Qt::NoBrush);
    rect->setVisible(false);
    rect->setSelectable(false);
  }
  brush_ = new QCPItemRect(plot_);
  brush_->setObjectName(QStringLiteral("heatmapBrush"));
  brush_->setPen(QPen(QColor(20, 20, 20), 1.5, Qt::DashLine));
  brush_->setBrush(QColor(255, 255, 255, 70));
  brush_->setVisible(false);
  brush_->setSelectable(false);

  readout_ = new QLabel(this);
  readout_->setObjectName(QStringLiteral("heatmapReadout"));
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(plot_, 1);
  layout->addWidget(readout_);

  connect(plot_, &QCustomPlot::mouseMove, this, &GateHeatmap::mouseMoved);
  connect(plot_, &QCustomPlot::mousePress, this, &GateHeatmap::mousePressed);
  connect(plot_, &QCustomPlot::mouseRelease, this, &GateHeatmap::mouseReleased);
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { showWholeText(); });
  // Symbols along the time axis wherever the zoom and the map's width leave room for them.
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this] { updateTimeTicks(); });
  connect(plot_, &QCustomPlot::afterLayout, this, [this] { updateTimeTicks(); });
  clearMap(tr("Run the analysis to see the probes"));
}

void GateHeatmap::setTrace(const engine::ProbeTrace& trace, const std::vector<std::string>& symbols,
                           const ActivationColourScale& scale, const QString& title) {
  steps_ = static_cast<int>(trace.steps);
  units_ = static_cast<int>(trace.units);
  symbols_ = symbols;
  scale_ = scale;
  probe_ = QString::fromStdString(trace.probe);
  title_->setText(title);

  // QCPColorMap places cell centres from the first to the last coordinate of its range, so a
  // single step (or unit) is drawn as two equal cells half a step apart to keep its width.
  const int keyCells = steps_ == 1 ? 2 : steps_;
  const int valueCells = units_ == 1 ? 2 : units_;
  auto* data = map_->data();
  data->setSize(keyCells, valueCells);
  data->setRange(steps_ == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, steps_ - 1),
                 units_ == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, units_ - 1));
  const std::vector<float> values = trace.floats();
  for (int k = 0; k < keyCells; ++k) {
    const int step = steps_ == 1 ? 0 : k;
    for (int v = 0; v < valueCells; ++v) {
      const int unit = units_ == 1 ? 0 : v;
      data->setCell(k, v,
                    values[static_cast<size_t>(step) * static_cast<size_t>(units_) +
                           static_cast<size_t>(unit)]);
    }
  }
  map_->setGradient(scale_.gradient());
  map_->setDataRange(QCPRange(scale_.lower(), scale_.upper()));
  map_->setVisible(hasTrace());
  colourScale_->setVisible(true);
  // A whole title, not a rotated letter: probes are named "i", "f", "o"...
  colourScale_->axis()->setLabel(tr("%1 value").arg(probe_));
  plot_->yAxis->setRange(-0.5, units_ - 0.5);
  buildSymbolTicker();
  brushed_ = {-1, -1};
  brush_->setVisible(false);
  if (selectedUnit_ >= units_) selectedUnit_ = -1;
  setSelectedUnit(selectedUnit_);
  showWholeText();
  resetReadout();
}

void GateHeatmap::clearMap(const QString& message) {
  steps_ = 0;
  units_ = 0;
  symbols_.clear();
  probe_.clear();
  map_->data()->clear();
  map_->setVisible(false);
  colourScale_->setVisible(false);
  selection_->setVisible(false);
  halo_->setVisible(false);
  brush_->setVisible(false);
  brushed_ = {-1, -1};
  symbolTicker_.reset();
  symbolTicks_ = false;
  title_->setText(message);
  plot_->xAxis->setTicker(integerTicker());
  plot_->xAxis->setTickLabelRotation(0.0);
  plot_->xAxis->setLabel(tr("time step"));
  plot_->xAxis->setRange(0, 1);
  plot_->yAxis->setRange(0, 1);
  plot_->replot();
  resetReadout();
}

QString GateHeatmap::title() const {
  return title_->text();
}

double GateHeatmap::value(int step, int unit) const {
  if (step < 0 || step >= steps_ || unit < 0 || unit >= units_) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return map_->data()->cell(step, unit);
}

QString GateHeatmap::hoverText(int step, int unit) const {
  if (step < 0 || step >= steps_ || unit < 0 || unit >= units_) return QString();
  const std::string symbol =
      static_cast<size_t>(step) < symbols_.size() ? symbols_[static_cast<size_t>(step)] : "";
  return tr("step %1 '%2' · unit %3 · %4 = %5")
      .arg(step)
      .arg(visibleSymbol(symbol))
      .arg(unit)
      .arg(probe_)
      .arg(value(step, unit), 0, 'f', 3);
}

bool GateHeatmap::cellAt(const QPointF& position, int* step, int* unit) const {
  if (!hasTrace() || !plot_->axisRect()->rect().contains(position.toPoint())) return false;
  const double key = plot_->xAxis->pixelToCoord(position.x());
  const double level = plot_->yAxis->pixelToCoord(position.y());
  const auto s = static_cast<int>(std::lround(key));
  const auto u = static_cast<int>(std::lround(level));
  if (s < 0 || s >= steps_ || u < 0 || u >= units_) return false;
  if (step) *step = s;
  if (unit) *unit = u;
  return true;
}

QPointF GateHeatmap::cellCentre(int step, int unit) const {
  return {plot_->xAxis->coordToPixel(step), plot_->yAxis->coordToPixel(unit)};
}

void GateHeatmap::setSelectedUnit(int unit) {
  selectedUnit_ = unit >= 0 && unit < units_ ? unit : -1;
  for (QCPItemRect* rect : {halo_, selection_}) {
    rect->setVisible(selectedUnit_ >= 0);
    if (selectedUnit_ < 0) continue;
    rect->topLeft->setCoords(-0.5, selectedUnit_ + 0.5);
    rect->bottomRight->setCoords(steps_ - 0.5, selectedUnit_ - 0.5);
  }
  plot_->replot();
}

void GateHeatmap::setBrushedSteps(const StepRange& steps) {
  const StepRange clipped{std::max<int64_t>(steps.first, 0), std::min<int64_t>(steps.end, steps_)};
  brushed_ = hasTrace() && !clipped.empty() ? clipped : StepRange{-1, -1};
  brush_->setVisible(brushed_.first >= 0);
  if (brushed_.first >= 0) {
    brush_->topLeft->setCoords(static_cast<double>(brushed_.first) - 0.5, units_ - 0.5);
    brush_->bottomRight->setCoords(static_cast<double>(brushed_.end) - 0.5, -0.5);
  }
  plot_->replot();
}

int GateHeatmap::stepAtPixel(double x) const {
  const auto step = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(x)));
  return std::clamp(step, 0, std::max(steps_ - 1, 0));
}

bool GateHeatmap::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::Leave) resetReadout();
  return QWidget::eventFilter(watched, event);
}

void GateHeatmap::mouseMoved(QMouseEvent* event) {
  if (brushAnchor_ >= 0) {
    const int step = stepAtPixel(event->position().x());
    const StepRange range{std::min(brushAnchor_, step), std::max(brushAnchor_, step) + 1};
    setBrushedSteps(range);
    readout_->setText(tr("steps %1 to %2 selected").arg(range.first).arg(range.end - 1));
    return;
  }
  int step = 0;
  int unit = 0;
  if (cellAt(event->position(), &step, &unit)) {
    readout_->setText(hoverText(step, unit));
  } else {
    resetReadout();
  }
}

void GateHeatmap::mousePressed(QMouseEvent* event) {
  pressedAt_ = event->position();
  int step = 0;
  if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) &&
      cellAt(event->position(), &step, nullptr)) {
    // A brush, not a pan: the axis rect handles the press after this signal.
    brushAnchor_ = step;
    plot_->setInteraction(QCP::iRangeDrag, false);
    setBrushedSteps({step, step + 1});
  }
}

void GateHeatmap::mouseReleased(QMouseEvent* event) {
  if (brushAnchor_ >= 0) {
    brushAnchor_ = -1;
    plot_->setInteraction(QCP::iRangeDrag, true);
    if (brushed_.first >= 0) emit stepsBrushed(brushed_.first, brushed_.end);
    return;
  }
  // A click, not the end of a drag along the text.
  if ((event->position() - pressedAt_).manhattanLength() > 4.0) return;
  if (event->button() != Qt::LeftButton) return;
  int step = 0;
  int unit = 0;
  if (!cellAt(event->position(), &step, &unit)) return;
  setSelectedUnit(unit);
  emit unitClicked(unit, step);
}

void GateHeatmap::showWholeText() {
  if (!hasTrace()) return;
  plot_->xAxis->setRange(-0.5, steps_ - 0.5);
  plot_->replot();
}

void GateHeatmap::buildSymbolTicker() {
  symbolTicker_.reset(new QCPAxisTickerText);
  wordTicks_ = false;
  for (int t = 0; t < steps_; ++t) {
    const std::string symbol =
        static_cast<size_t>(t) < symbols_.size() ? symbols_[static_cast<size_t>(t)] : "";
    const QString shown = tickSymbol(symbol);
    wordTicks_ = wordTicks_ || shown.size() > 2;
    symbolTicker_->addTick(t, shown);
  }
  updateTimeTicks(true);
}

void GateHeatmap::updateTimeTicks(bool force) {
  if (!hasTrace() || !symbolTicker_) return;
  // Room for a label per step: a character's width unrotated, a line's height for words
  // (drawn at -60 degrees).
  const QFontMetrics metrics(plot_->xAxis->tickLabelFont());
  const double needed =
      wordTicks_ ? metrics.height() * 1.1 : metrics.horizontalAdvance(QLatin1Char('W')) + 2.0;
  const double visible = std::max(plot_->xAxis->range().size(), 1.0);
  const bool symbols = plot_->axisRect()->width() / visible >= needed;
  if (!force && symbols == symbolTicks_) return;
  symbolTicks_ = symbols;
  if (symbols) {
    plot_->xAxis->setTicker(symbolTicker_);
    plot_->xAxis->setTickLabelRotation(wordTicks_ ? -60.0 : 0.0);
    plot_->xAxis->setLabel(tr("symbol (time step)"));
  } else {
    plot_->xAxis->setTicker(integerTicker());
    plot_->xAxis->setTickLabelRotation(0.0);
    plot_->xAxis->setLabel(tr("time step (zoom in to read the symbols)"));
  }
  // Called from a range change or a layout pass: the next replot draws the new ticks.
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void GateHeatmap::resetReadout() {
  readout_->setText(hasTrace()
                        ? tr("Hover to read a value; click a cell to colour the text by its unit; "
                             "Shift+drag to select steps and rank the units that follow them.")
                        : QString());
}

}  // namespace mrnn::widgets
