#pragma once

#include <QWidget>

namespace mrnn::widgets {

// Holds a panel inside a dock's scroll area so that the area scrolls only when the panel is
// squeezed below its least size. Given the panel directly, a scroll area asks a layout with
// a word-wrapped label for its height at the width shown, which Qt answers with the panel's
// preferred height: such panels (the state tree, the size plot) scrolled at any height short
// of it. The holder has no layout: it passes the panel's size hints on and gives it its whole
// area; a panel too tall for the area even at its least height gets its preferred one.
class PanelHolder : public QWidget {
  Q_OBJECT
 public:
  explicit PanelHolder(QWidget* panel, QWidget* parent = nullptr);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  QWidget* panel_;
};

}  // namespace mrnn::widgets
