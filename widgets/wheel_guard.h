#pragma once

#include <QObject>

namespace mrnn::widgets {

// Keeps the mouse wheel from changing a value while it scrolls a form: a spin box or combo
// box takes the wheel only when it has the keyboard focus (clicked or tabbed into); otherwise
// the wheel goes to the scroll area around it, as if the field were not there. Installed once
// on the application, it covers every form of every panel.
class WheelGuard : public QObject {
  Q_OBJECT
 public:
  explicit WheelGuard(QObject* parent = nullptr);

  // Installs one guard on the running QApplication (once; later calls do nothing).
  static void installOnApplication();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace mrnn::widgets
