#include "widgets/project/project_file_watcher.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

#include <exception>
#include <utility>

#include "engine/io/atomic_file.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {

ProjectFileWatcher::ProjectFileWatcher(ProjectDocument& document, QObject* parent)
    : QObject(parent),
      document_(document),
      watcher_(new QFileSystemWatcher(this)),
      settle_(new QTimer(this)) {
  settle_->setSingleShot(true);
  settle_->setInterval(300);
  connect(settle_, &QTimer::timeout, this, &ProjectFileWatcher::check);
  // An editor that saves by renaming a new file over the old one ends the file's watch: the
  // folder's notice brings it back.
  connect(watcher_, &QFileSystemWatcher::fileChanged, settle_, qOverload<>(&QTimer::start));
  connect(watcher_, &QFileSystemWatcher::directoryChanged, settle_, qOverload<>(&QTimer::start));
  connect(&document_, &ProjectDocument::pathChanged, this, [this] {
    announced_.clear();
    announcedProblem_.reset();
    follow();
  });
  follow();
}

void ProjectFileWatcher::follow() {
  if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
  if (!watcher_->directories().isEmpty()) watcher_->removePaths(watcher_->directories());
  if (document_.isUntitled()) return;
  watcher_->addPath(document_.folder());
  if (QFileInfo::exists(document_.path())) watcher_->addPath(document_.path());
}

void ProjectFileWatcher::check() {
  if (document_.isUntitled()) return;
  if (!watcher_->files().contains(document_.path())) follow();
  std::string text;
  try {
    text = engine::readWholeFile(toNativePath(document_.path()));
  } catch (const std::exception& error) {
    // The window keeps its text (Save writes it again); the researcher hears of it now, once.
    const bool gone = !QFileInfo::exists(document_.path());
    const QString problem = gone ? QString() : QString::fromUtf8(error.what());
    if (announcedProblem_ && *announcedProblem_ == problem) return;
    announcedProblem_ = problem;
    if (gone) {
      emit vanished(document_.path());
    } else {
      emit becameUnreadable(document_.path(), problem);
    }
    return;
  }
  announcedProblem_.reset();
  if (text == document_.diskText()) {
    announced_.clear();
    return;
  }
  if (text == announced_) return;
  announced_ = text;
  if (document_.isModified()) {
    emit changedWhileEdited(document_.path());
    return;
  }
  try {
    document_.adoptDiskText(std::move(text));
  } catch (const std::exception& error) {
    emit changedUnreadable(document_.path(), QString::fromUtf8(error.what()));
    return;
  }
  emit reloaded(document_.path());
}

}  // namespace mrnn::widgets
