#pragma once

#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>

#include "widgets/data/corpus_scan.h"

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QToolButton;

namespace mrnn::widgets {

class CorpusScanner;
class DatasetsDialog;
class ProjectDocument;
class SymbolHistogram;

// The project's data: corpus files (train, valid, test) with Browse buttons, their format,
// the split fractions used when there is one file, max_symbols, min_count, and the model's
// input level (byte, char, word). Every change is one undoable edit of the document. The
// corpus is read in the background whenever these settings change (a stale scan is dropped),
// and the panel shows per split the symbols, words and file size, the vocabulary size, a
// histogram of the most frequent symbols and the start of the training text. Read errors are
// shown in words, naming the file.
class DataPanel : public QWidget {
  Q_OBJECT

 public:
  enum Split { Train, Valid, Test, SplitCount };
  enum StatisticsColumn { SplitColumn, SymbolsColumn, WordsColumn, FileSizeColumn, ColumnCount };

  explicit DataPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~DataPanel() override;

  // Sets a split's file as its Browse button does: a path inside the project folder is stored
  // relative to it, any other absolute. An empty path clears the split.
  void setSplitFile(Split split, const QString& path);
  // The training split from several files, read in this order as one text (the Browse
  // button's multiple choice; the field shows them as "a; b; c").
  void setSplitFiles(Split split, const QStringList& paths);
  // Reads the corpus again (files may have changed on disk).
  void rescan();
  // Opens the standard data sets dialog.
  void openDatasets();

  bool isScanning() const;
  // The last finished scan (ok false and error set when it failed).
  const CorpusScanResult& lastScan() const { return scan_; }
  // The error or hint shown in place of the statistics; empty when a scan succeeded.
  QString message() const;
  QStringList histogramLabels() const;
  QString previewText() const;

 signals:
  // A scan finished (successfully or not) and the panel shows its result.
  void scanFinished();

 private:
  void buildUi();
  QWidget* buildSettings();
  QWidget* buildStatistics();
  void refreshFromDocument();
  void scheduleScan();
  void startScan();
  void showScan(const CorpusScanResult& result);
  void showMessage(const QString& text, bool isError);
  void clearResults();
  void browse(Split split);
  void editData(const QString& label, int mergeKey,
                const std::function<void(engine::DataConfig&)>& change);
  QString scanKey() const;
  static QString editLabel(Split split);

  ProjectDocument& document_;
  CorpusScanner* scanner_;
  QTimer* scanDelay_;
  QString lastScanKey_;
  CorpusScanResult scan_;

  QLineEdit* fileEdits_[SplitCount] = {};
  QToolButton* browseButtons_[SplitCount] = {};
  QComboBox* format_ = nullptr;
  QComboBox* level_ = nullptr;
  QDoubleSpinBox* validFraction_ = nullptr;
  QDoubleSpinBox* testFraction_ = nullptr;
  QSpinBox* maxSymbols_ = nullptr;
  QComboBox* vocabularySource_ = nullptr;
  QSpinBox* minCount_ = nullptr;
  QLabel* syntheticNote_ = nullptr;
  QPushButton* datasetsButton_ = nullptr;
  QPushButton* rescanButton_ = nullptr;

  QLabel* message_ = nullptr;
  QTableWidget* statistics_ = nullptr;
  QLabel* vocabulary_ = nullptr;
  QLabel* scanStatus_ = nullptr;
  SymbolHistogram* histogram_ = nullptr;
  QGroupBox* histogramBox_ = nullptr;
  QPlainTextEdit* preview_ = nullptr;
  QPointer<DatasetsDialog> datasetsDialog_;
};

}  // namespace mrnn::widgets
