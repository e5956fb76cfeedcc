#include "widgets/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QWheelEvent>

namespace mrnn::widgets {

WheelGuard::WheelGuard(QObject* parent) : QObject(parent) {}

void WheelGuard::installOnApplication() {
  auto* app = QCoreApplication::instance();
  if (!app || app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
  app->installEventFilter(new WheelGuard(app));
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  // Qt gives the focus to a field of "wheel focus" before any filter sees the wheel: such
  // fields take the focus by click and tab only.
  if (event->type() == QEvent::Polish &&
      (qobject_cast<QAbstractSpinBox*>(watched) || qobject_cast<QComboBox*>(watched))) {
    auto* control = static_cast<QWidget*>(watched);
    if (control->focusPolicy() == Qt::WheelFocus) control->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (event->type() != QEvent::Wheel) return false;
  auto* field = qobject_cast<QWidget*>(watched);
  if (!field || field->hasFocus()) return false;
  // A spin box's line edit, or a combo box's view, is the spin box or combo box itself here.
  QWidget* control = field;
  while (control && !qobject_cast<QAbstractSpinBox*>(control) &&
         !qobject_cast<QComboBox*>(control)) {
    control = control->parentWidget();
    if (control && control->isWindow()) control = nullptr;
  }
  if (!control || control->hasFocus()) return false;
  // The focus stays where it is; the scroll area around the field scrolls instead.
  for (QWidget* up = control->parentWidget(); up; up = up->parentWidget()) {
    if (auto* area = qobject_cast<QAbstractScrollArea*>(up)) {
      QCoreApplication::sendEvent(area->viewport(), event);
      return true;
    }
  }
  return true;  // no scroll area: the wheel does nothing rather than change the value
}

}  // namespace mrnn::widgets
