#include "widgets/splitter_shares.h"

#include <QEvent>
#include <QSplitter>
#include <QTimer>

#include <numeric>
#include <utility>

namespace mrnn::widgets {

SplitterShares::SplitterShares(QSplitter* splitter, QList<int> shares)
    : QObject(splitter), splitter_(splitter), shares_(std::move(shares)) {
  splitter_->installEventFilter(this);
  connect(splitter_, &QSplitter::splitterMoved, this, [this] {
    if (!applying_) movedByUser_ = true;
  });
}

bool SplitterShares::eventFilter(QObject* watched, QEvent* event) {
  // After the splitter's own resize has run: it rescales the old sizes, which this replaces.
  if (watched == splitter_ && event->type() == QEvent::Resize && !movedByUser_) {
    QTimer::singleShot(0, this, &SplitterShares::apply);
  }
  return QObject::eventFilter(watched, event);
}

void SplitterShares::apply() {
  const QList<int> sizes = splitter_->sizes();
  if (movedByUser_ || sizes.size() != shares_.size()) return;
  const int total = std::accumulate(sizes.cbegin(), sizes.cend(), 0);
  const int parts = std::accumulate(shares_.cbegin(), shares_.cend(), 0);
  if (total <= 0 || parts <= 0) return;
  QList<int> wanted;
  for (const int share : shares_) wanted.append(total * share / parts);
  if (wanted == sizes) return;
  applying_ = true;
  splitter_->setSizes(wanted);  // QSplitter keeps each pane at least at its least size
  applying_ = false;
}

}  // namespace mrnn::widgets
