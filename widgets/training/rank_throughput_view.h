#pragma once

#include <QWidget>
#include <vector>

#include "widgets/training/ema_smoother.h"

class QLabel;

namespace mrnn::widgets {

// Each rank's throughput for a run on several processes, under the monitor's figures:
// "Ranks  ● rank 0 12,300 sym/s  ■ rank 1 11,900 sym/s". A single step's rate jumps, so each
// is smoothed over the last steps. The slowest rank is named with how far it is behind the
// fastest, and drawn in orange, bold, when that is kSlowShare or more: the rank that holds the
// others back (every step waits for it). Each rank's marker and colour are those of its line
// in the throughput chart. Hidden for a run on one process.
class RankThroughputView : public QWidget {
  Q_OBJECT

 public:
  // A rank this far (or more) behind the fastest is flagged.
  static constexpr double kSlowShare = 0.10;
  static constexpr double kSmoothing = 0.8;

  explicit RankThroughputView(QWidget* parent = nullptr);

  // Forgets the ranks and hides (a new run starts).
  void clear();
  // One step's rates, rank r at index r; an empty list (a run on one process) changes nothing.
  void addStep(const std::vector<double>& rates);

  int rankCount() const { return static_cast<int>(rates_.size()); }
  // The smoothed rates, rank r at index r.
  const std::vector<double>& rates() const { return rates_; }
  // The slowest rank (-1 without ranks), and whether it is kSlowShare behind the fastest.
  int slowestRank() const;
  bool slowestFlagged() const;
  // What the view says, as plain text.
  QString text() const;

 private:
  void redraw();

  QLabel* label_ = nullptr;
  std::vector<EmaSmoother> smoothers_;
  std::vector<double> rates_;
};

}  // namespace mrnn::widgets
