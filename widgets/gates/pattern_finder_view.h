#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "widgets/gates/unit_pattern.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace mrnn::widgets {

// The controls of the unit search: which pattern (inside quotes, after a space, after a line
// break, the selected text, or every occurrence of it), Find, and the units found, best
// first (model, unit, r, mean inside, mean outside). Choosing a unit in the list emits
// unitChosen(); the panel computes the ranking (unit_pattern.h).
class PatternFinderView : public QWidget {
  Q_OBJECT

 public:
  enum class Pattern { InsideQuotes, AfterSpace, AfterNewline, Selection, SelectionEverywhere };

  // One line of the result list.
  struct Result {
    int model = 0;  // 0 = A, 1 = B
    QString modelLabel;
    UnitCorrelation unit;
  };

  explicit PatternFinderView(QWidget* parent = nullptr);

  Pattern pattern() const;
  void setPattern(Pattern pattern);
  static QString patternName(Pattern pattern);

  void setResults(const std::vector<Result>& results, const QString& note);
  // No results; `note` says why (or what to do).
  void clearResults(const QString& note);
  const std::vector<Result>& results() const { return results_; }
  // Shown under the list: what was searched, or why nothing was.
  QString note() const;

  QTreeWidget* resultList() const { return list_; }
  QPushButton* findButton() const { return find_; }
  QComboBox* patternCombo() const { return combo_; }

 signals:
  void findRequested();
  void unitChosen(int model, int unit);

 private:
  void chosen(QTreeWidgetItem* item);

  QComboBox* combo_ = nullptr;
  QPushButton* find_ = nullptr;
  QTreeWidget* list_ = nullptr;
  QLabel* note_ = nullptr;
  std::vector<Result> results_;
};

}  // namespace mrnn::widgets
