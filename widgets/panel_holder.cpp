#include "widgets/panel_holder.h"

#include <QEvent>
#include <QResizeEvent>

namespace mrnn::widgets {

PanelHolder::PanelHolder(QWidget* panel, QWidget* parent) : QWidget(parent), panel_(panel) {
  panel_->setParent(this);
  panel_->setGeometry(rect());
}

QSize PanelHolder::sizeHint() const {
  return panel_->sizeHint();
}

QSize PanelHolder::minimumSizeHint() const {
  return panel_->minimumSizeHint().expandedTo(panel_->minimumSize());
}

bool PanelHolder::event(QEvent* event) {
  // A child without a parent layout posts its layout requests here: the panel's hints
  // changed, so the scroll area must ask again.
  if (event->type() == QEvent::LayoutRequest) {
    updateGeometry();
    panel_->setGeometry(rect());
  }
  return QWidget::event(event);
}

void PanelHolder::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  panel_->setGeometry(rect());
}

}  // namespace mrnn::widgets
