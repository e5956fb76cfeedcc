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
  const QSize least = panel_->minimumSizeHint().expandedTo(panel_->minimumSize());
  // A panel that must scroll anyway scrolls at its preferred height, each view at its ease,
  // rather than squeezed to its least height and scrolled all the same.
  const QWidget* viewport = parentWidget();
  if (viewport != nullptr && viewport->height() < least.height()) {
    return least.expandedTo(QSize(0, panel_->sizeHint().height()));
  }
  return least;
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
