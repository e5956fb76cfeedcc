#pragma once

#include <QObject>
#include <QString>

#include <string>

#include "engine/config/project_file.h"

class QUndoStack;

namespace mrnn::widgets {

// The open project: the parsed project.yaml, where it lives, and its edit history. Every
// panel edits through edit(), so every change is one undoable step and every view hears
// projectChanged(). An untitled document (from a template, not yet saved) has no path; its
// data paths are absolute so that it can be saved anywhere.
class ProjectDocument : public QObject {
  Q_OBJECT

 public:
  explicit ProjectDocument(QObject* parent = nullptr);
  ~ProjectDocument() override;

  const engine::Project& project() const { return project_; }
  // The project as the file's text: what Save writes. Edits change only the text of the keys
  // they change, so the owner's comments, order and layout stay (engine/config/project_text.h).
  const std::string& text() const { return text_; }
  // The project.yaml path; empty while untitled.
  QString path() const { return path_; }
  // The folder that holds the run database and checkpoints; empty while untitled.
  QString folder() const;
  bool isUntitled() const { return path_.isEmpty(); }
  bool isModified() const;
  QUndoStack* undoStack() const { return undo_; }
  // The project's display name: its `name:`, else the file's folder, else "Untitled".
  QString displayName() const;

  // The vocabulary size parameter counts use: model.input.vocab_size when set, 256 at byte
  // level, else what the data panel found in the corpus (setCorpusVocabulary); 0 when
  // unknown.
  int64_t vocabularySize() const;
  void setCorpusVocabulary(int64_t size);

  // Reads `path`. Throws engine::ConfigError (naming file, line and key) and leaves the
  // document unchanged on failure. Clears the history.
  void load(const QString& path);
  // An untitled copy of a template: relative data paths are made absolute against the
  // template's folder. Throws like load().
  void loadTemplate(const QString& templatePath);
  // An untitled project with `text`, unsaved: a new project's edits a closed window kept
  // (UnsavedEditsKeeper), its data paths absolute as an untitled project's are. `file` names
  // where the text came from in a ConfigError, thrown like load()'s.
  void loadUntitledText(const std::string& text, const std::string& file);
  // Atomic saves (temporary file, then rename). saveAs() into another folder rewrites
  // relative data paths so they still name the same files. Throw std::runtime_error naming
  // the path. save() also throws, writing nothing, when the file's text is no longer what this
  // document last read or wrote (engine::changedSince), unless `replaceOutsideChanges`.
  void save(bool replaceOutsideChanges = false);
  // Whether another program changed the file since this document last read or wrote it.
  bool changedOnDisk() const;
  // Whether saving would write the project anew, the file's comments and layout lost: an edit
  // could not be placed in the file's own text (engine::editProjectText), so the text to save
  // is the project as the workbench writes a new file, and the file on disk was not that.
  bool saveLosesLayout() const;
  // The file's text as this document last read or wrote it.
  const std::string& diskText() const { return diskText_; }
  // Adopts the file's text as it is on disk now (another program changed it) as one undoable
  // step, "Reload from disk", and counts it as saved: Undo brings back the text this document
  // had, unsaved, so nothing typed here is lost. Throws engine::ConfigError (file, line, key)
  // when the text does not read as a project, leaving the document as it was.
  void reloadFromDisk();
  // The same, with the file's text as the caller just read it.
  void adoptDiskText(std::string text);
  void saveAs(const QString& path);

  // Replaces the project with `after` as one undoable step labelled `label` ("Set hidden
  // size"). Consecutive edits with the same label and `mergeKey` merge into one step (typing
  // in a spin box); mergeKey 0 never merges. Nothing happens when `after` equals the current
  // project.
  void edit(const engine::Project& after, const QString& label, int mergeKey = 0);
  // An edit of the text itself (the YAML view): `text` is kept as typed, `parsed` is what it
  // says. Merges like edit().
  void editText(const std::string& text, const engine::Project& parsed, const QString& label,
                int mergeKey = 0);
  void editModel(const engine::ModelConfig& model, const QString& label, int mergeKey = 0);

 signals:
  // After any change of content: an edit, undo, redo, load.
  void projectChanged();
  void pathChanged(const QString& path);
  void modifiedChanged(bool modified);
  // The corpus vocabulary became known or changed (vocabularySize() may differ now).
  void vocabularyChanged(qint64 size);

 private:
  friend class ProjectEditCommand;
  void apply(const engine::Project& project, const std::string& text);

  engine::Project project_;
  std::string text_;
  std::string diskText_;  // the file's text as last read or written here
  QString path_;
  QUndoStack* undo_;
  int64_t corpusVocabulary_ = 0;
};

}  // namespace mrnn::widgets
