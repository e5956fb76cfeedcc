#include "widgets/surprisal/recovery_plot.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/scoring/surprisal_recovery.h"
#include "widgets/display_format.h"
#include "widgets/plot_heights.h"
#include "widgets/run_colours.h"

namespace mrnn::widgets {
namespace {

constexpr double kMargin = 0.35;  // room left and right of the first and last point

const std::array<QCPScatterStyle::ScatterShape, 4> kShapes = {
    QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
    QCPScatterStyle::ssDiamond};

}  // namespace

RecoveryPlot::RecoveryPlot(QWidget* parent) : QCustomPlot(parent) {
  setObjectName(QStringLiteral("recoveryPlot"));
  setMinimumSize(320, kLeastStackedPlotHeight);
  plotLayout()->insertRow(0);
  title_ = new QCPTextElement(this, tr("Recovery after surprising symbols"),
                              QFont(font().family(), font().pointSize(), QFont::Bold));
  plotLayout()->addElement(0, 0, title_);
  xAxis->setLabel(tr("position relative to the surprising symbol"));
  yAxis->setLabel(tr("mean loss (bits per symbol)"));
  legend->setVisible(false);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  legend->setFont(small);
  legend->setBrush(QColor(255, 255, 255, 220));
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  setToolTip(
      tr("Mean loss on the most surprising symbols (x = 0) and on the symbols 1..K "
         "after them, averaged over those positions; dashed: each model's mean over "
         "the whole text. A model that recovers fast returns to its dashed line "
         "within a few symbols (Krause et al., Fig. 3)."));
  clearRecovery();
}

void RecoveryPlot::clearRecovery() {
  clearGraphs();
  models_ = 0;
  legend->setVisible(false);
  xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  xAxis->setRange(0, 4);
  yAxis->setRange(0, 1);
  replot();
}

QCPGraph* RecoveryPlot::curve(int model) const {
  return model >= 0 && model < models_ ? graph(2 * model) : nullptr;
}

QCPGraph* RecoveryPlot::overallLine(int model) const {
  return model >= 0 && model < models_ ? graph(2 * model + 1) : nullptr;
}

void RecoveryPlot::showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                                const QVector<QColor>& colours) {
  clearGraphs();
  const auto k = static_cast<int>(table.offsets);
  models_ = static_cast<int>(table.overallMean.size());

  auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
  ticker->addTick(0, tr("surprising"));
  for (int offset = 1; offset <= k; ++offset)
    ticker->addTick(offset, QStringLiteral("+%1").arg(offset));
  xAxis->setTicker(ticker);

  double top = 0.0;
  for (int m = 0; m < models_; ++m) {
    const QColor colour = colours.value(m, modelColour(0, m));
    const auto row = static_cast<size_t>(m);
    QVector<double> x{0.0};
    QVector<double> y{natsToBits(table.surprisingMean[row])};
    for (int offset = 1; offset <= k; ++offset) {
      x.append(offset);
      y.append(natsToBits(table.offsetMean[row][static_cast<size_t>(offset - 1)]));
    }
    QCPGraph* line = addGraph();
    line->setName(m < labels.size() ? labels[m] : tr("model %1").arg(m + 1));
    line->setPen(QPen(colour, 2.0));
    line->setScatterStyle(
        QCPScatterStyle(kShapes[row % kShapes.size()], colour, colour.lighter(150), 8));
    line->setData(x, y, true);

    const double overall = natsToBits(table.overallMean[row]);
    QCPGraph* dashed = addGraph();
    dashed->setName(tr("%1 (overall)").arg(line->name()));
    QPen pen(colour, 1.5, Qt::DashLine);
    dashed->setPen(pen);
    dashed->setData({-kMargin, k + kMargin}, {overall, overall}, true);
    dashed->removeFromLegend();

    top = std::max({top, overall, *std::max_element(y.begin(), y.end())});
  }
  xAxis->setRange(-kMargin, k + kMargin);
  yAxis->setRange(0.0, top > 0.0 ? top * 1.15 : 1.0);
  legend->setVisible(models_ > 0);
  title_->setText(tr("Recovery after surprising symbols: the top %1 % (%2 of %3 positions)")
                      .arg(table.topFraction * 100.0, 0, 'g', 3)
                      .arg(table.surprising)
                      .arg(table.positions));
  replot();
}

}  // namespace mrnn::widgets
