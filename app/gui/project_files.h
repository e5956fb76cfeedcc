#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>
#include <string>

class QMenu;
class QMessageBox;
class QWidget;

namespace mrnn::widgets {
class ProjectDocument;
class ProjectFileWatcher;
class UnsavedEditsKeeper;
}  // namespace mrnn::widgets

namespace mrnn::app {

class TemplateCatalog;

// The File menu's work on the open document: New (from a template), Open, Save, Save As,
// the recent-projects list, the "save changes?" prompt, and what happens when another program
// changes the open file (widgets::ProjectFileWatcher). Failures are shown to the user
// in words and reported through statusMessage().
class ProjectFiles : public QObject {
  Q_OBJECT

 public:
  // With useSettings false the recent list and last folder are neither read nor written.
  ProjectFiles(widgets::ProjectDocument& document, const TemplateCatalog& catalog, QWidget* window,
               bool useSettings);

  bool open(const QString& path);  // no prompt; false (with a message) on failure
  bool chooseAndOpen();            // prompts to save first
  bool newFromTemplate();          // prompts to save first
  bool save();                     // Save As when untitled
  bool saveAs();
  // Asks to save unsaved changes; false when the user cancels. Text typed in the window that
  // does not read yet (setDraftCheck) is asked about first.
  bool maybeSave();
  // What says whether the window holds text not yet in its files (the YAML view's draft that
  // does not parse, an experiment's edit with a problem): where and why, or empty.
  void setDraftCheck(std::function<QString()> check) { draftCheck_ = std::move(check); }
  // Where unsaved edits are kept until saved or discarded, so that a window closed without
  // asking loses none (widgets::UnsavedEditsKeeper): the workbench's data folder when the
  // settings are in use, else nowhere unless given here.
  void keepUnsavedEditsIn(const QString& folder);
  // Keeps the unsaved edits now (a quit that cannot ask); false with `problem` when it cannot.
  bool keepUnsavedEdits(QString* problem);
  // The project's text typed in the window that does not read yet (the YAML view's), kept in
  // place of its edits; `restore` puts such text back where it was typed, `drop` drops it
  // (Discard Text). draftChanged() is called when the text may have changed.
  void keepDrafts(std::function<QString()> draft, std::function<void(const QString&)> restore,
                  std::function<void()> drop);
  void draftChanged();

  // The most recent project that is still a file, from the settings; empty when none is.
  static QString lastProject();
  // What the workbench opens at launch: the project named on the command line, else (with
  // the settings in use) the last project, else `fallback` (the default project).
  static QString projectAtLaunch(const QStringList& arguments, const QString& fallback,
                                 bool useSettings);

  void attachRecentMenu(QMenu* menu);
  QStringList recent() const { return recent_; }
  QString lastError() const { return lastError_; }
  // The last open's failure in a dialog: waited on for an open the user asked for; left open at
  // launch (the window behind it), where a status line alone went by unseen.
  void warnNotOpened(bool wait);

 signals:
  void statusMessage(const QString& text);

 private:
  enum class OutsideChoice { SaveAs, Replace, Cancel };
  // A question before a save that would destroy something (the box `name`): Save As… (the
  // default), the `destructive` button, or Cancel.
  OutsideChoice askBeforeSaving(const QString& name, const QString& text, const QString& detail,
                                const QString& destructive);
  // The file was changed by another program since it was read: asks which text wins.
  OutsideChoice askAboutOutsideChanges();
  // The file's comments and layout would be lost (ProjectDocument::saveLosesLayout): Save As…
  // (the default), write it anew, or cancel.
  OutsideChoice askAboutLosingLayout();
  // The same change seen as it happened, with unsaved edits here: a question that waits
  // (non-modal) for the user, Reload or Keep Mine.
  void offerReload(const QString& path);
  // Edits kept for the project just opened by a window that closed without saving them:
  // a question that waits (window-modal), Restore or Discard.
  void offerKeptEdits();
  // Edits a closed window kept that no project's opening finds (a new project never saved, or
  // a project whose file has gone): offered once, after the project the window opens first
  // (and its own kept edits, when it has some): Open It, Discard or Later.
  void offerKeptElsewhere();
  // One of those (`file` holds them, `text` is the project they say, or with `draft` the YAML
  // view's text that did not read) into the window: as a new project (Open It), or into the
  // open project (its file moved here, Restore Here).
  void takeKeptEdits(const QString& file, const std::string& text, bool draft, bool asNewProject);
  // A new, unsaved project from the starter template; false (the user told) when none reads.
  bool loadStarter();
  void remember(const QString& path);
  void rebuildRecentMenu();
  void saveSettings() const;

  widgets::ProjectDocument& document_;
  const TemplateCatalog& catalog_;
  QWidget* window_;
  bool useSettings_;
  QStringList recent_;
  QString lastDirectory_;
  QString lastError_;
  QMenu* recentMenu_ = nullptr;
  widgets::ProjectFileWatcher* watcher_ = nullptr;
  widgets::UnsavedEditsKeeper* keeper_ = nullptr;
  bool keptElsewhereOffered_ = false;
  std::function<QString()> draftCheck_;
  std::function<void(const QString&)> restoreDraft_;
  std::function<void()> dropDraft_;
  QPointer<QMessageBox> reloadOffer_;  // one question at a time: Reload reads the latest text
};

}  // namespace mrnn::app
