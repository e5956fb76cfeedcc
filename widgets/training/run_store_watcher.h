#pragma once

#include <QObject>
#include <QString>

class QTimer;

namespace mrnn::widgets {

class ProjectDocument;

// Follows the open project's run store for changes any process makes: a run started by
// `mrnn train` in a terminal or by another workbench, its progress, its end. Every
// interval it reads the runs (read-only, a few milliseconds) and the point count of each
// running run's training loss, and emits runsChanged() when that picture differs from the
// last one; checkpointsChanged() when the checkpoints differ (one saved, validated better, or
// deleted with its run) or a run was renamed. The training monitor and the runs table refresh from
// the first, the checkpoint choosers from the second.
class RunStoreWatcher : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultIntervalMs = 2000;

  explicit RunStoreWatcher(ProjectDocument& document, QObject* parent = nullptr,
                           int intervalMs = kDefaultIntervalMs);

  // Reads the store now; true (and the signals of what changed emitted) when something did.
  bool checkNow();

 signals:
  void runsChanged();
  void checkpointsChanged();

 private:
  struct Picture {
    QString runs;
    QString checkpoints;
  };
  Picture picture() const;

  ProjectDocument& document_;
  QTimer* timer_ = nullptr;
  Picture last_;
};

}  // namespace mrnn::widgets
