#include "widgets/masking/masking_curve_plot.h"

#include <qcustomplot.h>
#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/display_format.h"
#include "widgets/plot_heights.h"

namespace mrnn::widgets {

namespace {

// Distinct, print-friendly colours for layers 1, 2, ...; "all layers" gets dark grey so it
// reads as the summary curve.
const QColor kLayerColours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                                QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};

QString emptyCaption() {
  return MaskingCurvePlot::tr("No curves yet: choose a model and press Run");
}

// The P values of every curve, once each, ascending.
std::vector<double> allLevels(const std::vector<MaskingSeries>& series) {
  std::vector<double> levels;
  for (const auto& s : series) {
    for (const double p : s.p) {
      const bool known = std::any_of(levels.begin(), levels.end(),
                                     [p](double q) { return std::abs(p - q) < 1e-9; });
      if (!known) levels.push_back(p);
    }
  }
  std::sort(levels.begin(), levels.end());
  return levels;
}

QString masksText(int64_t masks) {
  return masks == 1 ? MaskingCurvePlot::tr("1 mask") : MaskingCurvePlot::tr("%1 masks").arg(masks);
}

}  // namespace

MaskingCurvePlot::MaskingCurvePlot(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("maskingPlot"));
  plot_->setMinimumSize(360, kLeastPlotHeight);
  plot_->setToolTip(
      tr("Evaluation loss when a fraction P of a layer's output features is zeroed (Shuang et "
         "al., Fig. 5). Error bars: ± one standard deviation over the masks drawn at each P"));
  plot_->xAxis->setLabel(tr("masked fraction P"));
  plot_->yAxis->setLabel(tr("loss (bits per symbol)"));
  plot_->plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 0.95);
  title_ = new QCPTextElement(plot_, emptyCaption(), titleFont);
  plot_->plotLayout()->addElement(0, 0, title_);
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  plot_->legend->setFont(legendFont);
  plot_->legend->setBrush(QColor(255, 255, 255, 220));
  // Losses grow with P, so the upper left corner is where the curves are not.
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("maskingTable"));
  table_->setToolTip(tr("Mean ± standard deviation of the loss over the masks, bits per symbol"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

  splitter_ = new QSplitter(Qt::Horizontal, this);
  splitter_->addWidget(plot_);
  splitter_->addWidget(table_);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter_);
  clear();
}

QColor MaskingCurvePlot::layerColour(const std::optional<size_t>& layer) {
  if (!layer) return QColor(0x33, 0x33, 0x33);
  return kLayerColours[*layer % (sizeof(kLayerColours) / sizeof(kLayerColours[0]))];
}

QString MaskingCurvePlot::cellText(double meanNats, double stdNats) {
  return QStringLiteral("%1 ± %2")
      .arg(natsToBits(meanNats), 0, 'f', 4)
      .arg(natsToBits(stdNats), 0, 'f', 4);
}

QString MaskingCurvePlot::caption() const {
  return title_->text();
}

QCPGraph* MaskingCurvePlot::graph(int index) const {
  return index >= 0 && static_cast<size_t>(index) < graphs_.size() ? graphs_[index] : nullptr;
}

QCPErrorBars* MaskingCurvePlot::errorBars(int index) const {
  return index >= 0 && static_cast<size_t>(index) < errorBars_.size() ? errorBars_[index] : nullptr;
}

void MaskingCurvePlot::clear() {
  setSeries({}, QString());
}

void MaskingCurvePlot::setSeries(const std::vector<MaskingSeries>& series, const QString& caption) {
  series_ = series;
  plot_->clearPlottables();
  graphs_.clear();
  errorBars_.clear();
  for (const auto& s : series_) {
    const QColor colour = layerColour(s.layer);
    auto* graph = plot_->addGraph();
    graph->setName(s.name());
    QPen pen(colour, 2.0, s.model == 0 ? Qt::SolidLine : Qt::DashLine);
    graph->setPen(pen);
    // B's markers are hollow squares, so the two models differ in black and white prints too.
    graph->setScatterStyle(s.model == 0
                               ? QCPScatterStyle(QCPScatterStyle::ssDisc, colour, colour, 6)
                               : QCPScatterStyle(QCPScatterStyle::ssSquare, colour, Qt::white, 6));
    QVector<double> keys, values, errors;
    for (size_t i = 0; i < s.p.size(); ++i) {
      keys.append(s.p[i]);
      values.append(natsToBits(s.meanNats[i]));
      errors.append(i < s.stdNats.size() ? natsToBits(s.stdNats[i]) : 0.0);
    }
    graph->setData(keys, values, true);
    auto* bars = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    bars->setDataPlottable(graph);
    bars->setData(errors);
    bars->setPen(QPen(colour, 1.2));
    bars->setWhiskerWidth(7);
    bars->removeFromLegend();
    graphs_.push_back(graph);
    errorBars_.push_back(bars);
  }
  title_->setText(series_.empty() ? emptyCaption() : caption);
  plot_->legend->setVisible(!series_.empty());
  fitRanges();
  plot_->replot();
  fillTable();
}

void MaskingCurvePlot::fitRanges() {
  double pMax = 0.0, low = std::numeric_limits<double>::infinity(), high = -low;
  for (const auto& s : series_) {
    for (size_t i = 0; i < s.p.size(); ++i) {
      const double spread = i < s.stdNats.size() ? s.stdNats[i] : 0.0;
      pMax = std::max(pMax, s.p[i]);
      low = std::min(low, natsToBits(s.meanNats[i] - spread));
      high = std::max(high, natsToBits(s.meanNats[i] + spread));
    }
  }
  if (!(low <= high)) {  // nothing plotted: an empty frame of the usual extent
    plot_->xAxis->setRange(0.0, 0.5);
    plot_->yAxis->setRange(0.0, 1.0);
    return;
  }
  if (pMax <= 0.0) pMax = 0.05;
  plot_->xAxis->setRange(-0.03 * pMax, 1.03 * pMax);
  const double margin = high > low ? 0.08 * (high - low) : 0.05;
  plot_->yAxis->setRange(low - margin, high + margin);
}

void MaskingCurvePlot::fillTable() {
  const std::vector<double> levels = allLevels(series_);
  table_->clear();
  table_->setColumnCount(static_cast<int>(series_.size()) + 1);
  table_->setRowCount(static_cast<int>(levels.size()));
  auto* pHeader = new QTableWidgetItem(tr("P"));
  pHeader->setToolTip(tr("The fraction of the layer's output features zeroed"));
  table_->setHorizontalHeaderItem(0, pHeader);
  for (size_t c = 0; c < series_.size(); ++c) {
    const auto& s = series_[c];
    auto* header = new QTableWidgetItem(s.name());
    header->setForeground(layerColour(s.layer));
    header->setToolTip(tr("%1: loss in bits per symbol, mean ± std over %2 per P")
                           .arg(s.name(), masksText(s.runs)));
    table_->setHorizontalHeaderItem(static_cast<int>(c) + 1, header);
  }
  for (size_t row = 0; row < levels.size(); ++row) {
    auto* level = new QTableWidgetItem(QString::number(levels[row], 'g', 6));
    level->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table_->setItem(static_cast<int>(row), 0, level);
    for (size_t c = 0; c < series_.size(); ++c) {
      const auto& s = series_[c];
      for (size_t i = 0; i < s.p.size(); ++i) {
        if (std::abs(s.p[i] - levels[row]) >= 1e-9) continue;
        const double spread = i < s.stdNats.size() ? s.stdNats[i] : 0.0;
        auto* cell = new QTableWidgetItem(cellText(s.meanNats[i], spread));
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        const int masks = s.p[i] == 0.0 ? 1 : static_cast<int>(s.runs);
        cell->setToolTip(tr("%1 at P = %2: %3 ± %4 nats per symbol over %5")
                             .arg(s.name())
                             .arg(levels[row])
                             .arg(s.meanNats[i], 0, 'f', 4)
                             .arg(spread, 0, 'f', 4)
                             .arg(masksText(masks)));
        table_->setItem(static_cast<int>(row), static_cast<int>(c) + 1, cell);
      }
    }
  }
}

}  // namespace mrnn::widgets
