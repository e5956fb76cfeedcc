#pragma once

#include <QString>
#include <QStringList>

namespace mrnn::widgets {

// Starts an experiment's queue (`mrnn experiment run FILE`) as a process of its own: in a new
// session, so that closing the workbench (or its terminal) does not stop it, and as the leader
// of its process group, so that Pause (SIGSTOP to the group) freezes its trials with it. The
// `mrnn` to run is findMrnnProgram()'s (widgets/mrnn_program.h).
class QueueLauncher {
 public:
  // Starts `program arguments` in `folder`, detached, its output appended to `logPath`.
  // Returns its process id; throws std::runtime_error with the reason it could not start.
  static qint64 startDetached(const QString& program, const QStringList& arguments,
                              const QString& folder, const QString& logPath);
};

}  // namespace mrnn::widgets
