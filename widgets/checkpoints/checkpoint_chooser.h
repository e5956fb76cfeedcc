#pragma once

#include <QString>
#include <QWidget>

class QComboBox;
class QToolButton;

namespace mrnn::widgets {

class ProjectDocument;

// Which trained model a view works on: the best or latest checkpoint of any of the project's
// runs (newest run first), or any checkpoint file chosen with "Other file...". Until the user
// picks an entry, the chooser follows the best-validated checkpoint as runs come and go;
// after that it keeps the user's pick while it exists. Optional choosers (the second model of
// a comparison) start on, and follow, a "none" entry.
class CheckpointChooser : public QWidget {
  Q_OBJECT

 public:
  explicit CheckpointChooser(ProjectDocument& document, QWidget* parent = nullptr);

  // A first entry meaning "no model", shown as `noneText`, and selected now.
  void setOptional(const QString& noneText);
  // The selected checkpoint file; empty when none is (or can be) selected.
  QString checkpoint() const;
  // A short name for legends and column titles: "Run 3 · mlstm · best", or the file name.
  QString label() const;
  // The run of the selected checkpoint; 0 for a file that is none of the project's runs.
  qint64 runId() const;
  // Selects `path`, adding it as a file entry when it is not one of the runs'; the chooser
  // keeps it from now on, as it keeps a pick from the list.
  void setCheckpoint(const QString& path);
  // True while the chooser follows the best checkpoint (nothing was picked by hand).
  bool followsBest() const { return !picked_; }
  // Entries listed, the "none" entry included.
  int count() const;
  QComboBox* comboBox() const { return combo_; }

 public slots:
  // Re-reads the project's runs (after a run ends or saves a checkpoint); keeps the selection
  // when it still exists.
  void refresh();

 signals:
  void checkpointChanged(const QString& path);
  // The run database could not be read: the reason in words.
  void problem(const QString& message);

 private:
  void browse();

  ProjectDocument& document_;
  QComboBox* combo_ = nullptr;
  QToolButton* browse_ = nullptr;
  QString noneText_;
  QString lastEmitted_;
  bool picked_ = false;     // the user chose an entry: keep it rather than follow the best
  QStringList extraFiles_;  // files chosen with "Other file...", kept across refreshes
};

}  // namespace mrnn::widgets
