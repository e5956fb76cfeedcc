#pragma once

#include <QColor>
#include <QString>
#include <QVector>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace mrnn::widgets {

// The hover read-out of one chart, as TensorBoard draws it: a vertical line at the x under
// the mouse and, on the chart the mouse is over, a box listing every shown run's value
// there, each line in its run's colour. The box sits on the side away from the mouse so it
// does not hide the curves being read.
class ChartReadout {
 public:
  struct Line {
    QString text;
    QColor color;
  };

  explicit ChartReadout(QCustomPlot* plot);

  // The line at `key`, no box (the charts the mouse is not over).
  void showLine(double key);
  // The line at `key` and the box: `heading` ("step 1,200") then `lines`.
  void showBox(double key, const QString& heading, const QVector<Line>& lines);
  void hide();
  bool isVisible() const;
  // The box's text, one line per entry (empty when no box is shown), for tests.
  QString text() const;

 private:
  void placeBox(double key);

  QCustomPlot* plot_ = nullptr;
  QCPItemStraightLine* line_ = nullptr;
  QVector<QCPItemText*> texts_;  // texts_[0] is the heading; the rest are reused
  int shown_ = 0;                // texts in use
};

}  // namespace mrnn::widgets
