#pragma once

#include <QList>
#include <QObject>

class QSplitter;

namespace mrnn::widgets {

// Keeps a splitter's panes at fixed shares of its length as it is resized (3 and 2: three
// fifths and two fifths, each at least its least size), until the user drags a handle. A
// splitter first laid out at its least size, as a panel below the composer is on a short
// screen, would otherwise keep those proportions when its panel grows (F11): the gate heatmap
// stayed at its least height with the window's whole height to share. Owned by the splitter.
class SplitterShares : public QObject {
  Q_OBJECT
 public:
  SplitterShares(QSplitter* splitter, QList<int> shares);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void apply();

  QSplitter* splitter_;
  QList<int> shares_;
  bool movedByUser_ = false;
  bool applying_ = false;
};

}  // namespace mrnn::widgets
