#pragma once

#include <QObject>
#include <QString>

#include <optional>
#include <string>

class QFileSystemWatcher;
class QTimer;

namespace mrnn::widgets {

class ProjectDocument;

// Follows the open project's file on disk, so that a change made by another program (a text
// editor, `mrnn project set`, a git checkout) is seen when it happens, not at the next Save.
// While the document has no unsaved edits the change is adopted at once, as one undoable step
// (ProjectDocument::reloadFromDisk); with unsaved edits it is announced and the user chooses.
// A change that does not read as a project is announced and not adopted. Each text on disk is
// announced once.
class ProjectFileWatcher : public QObject {
  Q_OBJECT

 public:
  explicit ProjectFileWatcher(ProjectDocument& document, QObject* parent = nullptr);

  // Looks at the file now; the file system's notices land here too, after a short pause that
  // lets an editor finish its save.
  void check();

 signals:
  // The file's new text was adopted (the document had no unsaved edits).
  void reloaded(const QString& path);
  // The file changed while the document has unsaved edits: which text wins is the user's call.
  void changedWhileEdited(const QString& path);
  // The file changed and its new text does not read as a project: `reason` names line and key.
  void changedUnreadable(const QString& path, const QString& reason);
  // The file is gone (moved or deleted): the document keeps its text, and Save writes it again.
  void vanished(const QString& path);
  // Something that cannot be read as the project is at its name (a FIFO, a folder, a file too
  // large): `reason` says which. The document keeps its text.
  void becameUnreadable(const QString& path, const QString& reason);

 private:
  void follow();

  ProjectDocument& document_;
  QFileSystemWatcher* watcher_;
  QTimer* settle_;
  std::string announced_;  // the text on disk last announced, so that it is announced once
  // Why the file could not be read when that was last announced (empty: it was gone).
  std::optional<QString> announcedProblem_;
};

}  // namespace mrnn::widgets
