#pragma once

#include <QDialog>
#include <QString>

#include "engine/interop/model_file_kind.h"

class QButtonGroup;
class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QToolButton;
class QWidget;

namespace mrnn::widgets {

class BackgroundJob;

// Runs > Import PyTorch Model: a model trained elsewhere becomes a finished run of the project
// (engine/interop: readModelFile, then importAsRun), which the sampler and every analysis
// open. The model file; only when it does not carry its vocabulary (it is not a file `mrnn
// export` wrote), the vocabulary's source (a symbol file or the training corpus) and the
// level; an optional run name. The engine works on a worker thread; a problem stays in the
// dialog in words, the engine's whole message behind Details, and nothing is written.
class ImportModelDialog : public QDialog {
  Q_OBJECT

 public:
  enum class VocabularySource { SymbolFile, Corpus };

  // `projectFile`: the saved project.yaml the run joins.
  explicit ImportModelDialog(const QString& projectFile, QWidget* parent = nullptr);
  ~ImportModelDialog() override;

  void setModelFile(const QString& path);
  void setVocabulary(VocabularySource source, const QString& path);
  // "word", "char" or "byte".
  void setLevel(const QString& level);
  void setRunName(const QString& name);

  engine::ModelFileKind fileKind() const { return kind_; }
  // Whether the vocabulary section shows: the file does not carry its vocabulary, or its
  // header could not be read to tell.
  bool asksForVocabulary() const;

  // What Import does: checks the form, then reads and records the model on a worker thread;
  // false when the form is refused (the reason shown) or an import is under way.
  bool startImport();
  bool isImporting() const { return job_ != nullptr; }

  // The problem shown, in words; the engine's whole message behind Details (empty when the
  // dialog refused the form itself).
  QString errorText() const;
  QString errorDetails() const;

 signals:
  // The run is recorded; the dialog accepts (closes) after this.
  void imported(qint64 runId, const QString& runName, const QString& file,
                const QString& description);

 protected:
  // Escape and the window's close do nothing while the engine writes the run.
  void reject() override;

 private:
  QWidget* buildFileRow();
  QGroupBox* buildVocabularyBox();
  QWidget* buildErrorArea();
  void chooseModelFile();
  void chooseVocabularyFile();
  // Reads the file's kind again and shows or hides what depends on it.
  void updateForm();
  // Refuses what the engine would refuse for want of a file; empty when the form is complete.
  QString formProblem() const;
  void showError(const QString& words, const QString& details = QString());
  void clearError();
  void setBusy(bool busy);
  // Grows the dialog to what it now shows; never shrinks it below the user's size.
  void growToFit();

  QString projectFile_;
  engine::ModelFileKind kind_ = engine::ModelFileKind::Missing;
  QLineEdit* file_ = nullptr;
  QLabel* fileNote_ = nullptr;
  QGroupBox* vocabularyBox_ = nullptr;
  QButtonGroup* source_ = nullptr;
  QLineEdit* vocabulary_ = nullptr;
  QToolButton* vocabularyBrowse_ = nullptr;
  QComboBox* level_ = nullptr;
  QLineEdit* name_ = nullptr;
  QWidget* errorArea_ = nullptr;
  QLabel* error_ = nullptr;
  QToolButton* detailsButton_ = nullptr;
  QPlainTextEdit* details_ = nullptr;
  QProgressBar* busy_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  BackgroundJob* job_ = nullptr;
};

}  // namespace mrnn::widgets
