#include "widgets/scroll_width_follower.h"

#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>

namespace mrnn::widgets {

ScrollWidthFollower::ScrollWidthFollower(QScrollArea* area) : QObject(area), area_(area) {
  if (area_->widget()) area_->widget()->installEventFilter(this);
  follow();
}

bool ScrollWidthFollower::eventFilter(QObject* watched, QEvent* event) {
  if (watched == area_->widget() && event->type() == QEvent::LayoutRequest) follow();
  return false;
}

void ScrollWidthFollower::follow() {
  QWidget* content = area_->widget();
  if (!content) return;
  const int wanted = content->minimumSizeHint().width() +
                     area_->verticalScrollBar()->sizeHint().width() + 2 * area_->frameWidth();
  if (area_->minimumWidth() != wanted) area_->setMinimumWidth(wanted);
}

}  // namespace mrnn::widgets
