#pragma once

#include <QDialog>
#include <QString>
#include <QVector>

#include "widgets/training/line_diff.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;

namespace mrnn::widgets {

// Two runs' configs (the project YAML each run stored) compared line by line: removed
// lines red with "-", added lines green with "+", both with their line numbers. Non-modal,
// so several comparisons can stay open beside the runs table.
class ConfigDiffDialog : public QDialog {
  Q_OBJECT

 public:
  ConfigDiffDialog(const QString& leftTitle, const QString& leftText, const QString& rightTitle,
                   const QString& rightText, QWidget* parent = nullptr);

  const QVector<DiffLine>& lines() const { return lines_; }
  int removedCount() const { return removed_; }
  int addedCount() const { return added_; }
  // Hide unchanged lines farther than a few lines from a change.
  void setChangesOnly(bool on);
  QPlainTextEdit* view() const { return view_; }

 private:
  void render();

  QVector<DiffLine> lines_;
  int removed_ = 0;
  int added_ = 0;
  bool changesOnly_ = false;
  QLabel* summary_ = nullptr;
  QCheckBox* changesOnlyCheck_ = nullptr;
  QPlainTextEdit* view_ = nullptr;
};

}  // namespace mrnn::widgets
