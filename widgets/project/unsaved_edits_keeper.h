#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/config/kept_edits.h"

class QLockFile;
class QTimer;

namespace mrnn::widgets {

class ProjectDocument;

// Keeps the open project's unsaved edits in a folder of the workbench's own (never the
// project's), within a second of each change, so that a window that closes without asking (a
// logout's SIGTERM, a crash, a power cut) loses nothing: the next window to open the project
// finds them (kept()) and offers them back. A save, or an undo back to the file's text,
// forgets them. One window keeps a project's edits at a time: a second window on the same
// project neither keeps nor offers them (a lock file, freed when its process ends). A new
// project not yet saved (from a template) is kept too, under a name of its own, and offered
// by the next window that starts, as are a project's edits when its file has gone
// (keptWithoutTheirFile()).
class UnsavedEditsKeeper : public QObject {
  Q_OBJECT

 public:
  explicit UnsavedEditsKeeper(ProjectDocument& document, QObject* parent = nullptr);
  ~UnsavedEditsKeeper() override;

  // Where edits are kept; empty (the default) keeps nothing.
  void setFolder(const QString& folder);
  // Text typed for the project that does not read as one yet (the YAML view's), empty when
  // there is none: kept in place of the project's text, marked as a draft. draftChanged()
  // says when it may have changed.
  void setDraftSource(std::function<QString()> draft);
  void draftChanged();
  QString folder() const { return folder_; }

  // What was kept for the open project by a window that has closed; nullopt when nothing was
  // (or another window has the project open). A file that does not read sets `problem` (file,
  // line, key) and is set aside, so that new edits do not write over it.
  std::optional<engine::KeptEdits> kept(QString* problem = nullptr);
  // Keeps the edits now (a quit that cannot ask); false with `problem` when they could not be.
  bool keepNow(QString* problem = nullptr);
  // Forgets what is kept for `projectPath` (the open project's when empty): the user chose
  // Discard, or saved the edits under another name.
  void discard(const QString& projectPath = QString());
  // Moves what is kept for the open project out of the way of new edits (it does not read as a
  // project, say), to a name beside it that says so; that name (the kept file's own when it
  // could not be moved).
  QString setAside();
  // The kept file of the open project (exists or not); empty when nothing is kept for it.
  QString keptFile() const;

  // Edits kept by a window that has closed that no window opening a project by its path will
  // find: a new project's (never saved), or a project's whose file is no longer there (its
  // folder renamed or on a drive not mounted). Its file and what it holds.
  struct KeptProject {
    QString file;
    engine::KeptEdits edits;
  };
  // Every such kept file, newest first; one that does not read is set aside and said in
  // `problem`.
  std::vector<KeptProject> keptWithoutTheirFile(QString* problem = nullptr);
  // Forgets one of those (Discard, or its edits were taken into this window); not while
  // another window keeps it.
  void forgetKept(const QString& file);

 signals:
  // Edits could not be kept (a full disk): said once until keeping works again.
  void keepingFailed(const QString& reason);

 private:
  void projectMoved();
  QString draft() const;
  void changed();
  void cleaned();
  QString fileFor(const QString& key, const QString& suffix) const;
  // Reads a kept file; a damaged one is set aside, `problem` saying why and where it went.
  std::optional<engine::KeptEdits> read(const QString& file, QString* problem);

  ProjectDocument& document_;
  QString folder_;
  QString path_;  // the project whose edits this keeps (and whose lock it holds)
  QString key_;   // its files' name: a digest of its path, or "new-<pid>-<ms>-<n>" untitled
  std::unique_ptr<QLockFile> lock_;
  QTimer* pending_;
  std::function<QString()> draft_;
  bool wrote_ = false;  // the kept file is this window's (not one waiting to be offered)
  bool failed_ = false;
};

}  // namespace mrnn::widgets
