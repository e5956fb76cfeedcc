#pragma once

#include <QWidget>

namespace mrnn::widgets {

// A small key to the symbol colours: the ProbabilityScale from 0 to 1 with ticks.
class ProbabilityLegend : public QWidget {
  Q_OBJECT

 public:
  explicit ProbabilityLegend(QWidget* parent = nullptr);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace mrnn::widgets
