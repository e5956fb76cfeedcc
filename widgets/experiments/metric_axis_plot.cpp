#include "widgets/experiments/metric_axis_plot.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "widgets/plot_legend.h"
#include "widgets/series_style.h"

#include "widgets/experiments/configuration_text.h"

namespace mrnn::widgets {
namespace {

constexpr double kPointHoverPixels = 8.0;

QString emptyCaption() {
  return MetricAxisPlot::tr("No results yet: each configuration appears when its trials are done");
}

}  // namespace

MetricAxisPlot::MetricAxisPlot(QWidget* parent) : QCustomPlot(parent) {
  setObjectName(QStringLiteral("experimentMetricPlot"));
  setMinimumSize(320, 220);
  setMouseTracking(true);
  plotLayout()->insertRow(0);
  QFont titleFont = font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 0.95);
  title_ = new QCPTextElement(this, emptyCaption(), titleFont);
  caption_ = emptyCaption();
  plotLayout()->addElement(0, 0, title_);
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  legend->setFont(legendFont);
  placeLegendInRow(this, 1);
  // A tick label at the right end of the range draws half past the axis: room for it.
  axisRect()->setMinimumMargins(QMargins(0, 0, 24, 0));
  // x = 0 is nothing special here (a category's index, a rate): no emphasised zero line.
  xAxis->grid()->setZeroLinePen(Qt::NoPen);
  connect(this, &QCustomPlot::mouseMove, this, &MetricAxisPlot::hover);
  setResults({}, {}, "valid_bpc", -1);
}

MetricAxisPlot::~MetricAxisPlot() {
  // QCustomPlot deletes the legend with the layout that holds it: a legend taken out of it
  // is this plot's to delete.
  if (legend != nullptr && legend->layout() == nullptr) delete legend;
}

void MetricAxisPlot::setLegendShown(bool shown) {
  // One series needs no legend; its row (hidden, it would still keep its height) goes, so the
  // axes have the room.
  legend->setVisible(shown);
  const bool placed = legend->layout() != nullptr;
  if (shown && !placed) {
    plotLayout()->insertRow(1);
    plotLayout()->addElement(1, 0, legend);
    plotLayout()->setRowStretchFactor(1, 0.001);
  } else if (!shown && placed) {
    plotLayout()->take(legend);
    plotLayout()->simplify();
  }
}

QString MetricAxisPlot::caption() const {
  return caption_;
}

QString MetricAxisPlot::shownCaption() const {
  return title_->text();
}

void MetricAxisPlot::setCaption(const QString& caption) {
  caption_ = caption;
  // Greedy word wrap to the plot's width: a narrow pane shows the whole caption in lines
  // rather than its middle cut off at both ends.
  const QFontMetrics metrics(title_->font());
  const int room = std::max(width() - 16, 80);
  QStringList lines;
  QString line;
  for (const QString& word : caption.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
    if (!line.isEmpty() && metrics.horizontalAdvance(longer) > room) {
      lines << line;
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.isEmpty()) lines << line;
  const QString wrapped = lines.join(QLatin1Char('\n'));
  if (title_->text() != wrapped) title_->setText(wrapped);
}

void MetricAxisPlot::resizeEvent(QResizeEvent* event) {
  QCustomPlot::resizeEvent(event);
  if (!caption_.isEmpty()) setCaption(caption_);
}

QString MetricAxisPlot::metricLabel(const std::string& metric,
                                    const std::vector<engine::ConfigurationResult>& rows) {
  const bool squaredErrors = engine::allSquaredErrors(engine::lossUnitsOf(rows));
  if (squaredErrors && metric == "valid_bpc") return tr("validation squared error");
  if (squaredErrors && metric == "test_bpc") return tr("test squared error");
  if (metric == "valid_bpc") return tr("validation bits per symbol");
  if (metric == "test_bpc") return tr("test bits per symbol");
  if (metric == "valid_perplexity") return tr("validation perplexity");
  if (metric == "test_perplexity") return tr("test perplexity");
  if (metric == "test_error_rate") return tr("share of test sequences wrong");
  return QString::fromStdString(metric);
}

bool MetricAxisPlot::isNumericAxis(const engine::ExperimentAxis& axis,
                                   const std::vector<engine::ConfigurationResult>& rows,
                                   int index) {
  if (axis.kind == engine::AxisKind::Cells) return false;
  if (axis.kind == engine::AxisKind::Range || axis.kind == engine::AxisKind::LogRange) return true;
  for (const std::string& value : axis.values) {
    bool number = false;
    QString::fromStdString(value).trimmed().toDouble(&number);
    if (!number) return false;
  }
  for (const auto& row : rows) {
    bool number = false;
    settingText(row, static_cast<size_t>(index)).toDouble(&number);
    if (!number) return false;
  }
  return true;
}

void MetricAxisPlot::setResults(const std::vector<engine::ExperimentAxis>& axes,
                                const std::vector<engine::ConfigurationResult>& rows,
                                const std::string& metric, int axis) {
  clearPlottables();
  series_.clear();
  errorBars_.clear();
  seedPoints_.clear();
  reference_ = nullptr;
  points_.clear();
  hovered_ = -1;
  yAxis->setLabel(metricLabel(metric, rows));
  const bool haveAxis = axis >= 0 && static_cast<size_t>(axis) < axes.size();
  const size_t a = static_cast<size_t>(std::max(axis, 0));
  categorical_ = haveAxis && !isNumericAxis(axes[a], rows, axis);
  xAxis->setLabel(haveAxis ? QString::fromStdString(axes[a].key) : QString());

  // Categories in the axis's own order, then any other value a result has.
  QStringList categories;
  if (categorical_) {
    for (const std::string& value : engine::axisGridValues(axes[a])) {
      const QString text = QString::fromStdString(value).trimmed();
      if (!categories.contains(text)) categories.append(text);
    }
    for (const auto& row : rows) {
      const QString text = settingText(row, a);
      if (!categories.contains(text)) categories.append(text);
    }
  }

  struct Entry {
    double x = 0.0;
    double mean = 0.0;
    double spread = 0.0;
    qint64 configuration = 0;
    QString text;
    std::vector<double> seeds;  // each seed's figure
  };
  std::vector<QString> groups;
  std::map<QString, std::vector<Entry>> byGroup;
  QVector<double> referenceX, referenceY;
  double lowX = std::numeric_limits<double>::infinity(), highX = -lowX;
  double lowY = lowX, highY = -lowX;
  for (const auto& row : rows) {
    if (!haveAxis) break;
    const QString value = settingText(row, a);
    const double x =
        categorical_ ? static_cast<double>(categories.indexOf(value)) : value.toDouble();
    // A series is the other axes' values: a cell matched to a parameter count has its own
    // width at each setting of this axis, and is still one cell.
    QStringList others;
    for (size_t i = 0; i < row.settings.size(); ++i) {
      if (i == a) continue;
      others.append(QString::fromStdString(row.settings[i].label) + QLatin1Char('=') +
                    valueName(axes, i, settingText(row, i)));
    }
    for (const auto& reference : row.references) {
      if (reference.metric != metric) continue;
      referenceX.append(x);
      referenceY.append(reference.value);
      lowY = std::min(lowY, reference.value);
      highY = std::max(highY, reference.value);
    }
    const auto figure = engine::measuredFigure(row, metric);
    if (!figure) continue;
    const QString group =
        others.isEmpty() ? metricLabel(metric, rows) : others.join(QStringLiteral(", "));
    if (byGroup.find(group) == byGroup.end()) groups.push_back(group);
    const QString text = tr("#%1 %2\n%3: %4 ± %5 over %6 seed(s)")
                             .arg(row.configuration + 1)
                             .arg(QString::fromStdString(row.label), metricLabel(metric, rows))
                             .arg(figure->mean, 0, 'f', 4)
                             .arg(figure->stddev, 0, 'f', 4)
                             .arg(figure->count);
    byGroup[group].push_back(
        {x, figure->mean, figure->stddev, row.configuration, text, figure->values});
    lowX = std::min(lowX, x);
    highX = std::max(highX, x);
    lowY = std::min(lowY, figure->mean - figure->stddev);
    highY = std::max(highY, figure->mean + figure->stddev);
  }

  // Side by side at a category, so that error bars of different series do not cover each other.
  const double width =
      groups.size() > 1 ? std::min(0.4, 0.12 * static_cast<double>(groups.size())) : 0.0;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<Entry>& entries = byGroup[groups[g]];
    std::sort(entries.begin(), entries.end(),
              [](const Entry& left, const Entry& right) { return left.x < right.x; });
    const double offset =
        categorical_ && groups.size() > 1
            ? -width / 2.0 + width * static_cast<double>(g) / static_cast<double>(groups.size() - 1)
            : 0.0;
    QVector<double> keys, values, spreads, seedKeys, seedValues;
    for (const Entry& entry : entries) {
      keys.append(entry.x + offset);
      values.append(entry.mean);
      spreads.append(entry.spread);
      points_.push_back({entry.x + offset, entry.mean, entry.configuration, entry.text});
      // Each seed's figure beside its mean (at a category, a step to the right of it).
      for (const double seed : entry.seeds) {
        seedKeys.append(entry.x + offset + (categorical_ ? 0.06 : 0.0));
        seedValues.append(seed);
      }
    }
    const QColor colour = seriesColour(g);
    auto* graph = addGraph();
    graph->setName(groups[g]);
    // Along a numeric axis a series is joined, to be followed as a trend; categories (cell
    // types) have no order, so their points stand alone.
    graph->setPen(QPen(colour, 1.5));
    graph->setLineStyle(categorical_ ? QCPGraph::lsNone : QCPGraph::lsLine);
    graph->setScatterStyle(QCPScatterStyle(seriesShape(g), colour, colour, 7));
    graph->setData(keys, values, true);
    if (seedValues.size() > keys.size()) {
      auto* seeds = addGraph();
      seeds->removeFromLegend();
      seeds->setLineStyle(QCPGraph::lsNone);
      seeds->setScatterStyle(QCPScatterStyle(seriesShape(g), QPen(colour, 1.0), Qt::NoBrush, 4));
      seeds->setData(seedKeys, seedValues);
      seedPoints_.push_back(seeds);
    }
    auto* bars = new QCPErrorBars(xAxis, yAxis);
    bars->setDataPlottable(graph);
    bars->setData(spreads);
    bars->setPen(QPen(colour, 1.2));
    bars->setWhiskerWidth(8);
    bars->removeFromLegend();
    series_.push_back(graph);
    errorBars_.push_back(bars);
  }
  if (!referenceX.isEmpty()) {
    reference_ = addGraph();
    reference_->setName(tr("published"));
    reference_->setLineStyle(QCPGraph::lsNone);
    reference_->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssCross, QPen(QColor(0x33, 0x33, 0x33), 1.8), Qt::NoBrush, 10));
    reference_->setData(referenceX, referenceY);
    for (const double x : referenceX) {
      lowX = std::min(lowX, x);
      highX = std::max(highX, x);
    }
  }

  // The x axis: labelled categories, or numbers to scale.
  const bool log = haveAxis && !categorical_ && lowX > 0.0 &&
                   (axes[a].kind == engine::AxisKind::LogRange || highX / lowX >= 20.0);
  if (categorical_) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < categories.size(); ++i)
      ticker->addTick(i, valueName(axes, a, categories[i]));
    xAxis->setTicker(ticker);
    xAxis->setScaleType(QCPAxis::stLinear);
    xAxis->setRange(-0.5, std::max(0.5, categories.size() - 0.5));
  } else if (log) {
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setSubTickCount(8);
    xAxis->setTicker(ticker);
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setRange(lowX / 1.4, highX * 1.4);
  } else {
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    xAxis->setScaleType(QCPAxis::stLinear);
    if (lowX <= highX) {
      // One value: a band of half of it on each side (lr 0.003 spans 0.0015 to 0.0045, never
      // negative rates), or ±0.5 around 0.
      const double margin = highX > lowX  ? 0.08 * (highX - lowX)
                            : lowX != 0.0 ? 0.5 * std::abs(lowX)
                                          : 0.5;
      xAxis->setRange(lowX - margin, highX + margin);
    } else {
      xAxis->setRange(0.0, 1.0);
    }
  }
  if (lowY <= highY) {
    const double margin =
        highY > lowY ? 0.1 * (highY - lowY) : std::max(0.02, 0.05 * std::abs(highY));
    yAxis->setRange(lowY - margin, highY + margin);
  } else {
    yAxis->setRange(0.0, 1.0);
  }

  if (points_.empty()) {
    setCaption(haveAxis ? emptyCaption() : tr("The experiment has no axis to plot against"));
  } else {
    setCaption(tr("%1 against %2: mean ± standard deviation over seeds")
                   .arg(metricLabel(metric, rows), QString::fromStdString(axes[a].label)));
  }
  setLegendShown(series_.size() > 1 || reference_ != nullptr);
  replot();
}

void MetricAxisPlot::hover(QMouseEvent* event) {
  qint64 found = -1;
  QString text;
  double best = kPointHoverPixels;
  for (const Point& point : points_) {
    const double distance = std::hypot(xAxis->coordToPixel(point.x) - event->position().x(),
                                       yAxis->coordToPixel(point.y) - event->position().y());
    if (distance <= best) {
      best = distance;
      found = point.configuration;
      text = point.text;
    }
  }
  if (found >= 0) {
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
  } else if (hovered_ >= 0) {
    QToolTip::hideText();
  }
  if (found != hovered_) {
    hovered_ = found;
    emit configurationHovered(found);
  }
}

}  // namespace mrnn::widgets
