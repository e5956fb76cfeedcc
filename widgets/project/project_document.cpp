#include "widgets/project/project_document.h"
#include "widgets/native_path.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

#include "engine/config/config_error.h"
#include "engine/config/project_text.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"
#include "widgets/project/open_project_files.h"
#include "widgets/project/project_edit_command.h"

namespace mrnn::widgets {
namespace {

// `path` (relative to `from`, or absolute) as seen from `to`: relative when `to` is given,
// absolute otherwise.
std::string rebase(const std::string& path, const QString& from, const QString& to) {
  if (path.empty()) return path;
  const QString name = fromNativePath(path);
  const QString absolute =
      QFileInfo(name).isAbsolute() ? name : QDir::cleanPath(QDir(from).absoluteFilePath(name));
  if (to.isEmpty()) return toNativePath(absolute);
  // Files inside the new folder stay relative (the project folder can move); others absolute.
  const QString relative = QDir(to).relativeFilePath(absolute);
  return toNativePath(relative.startsWith(QStringLiteral("..")) ? absolute : relative);
}

void rebaseData(engine::Project& project, const QString& from, const QString& to) {
  project.data.train = rebase(project.data.train, from, to);
  for (std::string& file : project.data.moreTrain) file = rebase(file, from, to);
  project.data.valid = rebase(project.data.valid, from, to);
  project.data.test = rebase(project.data.test, from, to);
}

// A project file's text; a file that cannot be read is a ConfigError naming it, as a project
// that does not parse is.
std::string readProjectText(const std::string& file) {
  try {
    return engine::readWholeFile(file);
  } catch (const engine::FileReadError& error) {
    throw engine::ConfigError(file, 0, 0, "", error.reason());
  }
}

}  // namespace

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
  project_.name = "Untitled";
  text_ = engine::projectToYaml(project_);
  connect(undo_, &QUndoStack::cleanChanged, this,
          [this](bool clean) { emit modifiedChanged(!clean); });
  OpenProjectFiles::add(this);
}

ProjectDocument::~ProjectDocument() {
  OpenProjectFiles::remove(this);
}

QString ProjectDocument::folder() const {
  return path_.isEmpty() ? QString() : QFileInfo(path_).absolutePath();
}

bool ProjectDocument::isModified() const {
  return !undo_->isClean();
}

QString ProjectDocument::displayName() const {
  if (!project_.name.empty()) return QString::fromStdString(project_.name);
  if (!path_.isEmpty()) return QFileInfo(folder()).fileName();
  return tr("Untitled");
}

int64_t ProjectDocument::vocabularySize() const {
  if (project_.model.input.vocabSize > 0) return project_.model.input.vocabSize;
  if (project_.model.input.level == engine::InputLevel::Byte) return 256;
  return corpusVocabulary_;
}

void ProjectDocument::setCorpusVocabulary(int64_t size) {
  if (size == corpusVocabulary_) return;
  corpusVocabulary_ = size;
  emit vocabularyChanged(static_cast<qint64>(vocabularySize()));
}

void ProjectDocument::load(const QString& path) {
  std::string text = readProjectText(toNativePath(path));
  engine::Project loaded = engine::parseProject(text, toNativePath(path));
  loaded.folder = toNativePath(QFileInfo(path).absolutePath());
  path_ = QFileInfo(path).absoluteFilePath();
  project_ = std::move(loaded);
  diskText_ = text;
  text_ = std::move(text);
  corpusVocabulary_ = 0;
  undo_->clear();
  emit pathChanged(path_);
  emit projectChanged();
  emit modifiedChanged(false);
}

void ProjectDocument::loadTemplate(const QString& templatePath) {
  const std::string file = toNativePath(templatePath);
  const std::string text = readProjectText(file);
  engine::Project loaded = engine::parseProject(text, file);
  rebaseData(loaded, QFileInfo(templatePath).absolutePath(), QString());
  loaded.folder.clear();
  path_.clear();
  diskText_.clear();
  // The template's comments come along; only its data paths change.
  text_ = engine::editProjectText(text, loaded).text;
  project_ = std::move(loaded);
  corpusVocabulary_ = 0;
  undo_->clear();
  // A template is unsaved work: mark it modified so closing asks.
  undo_->resetClean();
  emit pathChanged(path_);
  emit projectChanged();
  emit modifiedChanged(true);
}

void ProjectDocument::loadUntitledText(const std::string& text, const std::string& file) {
  engine::Project loaded = engine::parseProject(text, file);
  loaded.folder.clear();
  path_.clear();
  diskText_.clear();
  text_ = text;
  project_ = std::move(loaded);
  corpusVocabulary_ = 0;
  undo_->clear();
  undo_->resetClean();  // unsaved work, as a template is
  emit pathChanged(path_);
  emit projectChanged();
  emit modifiedChanged(true);
}

bool ProjectDocument::changedOnDisk() const {
  return !path_.isEmpty() && engine::changedSince(toNativePath(path_), diskText_);
}

bool ProjectDocument::saveLosesLayout() const {
  if (path_.isEmpty() || text_ == diskText_ || text_ != engine::projectToYaml(project_)) {
    return false;
  }
  try {
    return diskText_ != engine::projectToYaml(engine::parseProject(diskText_, "", false));
  } catch (const std::exception&) {
    return true;  // not a project as it stands on disk: whatever it holds would go
  }
}

void ProjectDocument::reloadFromDisk() {
  if (path_.isEmpty()) return;
  adoptDiskText(readProjectText(toNativePath(path_)));
}

void ProjectDocument::adoptDiskText(std::string text) {
  if (path_.isEmpty()) return;
  engine::Project parsed = engine::parseProject(text, toNativePath(path_));
  parsed.folder = toNativePath(folder());
  if (text != text_) {
    undo_->push(new ProjectEditCommand(*this, {project_, text_}, {std::move(parsed), text},
                                       tr("Reload from disk"), 0));
  }
  diskText_ = std::move(text);
  undo_->setClean();
}

void ProjectDocument::save(bool replaceOutsideChanges) {
  if (path_.isEmpty()) throw std::runtime_error("the project has no file yet: use Save As");
  if (!replaceOutsideChanges && changedOnDisk()) {
    throw std::runtime_error("'" + toNativePath(path_) +
                             "' was changed by another program since the workbench read it; "
                             "saving would replace those changes");
  }
  engine::rewriteDocument(toNativePath(path_), text_);
  diskText_ = text_;
  undo_->setClean();
}

void ProjectDocument::saveAs(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  const QString newFolder = QFileInfo(absolute).absolutePath();
  engine::Project copy = project_;
  const QString oldFolder = folder();
  if (oldFolder != newFolder)
    rebaseData(copy, oldFolder.isEmpty() ? newFolder : oldFolder, newFolder);
  copy.folder = toNativePath(newFolder);
  // Another project's file may be replaced (the file dialog asked); a project's corpora, run
  // database and checkpoints never are.
  std::vector<std::string> kept;
  for (const std::string& file : OpenProjectFiles::paths()) {
    const QString suffix = QFileInfo(QString::fromStdString(file)).suffix().toLower();
    if (suffix != QLatin1String("yaml") && suffix != QLatin1String("yml")) kept.push_back(file);
  }
  engine::refuseGuarded(toNativePath(absolute), kept);
  std::string text = engine::editProjectText(text_, copy).text;
  engine::rewriteDocument(toNativePath(absolute), text);
  project_ = std::move(copy);
  diskText_ = text;
  text_ = std::move(text);
  path_ = absolute;
  undo_->setClean();
  emit pathChanged(path_);
  emit projectChanged();
}

void ProjectDocument::edit(const engine::Project& after, const QString& label, int mergeKey) {
  if (engine::projectToYaml(after) == engine::projectToYaml(project_)) return;
  undo_->push(new ProjectEditCommand(*this, {project_, text_},
                                     {after, engine::editProjectText(text_, after).text}, label,
                                     mergeKey));
}

void ProjectDocument::editText(const std::string& text, const engine::Project& parsed,
                               const QString& label, int mergeKey) {
  if (text == text_) return;
  undo_->push(new ProjectEditCommand(*this, {project_, text_}, {parsed, text}, label, mergeKey));
}

void ProjectDocument::editModel(const engine::ModelConfig& model, const QString& label,
                                int mergeKey) {
  engine::Project after = project_;
  after.model = model;
  edit(after, label, mergeKey);
}

void ProjectDocument::apply(const engine::Project& project, const std::string& text) {
  project_ = project;
  text_ = text;
  emit projectChanged();
}

}  // namespace mrnn::widgets
