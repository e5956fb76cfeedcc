#include "widgets/wrapped_label.h"

#include <QEvent>
#include <QResizeEvent>

namespace mrnn::widgets {

WrappedLabel::WrappedLabel(QWidget* parent) : QLabel(parent) {
  setWordWrap(true);
}

void WrappedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  fitHeight();
}

void WrappedLabel::changeEvent(QEvent* event) {
  QLabel::changeEvent(event);
  if (event->type() == QEvent::FontChange) fitHeight();
}

void WrappedLabel::fitHeight() {
  // The height depends on the width alone, so this settles after one more layout pass.
  const int needed = heightForWidth(width());
  if (needed > 0 && needed != minimumHeight()) setMinimumHeight(needed);
}

}  // namespace mrnn::widgets
