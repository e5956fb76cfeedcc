#include "widgets/experiments/parallel_coordinates_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"
#include "widgets/experiments/metric_axis_plot.h"

#include "widgets/experiments/configuration_text.h"

namespace mrnn::widgets {
namespace {

constexpr double kLineHoverPixels = 5.0;
constexpr int kMargin = 12;

// Viridis, stopped short of its palest yellow, which would vanish on white.
QColor viridis(double t) {
  static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                 QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                 QColor(0xb5, 0xde, 0x2b)};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  const QColor& a = stops[i];
  const QColor& b = stops[i + 1];
  return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                          static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                          static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

QString tickText(double value) {
  return QString::number(value, 'g', 4);
}

double segmentDistance(const QPointF& p, const QPointF& a, const QPointF& b) {
  const QPointF ab = b - a;
  const double length = QPointF::dotProduct(ab, ab);
  const double t =
      length > 0.0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length, 0.0, 1.0) : 0.0;
  const QPointF nearest = a + t * ab;
  return std::hypot(p.x() - nearest.x(), p.y() - nearest.y());
}

}  // namespace

ParallelCoordinatesView::ParallelCoordinatesView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("experimentParallelCoordinates"));
  setMouseTracking(true);
  setAutoFillBackground(true);
  QPalette colours = palette();
  colours.setColor(QPalette::Window, Qt::white);
  setPalette(colours);
  setResults({}, {}, "valid_bpc");
}

void ParallelCoordinatesView::setResults(const std::vector<engine::ExperimentAxis>& axes,
                                         const std::vector<engine::ConfigurationResult>& rows,
                                         const std::string& metric) {
  axes_.clear();
  lines_.clear();
  hovered_ = -1;
  metricName_ = MetricAxisPlot::metricLabel(metric, rows);
  std::vector<const engine::ConfigurationResult*> measured;
  std::vector<double> figures;
  for (const auto& row : rows) {
    if (const auto figure = engine::measuredFigure(row, metric)) {
      measured.push_back(&row);
      figures.push_back(figure->mean);
    }
  }
  for (size_t i = 0; i < axes.size(); ++i) {
    Axis axis;
    axis.name = QString::fromStdString(axes[i].label);
    axis.key = QString::fromStdString(axes[i].key);
    axis.categorical = !MetricAxisPlot::isNumericAxis(axes[i], rows, static_cast<int>(i));
    std::vector<double> values;
    for (const std::string& value : engine::axisGridValues(axes[i])) {
      const QString text = QString::fromStdString(value).trimmed();
      if (axis.categorical && !axis.categories.contains(text)) axis.categories.append(text);
      if (!axis.categorical) values.push_back(text.toDouble());
    }
    for (const auto* row : measured) {
      const QString text = settingText(*row, i);
      if (axis.categorical && !axis.categories.contains(text)) axis.categories.append(text);
      if (!axis.categorical) values.push_back(text.toDouble());
    }
    for (const QString& category : axis.categories)
      axis.labels.append(valueName(axes, i, category));
    if (!axis.categorical && !values.empty()) {
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      axis.low = values.front();
      axis.high = values.back();
      axis.log = axis.low > 0.0 &&
                 (axes[i].kind == engine::AxisKind::LogRange || axis.high / axis.low >= 20.0);
      if (values.size() <= 6) {
        axis.ticks = values;
      } else {
        axis.ticks = {axis.low,
                      axis.log ? std::sqrt(axis.low * axis.high) : (axis.low + axis.high) / 2.0,
                      axis.high};
      }
    }
    axes_.push_back(axis);
  }
  Axis metricAxis;
  metricAxis.name = metricName_;
  metricAxis.key = QString::fromStdString(metric);
  if (!figures.empty()) {
    metricAxis.low = *std::min_element(figures.begin(), figures.end());
    metricAxis.high = *std::max_element(figures.begin(), figures.end());
    metricAxis.ticks = {metricAxis.low};
    if (metricAxis.high > metricAxis.low) {
      metricAxis.ticks.push_back((metricAxis.low + metricAxis.high) / 2.0);
      metricAxis.ticks.push_back(metricAxis.high);
    }
  }
  metricLow_ = metricAxis.low;
  metricHigh_ = metricAxis.high;
  axes_.push_back(metricAxis);

  for (size_t r = 0; r < measured.size(); ++r) {
    Line line;
    line.metric = figures[r];
    line.configuration = measured[r]->configuration;
    line.text = tr("#%1 %2\n%3: %4")
                    .arg(measured[r]->configuration + 1)
                    .arg(QString::fromStdString(measured[r]->label), metricName_)
                    .arg(figures[r], 0, 'f', 4);
    for (size_t i = 0; i + 1 < axes_.size(); ++i) {
      const Axis& axis = axes_[i];
      const QString text = settingText(*measured[r], i);
      line.positions.push_back(
          axis.categorical ? position(axis, static_cast<double>(axis.categories.indexOf(text)))
                           : position(axis, text.toDouble()));
    }
    line.positions.push_back(position(axes_.back(), figures[r]));
    lines_.push_back(line);
  }
  std::stable_sort(lines_.begin(), lines_.end(),
                   [](const Line& a, const Line& b) { return a.metric > b.metric; });
  const int missing = static_cast<int>(rows.size() - measured.size());
  if (lines_.empty()) {
    caption_ = tr("No results yet: a line per configuration appears when its trials are done");
  } else {
    caption_ =
        tr("%1 configuration(s), coloured by %2 (dark is low)").arg(lines_.size()).arg(metricName_);
    if (missing > 0) caption_ += tr("; %1 not measured yet").arg(missing);
  }
  update();
}

double ParallelCoordinatesView::position(const Axis& axis, double value) const {
  if (axis.categorical) {
    const int n = static_cast<int>(axis.categories.size());
    return n <= 1 ? 0.5 : value / (n - 1);
  }
  if (!(axis.high > axis.low)) return 0.5;
  if (axis.log && value > 0.0) {
    return (std::log(value) - std::log(axis.low)) / (std::log(axis.high) - std::log(axis.low));
  }
  return (value - axis.low) / (axis.high - axis.low);
}

QColor ParallelCoordinatesView::colourOf(double metric) const {
  return viridis(metricHigh_ > metricLow_ ? (metric - metricLow_) / (metricHigh_ - metricLow_)
                                          : 0.0);
}

QColor ParallelCoordinatesView::lineColour(int line) const {
  return colourOf(lines_[static_cast<size_t>(line)].metric);
}

QRectF ParallelCoordinatesView::plotArea(const QSize& size) const {
  const QFontMetrics metrics(font());
  // The caption, then the axes' names, then room for the top tick label's half height.
  const double top = kMargin + 2.0 * (metrics.height() + 4) + metrics.height() / 2.0 + 4;
  const double left = kMargin + metrics.horizontalAdvance(QStringLiteral("0.00001")) + 8;
  const double right = kMargin + metrics.horizontalAdvance(QStringLiteral("0.00000")) + 14;
  return QRectF(left, top, std::max(10.0, size.width() - left - right),
                std::max(10.0, size.height() - top - kMargin - metrics.height() / 2.0));
}

QPointF ParallelCoordinatesView::pointOf(const Line& line, size_t axis, const QRectF& area) const {
  const double x = axes_.size() <= 1 ? area.center().x()
                                     : area.left() + area.width() * static_cast<double>(axis) /
                                                         static_cast<double>(axes_.size() - 1);
  return {x, area.bottom() - line.positions[axis] * area.height()};
}

int ParallelCoordinatesView::lineAt(const QPointF& pixel) const {
  const QRectF area = plotArea(size());
  int found = -1;
  double best = kLineHoverPixels;
  for (size_t l = 0; l < lines_.size(); ++l) {
    for (size_t i = 0; i + 1 < axes_.size(); ++i) {
      const double distance =
          segmentDistance(pixel, pointOf(lines_[l], i, area), pointOf(lines_[l], i + 1, area));
      if (distance <= best) {
        best = distance;
        found = static_cast<int>(l);
      }
    }
  }
  return found;
}

void ParallelCoordinatesView::paint(QPainter& painter, const QSize& size) const {
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
  painter.setFont(font());
  const QFontMetrics metrics(font());
  const QRectF area = plotArea(size);
  painter.setPen(QColor(0x33, 0x33, 0x33));
  painter.drawText(QRectF(kMargin, kMargin, size.width() - 2 * kMargin, metrics.height() + 2),
                   Qt::AlignHCenter | Qt::AlignVCenter,
                   metrics.elidedText(caption_, Qt::ElideRight, size.width() - 2 * kMargin));
  const auto axisX = [&](size_t i) {
    return axes_.size() <= 1 ? area.center().x()
                             : area.left() + area.width() * static_cast<double>(i) /
                                                 static_cast<double>(axes_.size() - 1);
  };
  const double spacing =
      axes_.size() <= 1 ? area.width() : area.width() / static_cast<double>(axes_.size() - 1);

  // The axes: a grey line each (the metric's is its colour scale), named above.
  for (size_t i = 0; i < axes_.size(); ++i) {
    const double x = axisX(i);
    const bool metric = i + 1 == axes_.size();
    if (metric && !lines_.empty()) {
      QLinearGradient scale(QPointF(x, area.bottom()), QPointF(x, area.top()));
      for (int s = 0; s <= 8; ++s) scale.setColorAt(s / 8.0, viridis(s / 8.0));
      painter.fillRect(QRectF(x - 4, area.top(), 8, area.height()), scale);
    } else {
      painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 1.2));
      painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
    }
    const double nameWidth = std::min(spacing - 6, 220.0);
    QRectF nameBox(x - nameWidth / 2, area.top() - 1.5 * metrics.height() - 8, nameWidth,
                   metrics.height() + 2);
    nameBox.moveLeft(std::clamp(nameBox.left(), 2.0, size.width() - nameBox.width() - 2.0));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(QColor(0x22, 0x22, 0x22));
    painter.drawText(
        nameBox, Qt::AlignCenter,
        QFontMetrics(bold).elidedText(axes_[i].name, Qt::ElideRight, static_cast<int>(nameWidth)));
    painter.setFont(font());
  }

  // The lines, worst first: the best lie on top; a hovered line over everything.
  for (size_t l = 0; l < lines_.size(); ++l) {
    QPainterPath path;
    for (size_t i = 0; i < axes_.size(); ++i) {
      const QPointF p = pointOf(lines_[l], i, area);
      if (i == 0) {
        path.moveTo(p);
      } else {
        path.lineTo(p);
      }
    }
    QColor colour = colourOf(lines_[l].metric);
    if (hovered_ >= 0 && static_cast<int>(l) != hovered_) colour.setAlpha(70);
    painter.setPen(QPen(colour, 2.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
  }
  if (hovered_ >= 0 && static_cast<size_t>(hovered_) < lines_.size()) {
    QPainterPath path;
    for (size_t i = 0; i < axes_.size(); ++i) {
      const QPointF p = pointOf(lines_[static_cast<size_t>(hovered_)], i, area);
      if (i == 0) {
        path.moveTo(p);
      } else {
        path.lineTo(p);
      }
    }
    painter.setPen(QPen(QColor(0xd6, 0x27, 0x28), 3.5));
    painter.drawPath(path);
  }

  // Tick labels on a white ground, over the lines; the metric's on the right of its scale.
  const auto label = [&](double x, double y, const QString& text, bool right, double width) {
    const QString shown = metrics.elidedText(text, Qt::ElideRight, static_cast<int>(width));
    const double w = metrics.horizontalAdvance(shown) + 6;
    const QRectF box(right ? x + 7 : x - 5 - w, y - metrics.height() / 2.0, w, metrics.height());
    painter.fillRect(box, QColor(255, 255, 255, 215));
    painter.setPen(QColor(0x33, 0x33, 0x33));
    painter.drawText(box, Qt::AlignCenter, shown);
  };
  for (size_t i = 0; i < axes_.size(); ++i) {
    const Axis& axis = axes_[i];
    const bool metric = i + 1 == axes_.size();
    const double x = axisX(i);
    const double width = metric ? 120.0 : std::max(30.0, spacing * 0.45);
    if (axis.categorical) {
      for (int c = 0; c < axis.categories.size(); ++c) {
        const double y = area.bottom() - position(axis, c) * area.height();
        label(x, y, axis.labels.value(c, axis.categories[c]), metric, width);
      }
    } else if (!metric || !lines_.empty()) {
      for (const double tick : axis.ticks) {
        const double y = area.bottom() - position(axis, tick) * area.height();
        label(x, y, metric ? QString::number(tick, 'f', 4) : tickText(tick), metric, width);
      }
    }
  }
  painter.restore();
}

void ParallelCoordinatesView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint(painter, size());
}

void ParallelCoordinatesView::mouseMoveEvent(QMouseEvent* event) {
  const int line = lineAt(event->position());
  if (line >= 0) {
    QToolTip::showText(event->globalPosition().toPoint(), lines_[static_cast<size_t>(line)].text,
                       this);
  } else if (hovered_ >= 0) {
    QToolTip::hideText();
  }
  if (line != hovered_) {
    hovered_ = line;
    update();
    emit configurationHovered(line >= 0 ? lines_[static_cast<size_t>(line)].configuration : -1);
  }
}

void ParallelCoordinatesView::leaveEvent(QEvent*) {
  if (hovered_ < 0) return;
  hovered_ = -1;
  update();
  emit configurationHovered(-1);
}

}  // namespace mrnn::widgets
