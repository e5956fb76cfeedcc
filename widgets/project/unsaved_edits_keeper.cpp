#include "widgets/project/unsaved_edits_keeper.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QTimer>
#include <QUndoStack>

#include "engine/config/config_error.h"
#include "engine/io/atomic_file.h"
#include "engine/io/fnv1a.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

const char* const kKeptSuffix = ".kept-edits";
const char* const kLockSuffix = ".lock";
// Edits are kept this long after the first change not yet kept: a crash loses at most this.
constexpr int kKeepAfterMilliseconds = 1000;

}  // namespace

UnsavedEditsKeeper::UnsavedEditsKeeper(ProjectDocument& document, QObject* parent)
    : QObject(parent), document_(document), pending_(new QTimer(this)) {
  pending_->setSingleShot(true);
  pending_->setInterval(kKeepAfterMilliseconds);
  connect(pending_, &QTimer::timeout, this, [this] {
    QString problem;
    if (keepNow(&problem)) {
      failed_ = false;
    } else if (!failed_) {
      failed_ = true;
      emit keepingFailed(problem);
    }
  });
  QUndoStack* history = document_.undoStack();
  // Every edit, undo and redo moves the history's index (after the document has changed).
  connect(history, &QUndoStack::indexChanged, this, &UnsavedEditsKeeper::changed);
  connect(history, &QUndoStack::cleanChanged, this, [this](bool clean) {
    if (clean) cleaned();
  });
  connect(&document_, &ProjectDocument::pathChanged, this, &UnsavedEditsKeeper::projectMoved);
  // A history that goes with its window is cleared, which reads as clean: it is no save.
  connect(&document_, &QObject::destroyed, this,
          [this, history] { disconnect(history, nullptr, this, nullptr); });
}

UnsavedEditsKeeper::~UnsavedEditsKeeper() = default;

void UnsavedEditsKeeper::setFolder(const QString& folder) {
  folder_ = folder;
  projectMoved();
}

QString UnsavedEditsKeeper::fileFor(const QString& projectPath, const QString& suffix) const {
  const std::string absolute = toNativePath(QFileInfo(projectPath).absoluteFilePath());
  const QString name =
      QString::number(static_cast<qulonglong>(engine::fnv1a(absolute)), 16).rightJustified(16, '0');
  return QDir(folder_).filePath(name + suffix);
}

void UnsavedEditsKeeper::projectMoved() {
  pending_->stop();
  lock_.reset();
  path_ = document_.path();
  if (folder_.isEmpty() || path_.isEmpty()) return;
  // The project's text can name private paths: the folder is the user's alone.
  if (QDir().mkpath(folder_)) {
    QFile::setPermissions(folder_,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  }
  auto lock = std::make_unique<QLockFile>(fileFor(path_, kLockSuffix));
  lock->setStaleLockTime(0);  // held as long as the window lives; stale only when it is gone
  if (lock->tryLock(0)) lock_ = std::move(lock);
  if (document_.isModified()) changed();
}

QString UnsavedEditsKeeper::keptFile() const {
  if (!lock_ || path_.isEmpty() || path_ != document_.path()) return QString();
  return fileFor(path_, kKeptSuffix);
}

void UnsavedEditsKeeper::changed() {
  if (keptFile().isEmpty() || !document_.isModified()) return;
  if (!pending_->isActive()) pending_->start();
}

void UnsavedEditsKeeper::cleaned() {
  // Saved, or undone back to the file's text: nothing unsaved is left to keep. (A document
  // given another project's text is cleaned before it hears its new path: keptFile() is empty
  // then, and what was kept for the old project stays until the user says otherwise.)
  const QString file = keptFile();
  if (file.isEmpty()) return;
  pending_->stop();
  QFile::remove(file);
}

bool UnsavedEditsKeeper::keepNow(QString* problem) {
  pending_->stop();
  if (!document_.isModified()) return true;
  const QString file = keptFile();
  if (file.isEmpty()) {
    if (problem) {
      *problem = folder_.isEmpty() ? tr("this window keeps no unsaved edits")
                 : path_.isEmpty() ? tr("the project has no file yet")
                                   : tr("another workbench window has this project open");
    }
    return false;
  }
  engine::KeptEdits edits;
  edits.project = toNativePath(path_);
  edits.keptAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  edits.basedOn = engine::fnv1a(document_.diskText());
  edits.text = document_.text();
  try {
    engine::writeFileAtomically(toNativePath(file), engine::keptEditsFileText(edits));
  } catch (const std::exception& error) {
    if (problem) *problem = QString::fromStdString(error.what());
    return false;
  }
  return true;
}

std::optional<engine::KeptEdits> UnsavedEditsKeeper::kept(QString* problem) {
  const QString file = keptFile();
  if (file.isEmpty() || !QFileInfo(file).exists()) return std::nullopt;
  try {
    engine::KeptEdits edits =
        engine::parseKeptEdits(engine::readWholeFile(toNativePath(file)), toNativePath(file));
    if (edits.project != toNativePath(path_)) return std::nullopt;  // another project's
    return edits;
  } catch (const std::exception& error) {  // engine::ConfigError, engine::FileReadError
    if (problem) *problem = QString::fromStdString(error.what());
  }
  const QString aside = setAside();
  if (problem) *problem += tr(" (set aside as %1)").arg(QDir::toNativeSeparators(aside));
  return std::nullopt;
}

QString UnsavedEditsKeeper::setAside() {
  const QString file = keptFile();
  if (file.isEmpty()) return QString();
  const QString aside =
      file + QStringLiteral(".unreadable-") +
      QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
  return QFile::rename(file, aside) ? aside : file;
}

void UnsavedEditsKeeper::discard(const QString& projectPath) {
  if (folder_.isEmpty()) return;
  const QString path = projectPath.isEmpty() ? path_ : QFileInfo(projectPath).absoluteFilePath();
  if (path.isEmpty()) return;
  if (path == path_) {
    pending_->stop();
    if (lock_) QFile::remove(fileFor(path, kKeptSuffix));
    return;
  }
  // Another project (the one a Save As left): only when no window has it open.
  QLockFile other(fileFor(path, kLockSuffix));
  other.setStaleLockTime(0);
  if (other.tryLock(0)) QFile::remove(fileFor(path, kKeptSuffix));
}

}  // namespace mrnn::widgets
