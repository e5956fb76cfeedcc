#pragma once

#include <QLabel>

namespace mrnn::widgets {

// A word-wrapped label that keeps the height its lines need at the width it is given. A
// splitter or a dock does not pass heightForWidth on, so a wrapped QLabel there is laid out
// one line high and its other lines are cut off.
class WrappedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit WrappedLabel(QWidget* parent = nullptr);

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void fitHeight();
};

}  // namespace mrnn::widgets
