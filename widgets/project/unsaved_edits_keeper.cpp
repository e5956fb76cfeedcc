#include "widgets/project/unsaved_edits_keeper.h"

#include <QCoreApplication>
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
// A new project's files: no path to name them by.
const char* const kNewPrefix = "new-";
// Edits are kept this long after the first change not yet kept: a crash loses at most this.
constexpr int kKeepAfterMilliseconds = 1000;

// A project's files are named by a digest of its absolute path.
QString keyOf(const QString& projectPath) {
  const std::string absolute = toNativePath(QFileInfo(projectPath).absoluteFilePath());
  return QString::number(static_cast<qulonglong>(engine::fnv1a(absolute)), 16)
      .rightJustified(16, QLatin1Char('0'));
}

// Moves `file` to a name beside it that says it did not read; that name, or `file` when it
// could not be moved.
QString moveAside(const QString& file) {
  const QString aside =
      file + QStringLiteral(".unreadable-") +
      QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
  return QFile::rename(file, aside) ? aside : file;
}

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

QString UnsavedEditsKeeper::fileFor(const QString& key, const QString& suffix) const {
  return QDir(folder_).filePath(key + suffix);
}

void UnsavedEditsKeeper::projectMoved() {
  pending_->stop();
  // A new project that now has a file (Save As) or gave way to another project (after "save
  // changes?") is no longer in the window: what was kept of it goes.
  if (lock_ && key_.startsWith(QLatin1String(kNewPrefix)))
    QFile::remove(fileFor(key_, kKeptSuffix));
  lock_.reset();
  wrote_ = false;
  path_ = document_.path();
  key_.clear();
  if (folder_.isEmpty()) return;
  if (path_.isEmpty()) {
    // The process and the time: a later process given the same id finds no name of its own
    // taken by what an earlier one left.
    static int made = 0;
    key_ = QStringLiteral("%1%2-%3-%4")
               .arg(QLatin1String(kNewPrefix))
               .arg(QCoreApplication::applicationPid())
               .arg(QDateTime::currentMSecsSinceEpoch())
               .arg(++made);
  } else {
    key_ = keyOf(path_);
  }
  // The project's text can name private paths: the folder is the user's alone.
  if (QDir().mkpath(folder_)) {
    QFile::setPermissions(folder_,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  }
  auto lock = std::make_unique<QLockFile>(fileFor(key_, kLockSuffix));
  lock->setStaleLockTime(0);  // held as long as the window lives; stale only when it is gone
  if (lock->tryLock(0)) lock_ = std::move(lock);
  if (document_.isModified()) changed();
}

QString UnsavedEditsKeeper::keptFile() const {
  if (!lock_ || key_.isEmpty() || path_ != document_.path()) return QString();
  return fileFor(key_, kKeptSuffix);
}

void UnsavedEditsKeeper::setDraftSource(std::function<QString()> draft) {
  draft_ = std::move(draft);
}

QString UnsavedEditsKeeper::draft() const {
  return draft_ ? draft_() : QString();
}

void UnsavedEditsKeeper::draftChanged() {
  // A draft that went with nothing else unsaved leaves nothing to keep: what this window kept
  // of it goes (keepNow), never a file from an earlier window waiting to be offered.
  if (keptFile().isEmpty() || (!wrote_ && draft().isEmpty())) return;
  if (!pending_->isActive()) pending_->start();
}

void UnsavedEditsKeeper::changed() {
  if (keptFile().isEmpty() || (!document_.isModified() && draft().isEmpty())) return;
  if (!pending_->isActive()) pending_->start();
}

void UnsavedEditsKeeper::cleaned() {
  // Saved, or undone back to the file's text: nothing unsaved is left to keep, but for a draft
  // typed meanwhile. (A document given another project's text is cleaned before it hears its
  // new path: keptFile() is empty then, and what was kept for the old project stays until the
  // user says otherwise.)
  const QString file = keptFile();
  if (file.isEmpty()) return;
  pending_->stop();
  if (!draft().isEmpty()) {
    keepNow();
    return;
  }
  QFile::remove(file);
  wrote_ = false;
}

bool UnsavedEditsKeeper::keepNow(QString* problem) {
  pending_->stop();
  const QString typed = draft();
  if (!document_.isModified() && typed.isEmpty()) {
    if (wrote_) {
      QFile::remove(keptFile());
      wrote_ = false;
    }
    return true;
  }
  const QString file = keptFile();
  if (file.isEmpty()) {
    if (problem) {
      *problem = folder_.isEmpty() ? tr("this window keeps no unsaved edits")
                                   : tr("another workbench window has this project open");
    }
    return false;
  }
  engine::KeptEdits edits;
  edits.project = toNativePath(path_);
  edits.keptAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
  edits.basedOn = engine::fnv1a(document_.diskText());
  edits.draft = !typed.isEmpty();
  edits.text = edits.draft ? typed.toStdString() : document_.text();
  try {
    engine::writeFileAtomically(toNativePath(file), engine::keptEditsFileText(edits));
  } catch (const std::exception& error) {
    if (problem) *problem = QString::fromStdString(error.what());
    return false;
  }
  wrote_ = true;
  return true;
}

std::optional<engine::KeptEdits> UnsavedEditsKeeper::read(const QString& file, QString* problem) {
  try {
    return engine::parseKeptEdits(engine::readWholeFile(toNativePath(file)), toNativePath(file));
  } catch (const std::exception& error) {  // engine::ConfigError, engine::FileReadError
    // Set aside, so that new edits do not write over what may still be read by hand.
    const QString aside = moveAside(file);
    if (problem) {
      *problem = QString::fromStdString(error.what()) +
                 tr(" (set aside as %1)").arg(QDir::toNativeSeparators(aside));
    }
  }
  return std::nullopt;
}

std::optional<engine::KeptEdits> UnsavedEditsKeeper::kept(QString* problem) {
  const QString file = keptFile();
  if (path_.isEmpty() || file.isEmpty() || !QFileInfo(file).exists()) return std::nullopt;
  std::optional<engine::KeptEdits> edits = read(file, problem);
  if (edits && edits->project != toNativePath(path_)) return std::nullopt;  // another project's
  return edits;
}

std::vector<UnsavedEditsKeeper::KeptProject> UnsavedEditsKeeper::keptWithoutTheirFile(
    QString* problem) {
  std::vector<KeptProject> found;
  if (folder_.isEmpty()) return found;
  const QStringList names = QDir(folder_).entryList(
      {QStringLiteral("*") + QLatin1String(kKeptSuffix)}, QDir::Files, QDir::Time);
  for (const QString& name : names) {
    const QString file = QDir(folder_).filePath(name);
    const QString key = name.chopped(static_cast<int>(qstrlen(kKeptSuffix)));
    if (key == key_) continue;  // this window's own
    QLockFile owner(fileFor(key, kLockSuffix));
    owner.setStaleLockTime(0);
    if (!owner.tryLock(0)) continue;  // its window is still open
    // A project whose file is there offers its own when opened: only its header is read
    // here, so that a damaged one is set aside by the window that opens it, and said there.
    std::optional<engine::KeptEdits> edits;
    if (key.startsWith(QLatin1String(kNewPrefix))) {
      QString why;
      edits = read(file, &why);
      if (!why.isEmpty() && problem) *problem = why;
      if (edits && !edits->project.empty()) edits.reset();
    } else {
      try {
        edits =
            engine::parseKeptEdits(engine::readWholeFile(toNativePath(file)), toNativePath(file));
      } catch (const std::exception&) {
        continue;
      }
      // Its project is still there (under this key) or named by another's path: not gone.
      if (edits->project.empty() || keyOf(fromNativePath(edits->project)) != key ||
          QFileInfo::exists(fromNativePath(edits->project))) {
        edits.reset();
      }
    }
    if (edits) found.push_back({file, std::move(*edits)});
  }
  return found;
}

void UnsavedEditsKeeper::forgetKept(const QString& file) {
  const QString name = QFileInfo(file).fileName();
  if (folder_.isEmpty() || !name.endsWith(QLatin1String(kKeptSuffix))) return;
  QLockFile owner(fileFor(name.chopped(static_cast<int>(qstrlen(kKeptSuffix))), kLockSuffix));
  owner.setStaleLockTime(0);
  if (owner.tryLock(0)) QFile::remove(QDir(folder_).filePath(name));
}

QString UnsavedEditsKeeper::setAside() {
  const QString file = keptFile();
  return file.isEmpty() ? QString() : moveAside(file);
}

void UnsavedEditsKeeper::discard(const QString& projectPath) {
  if (folder_.isEmpty()) return;
  if (projectPath.isEmpty() || QFileInfo(projectPath).absoluteFilePath() == path_) {
    pending_->stop();
    const QString file = keptFile();
    if (!file.isEmpty()) QFile::remove(file);
    wrote_ = false;
    return;
  }
  // Another project (the one a Save As left): only when no window has it open.
  const QString key = keyOf(projectPath);
  QLockFile other(fileFor(key, kLockSuffix));
  other.setStaleLockTime(0);
  if (other.tryLock(0)) QFile::remove(fileFor(key, kKeptSuffix));
}

}  // namespace mrnn::widgets
