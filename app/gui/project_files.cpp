#include "app/gui/project_files.h"

#include <exception>

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>

#include "app/gui/new_project_dialog.h"
#include "app/gui/template_catalog.h"
#include "app/gui/workbench_settings.h"
#include "engine/config/config_error.h"
#include "engine/config/project_file.h"
#include "engine/io/fnv1a.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/project/project_file_watcher.h"
#include "widgets/project/unsaved_edits_keeper.h"

namespace mrnn::app {
namespace {

constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentProjects";
const char* const kLastDirectoryKey = "lastDirectory";

// A box that deletes itself once answered, named `name` (tests find it by that).
QMessageBox* selfClosingBox(QMessageBox::Icon icon, const QString& title, const QString& text,
                            const QString& name, QWidget* parent,
                            QMessageBox::StandardButtons buttons = QMessageBox::NoButton) {
  auto* box = new QMessageBox(icon, title, text, buttons, parent);
  box->setObjectName(name);
  box->setAttribute(Qt::WA_DeleteOnClose);
  return box;
}

// When kept edits were kept (UTC, ISO 8601), in the local time a question shows.
QString keptWhen(const std::string& keptAt) {
  return QDateTime::fromString(QString::fromStdString(keptAt), Qt::ISODate)
      .toLocalTime()
      .toString(QStringLiteral("d MMM yyyy, HH:mm"));
}

}  // namespace

ProjectFiles::ProjectFiles(widgets::ProjectDocument& document, const TemplateCatalog& catalog,
                           QWidget* window, bool useSettings)
    : QObject(window),
      document_(document),
      catalog_(catalog),
      window_(window),
      useSettings_(useSettings) {
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    recent_ = settings.value(kRecentKey).toStringList();
    lastDirectory_ = settings.value(kLastDirectoryKey).toString();
    while (recent_.size() > kMaxRecent) recent_.removeLast();
  }
  keeper_ = new widgets::UnsavedEditsKeeper(document_, this);
  if (useSettings_) {
    keeper_->setFolder(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                           .filePath(QStringLiteral("unsaved-edits")));
  }
  connect(keeper_, &widgets::UnsavedEditsKeeper::keepingFailed, this, [this](const QString& why) {
    emit statusMessage(tr("Unsaved edits could not be kept against a crash (%1); File > Save "
                          "keeps them")
                           .arg(why));
  });
  watcher_ = new widgets::ProjectFileWatcher(document_, this);
  connect(watcher_, &widgets::ProjectFileWatcher::reloaded, this, [this](const QString& path) {
    emit statusMessage(tr("%1 was changed by another program; this is its new text (Edit > "
                          "Undo brings back the earlier one)")
                           .arg(QDir::toNativeSeparators(path)));
  });
  connect(watcher_, &widgets::ProjectFileWatcher::changedUnreadable, this,
          [this](const QString& path, const QString& reason) {
            emit statusMessage(tr("%1 was changed by another program and does not read as a "
                                  "project (%2); the workbench keeps what it shows")
                                   .arg(QDir::toNativeSeparators(path), reason));
          });
  connect(watcher_, &widgets::ProjectFileWatcher::becameUnreadable, this,
          [this](const QString& path, const QString& reason) {
            emit statusMessage(tr("%1 cannot be read now (%2); the window keeps the project "
                                  "as it shows it, and File > Save As… keeps it in another file")
                                   .arg(QDir::toNativeSeparators(path), reason));
          });
  connect(watcher_, &widgets::ProjectFileWatcher::vanished, this, [this](const QString& path) {
    emit statusMessage(tr("%1 is no longer on disk (moved or deleted by another program?); the "
                          "window keeps the project as it shows it, and File > Save writes it "
                          "there again")
                           .arg(QDir::toNativeSeparators(path)));
  });
  connect(watcher_, &widgets::ProjectFileWatcher::changedWhileEdited, this,
          &ProjectFiles::offerReload);
}

void ProjectFiles::offerReload(const QString& path) {
  if (reloadOffer_) return;
  auto* box =
      selfClosingBox(QMessageBox::Information, tr("Project Changed on Disk"),
                     tr("%1 was changed by another program.").arg(QDir::toNativeSeparators(path)),
                     QStringLiteral("reloadOfferBox"), window_);
  box->setInformativeText(
      tr("You have unsaved changes here. Reload shows the file's new text; Edit > Undo still "
         "brings back yours. Keep Mine leaves this window as it is (Save will ask before "
         "replacing their changes)."));
  QPushButton* reload = box->addButton(tr("Reload"), QMessageBox::AcceptRole);
  box->addButton(tr("Keep Mine"), QMessageBox::RejectRole);
  box->setDefaultButton(reload);
  reloadOffer_ = box;
  connect(box, &QMessageBox::buttonClicked, this, [this, reload](QAbstractButton* clicked) {
    if (clicked != reload) return;
    try {
      document_.reloadFromDisk();
    } catch (const std::exception& e) {
      QMessageBox::warning(window_, tr("Reload Project"),
                           tr("The file's new text does not read as a project; the workbench "
                              "keeps what it shows.\n\n%1")
                               .arg(e.what()));
      return;
    }
    emit statusMessage(tr("Reloaded %1 (Edit > Undo brings back your changes)")
                           .arg(QDir::toNativeSeparators(document_.path())));
  });
  box->open();
}

void ProjectFiles::keepUnsavedEditsIn(const QString& folder) {
  keeper_->setFolder(folder);
}

bool ProjectFiles::keepUnsavedEdits(QString* problem) {
  return keeper_->keepNow(problem);
}

void ProjectFiles::keepDrafts(std::function<QString()> draft,
                              std::function<void(const QString&)> restore,
                              std::function<void()> drop) {
  keeper_->setDraftSource(std::move(draft));
  restoreDraft_ = std::move(restore);
  dropDraft_ = std::move(drop);
}

void ProjectFiles::draftChanged() {
  keeper_->draftChanged();
}

void ProjectFiles::offerKeptEdits() {
  QString problem;
  const std::optional<engine::KeptEdits> kept = keeper_->kept(&problem);
  if (!problem.isEmpty()) {
    emit statusMessage(
        tr("Unsaved edits kept for this project could not be read: %1").arg(problem));
  }
  if (!kept || kept->text == document_.text()) {
    if (kept) keeper_->discard();  // saved elsewhere since: nothing to give back
    offerKeptElsewhere();
    return;
  }
  const QString when = keptWhen(kept->keptAt);
  const bool draft = kept->draft && restoreDraft_;
  auto* box = selfClosingBox(
      QMessageBox::Question, tr("Unsaved Edits Kept"),
      draft ? tr("Text typed for %1 in the YAML view, which did not read as a project yet, was "
                 "kept when the workbench closed (%2).")
                  .arg(QDir::toNativeSeparators(document_.path()), when)
            : tr("Edits to %1 that were not saved were kept when the workbench closed (%2).")
                  .arg(QDir::toNativeSeparators(document_.path()), when),
      QStringLiteral("keptEditsBox"), window_);
  QString detail =
      draft ? tr("Restore puts it back in the YAML view as it was typed, its problem shown "
                 "under it; the project takes it once it reads. Discard forgets it.")
            : tr("Restore puts them in the window, unsaved: File > Save writes them, and "
                 "Edit > Undo brings back the file's text. Discard forgets them.");
  if (kept->basedOn != engine::fnv1a(document_.diskText())) {
    detail +=
        tr("\n\nThe file was changed since they were made (by another program, or saved "
           "from another window): restoring replaces its text in the window with theirs.");
  }
  box->setInformativeText(detail);
  QPushButton* restore = box->addButton(tr("Restore"), QMessageBox::AcceptRole);
  box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
  box->setDefaultButton(restore);
  box->setEscapeButton(restore);  // nothing is lost by restoring: Undo takes it back
  const std::string text = kept->text;
  connect(
      box, &QMessageBox::buttonClicked, this,
      [this, restore, text, draft](QAbstractButton* clicked) {
        if (clicked != restore) {
          keeper_->discard();
          emit statusMessage(tr("Discarded the unsaved edits kept for this project"));
          return;
        }
        if (draft) {
          restoreDraft_(QString::fromStdString(text));
          emit statusMessage(tr("Restored the text typed in the YAML view"));
          return;
        }
        try {
          engine::Project parsed =
              engine::parseProject(text, widgets::toNativePath(keeper_->keptFile()));
          parsed.folder = widgets::toNativePath(document_.folder());
          document_.editText(text, parsed, tr("Restore unsaved edits"));
        } catch (const engine::ConfigError& e) {
          // Out of the way of new edits, for a person to read by hand.
          const QString aside = keeper_->setAside();
          QMessageBox::warning(
              window_, tr("Restore Unsaved Edits"),
              tr("The kept edits do not read as a project, so the window keeps the file's text. "
                 "They stay in %1.\n\nLine %2 of the project's text%3: %4")
                  .arg(QDir::toNativeSeparators(aside), QString::number(e.line()),
                       e.key().empty() ? QString()
                                       : QStringLiteral(", ") + QString::fromStdString(e.key()),
                       QString::fromStdString(e.message())));
          return;
        }
        emit statusMessage(
            tr("Restored the unsaved edits (Edit > Undo brings back the file's text)"));
      });
  connect(box, &QDialog::finished, this, &ProjectFiles::offerKeptElsewhere);
  box->open();
}

void ProjectFiles::offerKeptElsewhere() {
  if (keptElsewhereOffered_) return;
  keptElsewhereOffered_ = true;
  QString problem;
  const auto kept = keeper_->keptWithoutTheirFile(&problem);
  if (!problem.isEmpty()) {
    emit statusMessage(tr("A new project's kept edits could not be read: %1").arg(problem));
  }
  if (kept.empty()) return;
  const widgets::UnsavedEditsKeeper::KeptProject newest = kept.front();
  const QString when = keptWhen(newest.edits.keptAt);
  const bool isNew = newest.edits.project.empty();
  // A project moved and opened where it is now reads as the text the edits began from: they
  // can go back into it as they would have at its old path.
  const bool fitsThisFile = !isNew && !document_.isUntitled() && !document_.isModified() &&
                            engine::fnv1a(document_.diskText()) == newest.edits.basedOn;
  QString name;
  try {
    name = QString::fromStdString(engine::parseProject(newest.edits.text, "", false).name);
  } catch (const std::exception&) {
    // Named by its time alone; opening it says what is wrong.
  }
  QString text;
  if (!isNew) {
    text = tr("Edits to %1 that were not saved were kept when the workbench closed (%2), and "
              "that file is no longer there.")
               .arg(QDir::toNativeSeparators(widgets::fromNativePath(newest.edits.project)), when);
  } else if (name.isEmpty()) {
    text =
        tr("A new project that was never saved was kept when the workbench closed (%1).").arg(when);
  } else {
    text = tr("A new project that was never saved, \"%1\", was kept when the workbench closed "
              "(%2).")
               .arg(name, when);
  }
  auto* box = selfClosingBox(QMessageBox::Question,
                             isNew ? tr("New Project Kept") : tr("Unsaved Edits Kept"), text,
                             QStringLiteral("keptElsewhereBox"), window_);
  QString detail;
  if (isNew) {
    detail =
        tr("Open It shows it in the window, unsaved: File > Save As… gives it a folder of its "
           "own. Discard forgets it; Later asks again next time.");
  } else {
    detail = tr("Its folder may have been renamed or moved, or be on a drive not mounted now. ");
    if (fitsThisFile) {
      detail +=
          tr("The project open now has the text they were made from: Restore Here puts "
             "them in it, unsaved. ");
    }
    detail +=
        tr("Open It shows them in the window, unsaved: File > Save As… puts them where the "
           "project is now (its data paths are read from the folder it is saved in). "
           "Discard forgets them; Later asks again next time.");
  }
  if (newest.edits.draft) {
    detail +=
        tr("\n\nWhat was kept is text typed in the YAML view that did not read as a project yet: "
           "Open It puts it in the YAML view of a new project, which takes it once it "
           "reads.");
  }
  if (kept.size() > 1) {
    detail += tr("\n\n%n more are kept; each is offered at a later start.", "",
                 static_cast<int>(kept.size() - 1));
  }
  box->setInformativeText(detail);
  QPushButton* restoreHere =
      fitsThisFile ? box->addButton(tr("Restore Here"), QMessageBox::AcceptRole) : nullptr;
  QPushButton* openIt = box->addButton(tr("Open It"), QMessageBox::AcceptRole);
  QPushButton* discard = box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
  QPushButton* later = box->addButton(tr("Later"), QMessageBox::RejectRole);
  box->setDefaultButton(restoreHere ? restoreHere : openIt);
  box->setEscapeButton(later);  // nothing is lost by waiting
  connect(box, &QMessageBox::buttonClicked, this,
          [this, restoreHere, openIt, discard, newest](QAbstractButton* clicked) {
            if (clicked == discard) {
              keeper_->forgetKept(newest.file);
              emit statusMessage(tr("Discarded the unsaved edits that were kept"));
            } else if (clicked == openIt || (restoreHere && clicked == restoreHere)) {
              takeKeptEdits(newest.file, newest.edits.text, newest.edits.draft, clicked == openIt);
            }
          });
  box->open();
}

void ProjectFiles::takeKeptEdits(const QString& file, const std::string& text, bool draft,
                                 bool asNewProject) {
  if (asNewProject && !maybeSave()) return;
  if (draft && restoreDraft_) {
    // Typed in the YAML view and not reading yet: back there, as typed. As a new project, the
    // window holds the starter template until the text reads and takes its place.
    if (asNewProject && !loadStarter()) return;
    restoreDraft_(QString::fromStdString(text));
    if (asNewProject) keeper_->keepNow();  // under this window's name, before the old file goes
    keeper_->forgetKept(file);
    emit statusMessage(asNewProject
                           ? tr("Opened the text that was kept in the YAML view of a new project: "
                                "it becomes the project once it reads")
                           : tr("Restored the text typed in the YAML view"));
    return;
  }
  const std::string where = widgets::toNativePath(file);
  try {
    if (asNewProject) {
      document_.loadUntitledText(text, where);
      keeper_->keepNow();  // under this window's name, before the old file goes
    } else {
      engine::Project parsed = engine::parseProject(text, where);
      parsed.folder = widgets::toNativePath(document_.folder());
      document_.editText(text, parsed, tr("Restore unsaved edits"));
    }
  } catch (const engine::ConfigError& e) {
    QMessageBox::warning(window_, tr("Open Kept Project"),
                         tr("The kept project does not read as a project; it stays in %1.\n\n%2")
                             .arg(QDir::toNativeSeparators(file), QString::fromUtf8(e.what())));
    return;
  }
  keeper_->forgetKept(file);
  emit statusMessage(asNewProject ? tr("Opened the unsaved edits that were kept: File > Save As… "
                                       "gives them a folder")
                                  : tr("Restored the unsaved edits (Edit > Undo brings back the "
                                       "file's text)"));
}

bool ProjectFiles::loadStarter() {
  const QString starter = catalog_.starterTemplate();
  QString problem = tr("The workbench's project templates are not installed.");
  if (!starter.isEmpty()) {
    try {
      document_.loadTemplate(starter);
      return true;
    } catch (const std::exception& e) {
      problem = QString::fromUtf8(e.what());
    }
  }
  QMessageBox::warning(
      window_, tr("Open Kept Project"),
      tr("A new project could not be started for the kept text, which stays kept.\n\n%1")
          .arg(problem));
  return false;
}

bool ProjectFiles::open(const QString& path) {
  try {
    document_.load(path);
  } catch (const std::exception& e) {
    lastError_ = QString::fromStdString(e.what());  // names file, line and key
    emit statusMessage(tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), lastError_));
    return false;
  }
  lastError_.clear();
  lastDirectory_ = QFileInfo(path).absolutePath();
  remember(QFileInfo(path).absoluteFilePath());
  emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(document_.path())));
  offerKeptEdits();
  return true;
}

bool ProjectFiles::chooseAndOpen() {
  if (!maybeSave()) return false;
  const QString path =
      QFileDialog::getOpenFileName(window_, tr("Open Project"), lastDirectory_,
                                   tr("Project files (project.yaml *.yaml *.yml);;All files (*)"));
  if (path.isEmpty()) return false;
  if (!open(path)) {
    warnNotOpened(true);
    return false;
  }
  return true;
}

void ProjectFiles::warnNotOpened(bool wait) {
  auto* box = selfClosingBox(QMessageBox::Warning, tr("Open Project"),
                             tr("The project could not be opened.\n\n%1").arg(lastError_),
                             QStringLiteral("projectNotOpened"), window_, QMessageBox::Ok);
  if (wait) {
    box->exec();
  } else {
    box->open();
  }
}

bool ProjectFiles::newFromTemplate() {
  if (!maybeSave()) return false;
  NewProjectDialog dialog(catalog_.templates(), window_);
  if (dialog.exec() != QDialog::Accepted || dialog.chosenPath().isEmpty()) return false;
  try {
    document_.loadTemplate(dialog.chosenPath());
  } catch (const std::exception& e) {
    QMessageBox::warning(window_, tr("New Project"),
                         tr("The template could not be read.\n\n%1").arg(e.what()));
    return false;
  }
  emit statusMessage(tr("New project from \"%1\": save it to a folder of its own before "
                        "training (runs and checkpoints are stored beside it)")
                         .arg(document_.displayName()));
  return true;
}

bool ProjectFiles::save() {
  if (document_.isUntitled()) return saveAs();
  bool replace = false;
  if (document_.changedOnDisk()) {
    const OutsideChoice choice = askAboutOutsideChanges();
    if (choice == OutsideChoice::SaveAs) return saveAs();
    if (choice == OutsideChoice::Cancel) return false;
    replace = true;
  }
  if (document_.saveLosesLayout()) {
    const OutsideChoice choice = askAboutLosingLayout();
    if (choice == OutsideChoice::SaveAs) return saveAs();
    if (choice == OutsideChoice::Cancel) return false;
  }
  try {
    document_.save(replace);
  } catch (const std::exception& e) {
    QMessageBox::warning(
        window_, tr("Save Project"),
        tr("The project was not saved; the file on disk is unchanged. Your changes are still "
           "here: File > Save As… keeps them in another file.\n\n%1")
            .arg(e.what()));
    return false;
  }
  emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document_.path())));
  return true;
}

ProjectFiles::OutsideChoice ProjectFiles::askBeforeSaving(const QString& name, const QString& text,
                                                          const QString& detail,
                                                          const QString& destructive) {
  QMessageBox box(QMessageBox::Warning, tr("Save Project"), text, QMessageBox::NoButton, window_);
  box.setObjectName(name);
  box.setInformativeText(detail);
  QPushButton* saveAs = box.addButton(tr("Save As…"), QMessageBox::AcceptRole);
  QPushButton* replace = box.addButton(destructive, QMessageBox::DestructiveRole);
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(saveAs);
  box.exec();
  if (box.clickedButton() == saveAs) return OutsideChoice::SaveAs;
  if (box.clickedButton() == replace) return OutsideChoice::Replace;
  return OutsideChoice::Cancel;
}

ProjectFiles::OutsideChoice ProjectFiles::askAboutOutsideChanges() {
  // Edited elsewhere (a text editor, `mrnn project set`) since it was read here: the user
  // decides which text wins, and Save As keeps both.
  return askBeforeSaving(
      QStringLiteral("changedOnDiskBox"),
      tr("%1 was changed by another program since the workbench read it.")
          .arg(QDir::toNativeSeparators(document_.path())),
      tr("Saving here would replace those changes. Save As… keeps both: the file stays as the "
         "other program left it."),
      tr("Replace Their Changes"));
}

ProjectFiles::OutsideChoice ProjectFiles::askAboutLosingLayout() {
  return askBeforeSaving(
      QStringLiteral("layoutLostBox"),
      tr("Saving would write %1 anew: its comments and layout would be lost.")
          .arg(QDir::toNativeSeparators(document_.path())),
      tr("The workbench keeps a project file's own text and changes only the values you edit, "
         "but this file is written in a way it cannot place your last edit in (a key in YAML's "
         "explicit \"? key\" form, for instance). Save As… writes the project to a new file "
         "and leaves this one as it is."),
      tr("Write It Anew"));
}

bool ProjectFiles::saveAs() {
  QString start = document_.isUntitled() ? QString() : document_.folder();
  if (start.isEmpty()) {
    start = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                .filePath(QStringLiteral("mrnn-projects/project.yaml"));
  } else {
    start = QDir(start).filePath(QStringLiteral("project.yaml"));
  }
  const QString path = QFileDialog::getSaveFileName(
      window_, tr("Save Project As (each project in a folder of its own)"), start,
      tr("Project files (*.yaml)"));
  if (path.isEmpty()) return false;
  const QString before = document_.path();
  try {
    QDir().mkpath(QFileInfo(path).absolutePath());
    document_.saveAs(path);
  } catch (const std::exception& e) {
    QMessageBox::warning(window_, tr("Save Project"),
                         tr("The project was not saved.\n\n%1").arg(e.what()));
    return false;
  }
  if (!before.isEmpty() && before != document_.path()) keeper_->discard(before);  // saved here
  remember(document_.path());
  emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(document_.path())));
  return true;
}

bool ProjectFiles::maybeSave() {
  const QString draft = draftCheck_ ? draftCheck_() : QString();
  if (!draft.isEmpty()) {
    QMessageBox box(QMessageBox::Warning, tr("Unapplied Text"),
                    tr("Text typed in the window does not read as a project or an experiment "
                       "yet, so it is not saved."),
                    QMessageBox::Cancel, window_);
    box.setObjectName(QStringLiteral("unappliedTextBox"));
    box.setInformativeText(
        tr("%1\n\nCancel to go on editing it; Discard Text drops it, and the files stay as "
           "they were before that text.")
            .arg(draft));
    box.addButton(tr("Discard Text"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    if (box.exec() == QMessageBox::Cancel) return false;
    // Dropped, and so no longer kept: only the project's own edits, if any, are.
    if (dropDraft_) dropDraft_();
    keeper_->keepNow();
  }
  if (!document_.isModified()) return true;
  const auto answer = QMessageBox::warning(
      window_, tr("Unsaved Changes"),
      tr("\"%1\" has unsaved changes. Save them?").arg(document_.displayName()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save();
  keeper_->discard();  // the user let them go
  return true;
}

QString ProjectFiles::lastProject() {
  const QStringList recent = workbenchSettings().value(kRecentKey).toStringList();
  for (const QString& path : recent) {
    if (QFileInfo(path).isFile()) return path;
  }
  return QString();
}

QString ProjectFiles::projectAtLaunch(const QStringList& arguments, const QString& fallback,
                                      bool useSettings) {
  if (!arguments.isEmpty()) return arguments.first();
  const QString last = useSettings ? lastProject() : QString();
  return last.isEmpty() ? fallback : last;
}

void ProjectFiles::attachRecentMenu(QMenu* menu) {
  recentMenu_ = menu;
  rebuildRecentMenu();
}

void ProjectFiles::remember(const QString& path) {
  recent_.removeAll(path);
  recent_.prepend(path);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  saveSettings();
  rebuildRecentMenu();
}

void ProjectFiles::saveSettings() const {
  if (!useSettings_) return;
  QSettings settings = workbenchSettings();
  settings.setValue(kRecentKey, recent_);
  settings.setValue(kLastDirectoryKey, lastDirectory_);
}

void ProjectFiles::rebuildRecentMenu() {
  if (recentMenu_ == nullptr) return;
  recentMenu_->clear();
  if (recent_.isEmpty()) {
    recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    return;
  }
  for (int i = 0; i < recent_.size(); ++i) {
    const QString path = recent_[i];
    const QString text = QStringLiteral("&%1  %2").arg(i + 1).arg(QDir::toNativeSeparators(path));
    recentMenu_->addAction(text, this, [this, path] {
      if (!maybeSave()) return;
      if (!open(path)) warnNotOpened(true);
    });
  }
  recentMenu_->addSeparator();
  recentMenu_->addAction(tr("Clear List"), this, [this] {
    recent_.clear();
    saveSettings();
    rebuildRecentMenu();
  });
}

}  // namespace mrnn::app
