#include "widgets/elided_label.h"

#include <QFontMetrics>
#include <QResizeEvent>

namespace mrnn::widgets {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text) {
  full_ = text;
  setToolTip(text);
  updateGeometry();
  elide();
}

QSize ElidedLabel::minimumSizeHint() const {
  // Room for a few letters and the ellipsis: the rest is given up first.
  const QFontMetrics metrics(font());
  return {8 * metrics.averageCharWidth(), metrics.height()};
}

QSize ElidedLabel::sizeHint() const {
  const QFontMetrics metrics(font());
  return {metrics.horizontalAdvance(full_) + 2, metrics.height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  elide();
}

void ElidedLabel::elide() {
  setText(QFontMetrics(font()).elidedText(full_, Qt::ElideRight, width()));
}

}  // namespace mrnn::widgets
