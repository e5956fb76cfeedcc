#pragma once

#include <QStringList>
#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace mrnn::engine {
struct RecoveryTable;
struct TextScore;
}  // namespace mrnn::engine

namespace mrnn::widgets {

class AnalysisJobBar;
class CheckpointChooser;
class ExportBar;
class ModelSlot;
class ProjectDocument;
class RecoveryPlot;
class RecoveryTable;
class SurprisalDifferenceList;
class SurprisalTextView;

// The Surprisal view: a text coloured by model A's per-symbol surprisal, with the top
// alternatives on hover (GLTR), and Krause et al.'s Fig. 3, the mean loss on the most
// surprising symbols and at +1..+K after them, for up to three models on the same text.
// With a second model, the text also colours by A − B and lists the largest differences.
// The text is typed below, a held-out split of the project's corpus, or a file. Both
// analyses run as one engine job (progress, Cancel); the figures and numbers export.
class SurprisalPanel : public QWidget {
  Q_OBJECT

 public:
  enum TextSource { TextBelow = 0, ValidationSplit = 1, TestSplit = 2, TextFile = 3 };
  // The coloured text shows at most this many symbols (the recovery uses the whole text).
  static constexpr int kMaxColouredSymbols = 5000;

  explicit SurprisalPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~SurprisalPanel() override;

  // Inputs, for scripts and tests (the same as the controls).
  void setText(const QString& text);
  QString text() const;
  void setTextSource(int source);  // a TextSource
  int textSource() const;
  void setTextFile(const QString& path);
  void setCheckpoint(const QString& path);
  // slot 1 = model B, slot 2 = model C; an empty path selects none.
  void setComparisonCheckpoint(int slot, const QString& path);
  void setMaxSymbols(int symbols);
  void setTopFraction(double fraction);  // in (0, 1]
  void setOffsets(int offsets);

  // Show results (runAnalysis() ends with these; tests feed hand-built ones).
  void showScore(const engine::TextScore& score);
  // Model B's score of the text showScore showed: the A − B colours and the list.
  void showComparison(const engine::TextScore& scoreB, const QString& nameA, const QString& nameB);
  void showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                    const QVector<QColor>& colours = {});

  AnalysisJobBar* jobBar() const { return jobBar_; }
  SurprisalTextView* textView() const { return textView_; }
  SurprisalDifferenceList* differenceList() const { return differenceList_; }
  QWidget* differenceBox() const { return differenceBox_; }
  RecoveryPlot* recoveryPlot() const { return plot_; }
  RecoveryTable* recoveryTable() const { return table_; }
  ExportBar* textExport() const { return textExport_; }
  ExportBar* recoveryExport() const { return recoveryExport_; }
  CheckpointChooser* chooser(int slot) const;  // 0 = model A, 1 and 2 the comparisons
  QPushButton* runButton() const { return run_; }
  // The results last shown; null before the first.
  const engine::TextScore* score() const;
  const engine::RecoveryTable* recovery() const { return recovery_.get(); }
  QStringList recoveryLabels() const { return recoveryLabels_; }

 public slots:
  // Re-reads the project's runs (after training).
  void refreshCheckpoints();
  // Starts the analysis with the current inputs, as the Run button does.
  void runAnalysis();

 signals:
  void analysisFinished(bool ok);

 private:
  void updateSourceControls();
  void browseTextFile();
  QByteArray recoveryCsv() const;
  QByteArray scoreCsv() const;

  ProjectDocument& document_;
  CheckpointChooser* choosers_[3] = {nullptr, nullptr, nullptr};
  std::unique_ptr<ModelSlot> models_[3];  // one per chooser: a model serves one job at a time
  QComboBox* source_ = nullptr;
  QPlainTextEdit* editor_ = nullptr;
  QLineEdit* filePath_ = nullptr;
  QToolButton* browse_ = nullptr;
  QSpinBox* maxSymbols_ = nullptr;
  QDoubleSpinBox* topPercent_ = nullptr;
  QSpinBox* offsets_ = nullptr;
  QPushButton* run_ = nullptr;
  AnalysisJobBar* jobBar_ = nullptr;
  SurprisalTextView* textView_ = nullptr;
  SurprisalDifferenceList* differenceList_ = nullptr;
  QWidget* differenceBox_ = nullptr;
  QSplitter* textSplitter_ = nullptr;
  RecoveryPlot* plot_ = nullptr;
  RecoveryTable* table_ = nullptr;
  ExportBar* textExport_ = nullptr;
  ExportBar* recoveryExport_ = nullptr;
  std::unique_ptr<engine::RecoveryTable> recovery_;
  QStringList recoveryLabels_;
  bool wordLevel_ = false;
  QString scoreNote_;
};

}  // namespace mrnn::widgets
