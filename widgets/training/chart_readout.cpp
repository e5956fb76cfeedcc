#include "widgets/training/chart_readout.h"

#include <qcustomplot.h>
#include <QFontMetrics>
#include <QStringList>
#include <algorithm>

namespace mrnn::widgets {

namespace {

QCPItemText* makeText(QCustomPlot* plot, bool bold) {
  auto* text = new QCPItemText(plot);
  text->setLayer(QStringLiteral("overlay"));
  text->position->setType(QCPItemPosition::ptAbsolute);
  text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  text->setTextAlignment(Qt::AlignLeft);
  QFont font;
  font.setPointSizeF(7.5);
  font.setBold(bold);
  text->setFont(font);
  text->setBrush(QColor(255, 255, 255, 235));
  text->setPadding(QMargins(4, 0, 4, 0));
  text->setClipToAxisRect(false);
  text->setSelectable(false);
  text->setVisible(false);
  return text;
}

}  // namespace

ChartReadout::ChartReadout(QCustomPlot* plot) : plot_(plot) {
  line_ = new QCPItemStraightLine(plot);
  line_->setLayer(QStringLiteral("overlay"));
  line_->setPen(QPen(QColor(0x70, 0x70, 0x70), 1.0, Qt::DashLine));
  line_->setSelectable(false);
  line_->setVisible(false);
  texts_.append(makeText(plot, true));
}

void ChartReadout::showLine(double key) {
  line_->point1->setCoords(key, 0.0);
  line_->point2->setCoords(key, 1.0);
  line_->setVisible(true);
  for (QCPItemText* text : texts_) text->setVisible(false);
  shown_ = 0;
}

void ChartReadout::showBox(double key, const QString& heading, const QVector<Line>& lines) {
  showLine(key);
  while (texts_.size() < lines.size() + 1) texts_.append(makeText(plot_, false));
  texts_[0]->setText(heading);
  texts_[0]->setColor(QColor(0x30, 0x30, 0x30));
  for (int i = 0; i < lines.size(); ++i) {
    texts_[i + 1]->setText(lines[i].text);
    texts_[i + 1]->setColor(lines[i].color);
  }
  shown_ = static_cast<int>(lines.size()) + 1;
  for (int i = 0; i < shown_; ++i) texts_[i]->setVisible(true);
  placeBox(key);
}

void ChartReadout::placeBox(double key) {
  const QRect area = plot_->axisRect()->rect();
  int width = 0;
  int height = 0;
  for (int i = 0; i < shown_; ++i) {
    const QFontMetrics metrics(texts_[i]->font());
    width = std::max(width, metrics.horizontalAdvance(texts_[i]->text()) + 8);
    height = std::max(height, metrics.height());
  }
  // The side of the chart away from the mouse, so the box does not hide what is read.
  const double x = plot_->xAxis->coordToPixel(key);
  const int left = x > area.center().x() ? area.left() + 6 : area.right() - width - 6;
  for (int i = 0; i < shown_; ++i) {
    texts_[i]->position->setCoords(std::max(area.left(), left), area.top() + 4 + i * height);
  }
}

void ChartReadout::hide() {
  line_->setVisible(false);
  for (QCPItemText* text : texts_) text->setVisible(false);
  shown_ = 0;
}

bool ChartReadout::isVisible() const {
  return line_->visible();
}

QString ChartReadout::text() const {
  QStringList lines;
  for (int i = 0; i < shown_; ++i) lines.append(texts_[i]->text());
  return lines.join(QLatin1Char('\n'));
}

}  // namespace mrnn::widgets
