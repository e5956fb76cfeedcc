#pragma once

#include <QObject>

class QScrollArea;

namespace mrnn::widgets {

// Keeps a vertically scrolling area at least as wide as its content asks, as the content
// changes: the training settings' form grows when the optimiser becomes Hessian-free (its
// keys and note), and a width fixed when the panel was built cut their right edges. Watches
// the content's layout requests; owned by the area.
class ScrollWidthFollower : public QObject {
  Q_OBJECT
 public:
  explicit ScrollWidthFollower(QScrollArea* area);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void follow();

  QScrollArea* area_;
};

}  // namespace mrnn::widgets
