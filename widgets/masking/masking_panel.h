#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

#include "widgets/masking/masking_series.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace mrnn::engine {
struct MaskingCurve;
}

namespace mrnn::widgets {

class AnalysisJobBar;
class CheckpointChooser;
class ExportBar;
class MaskingCurvePlot;
class ModelSlot;
class ProjectDocument;

// Feature masking (Shuang et al. §V-C, Fig. 5): how much the evaluation loss grows when a
// fraction P of a layer's output features is zeroed, for P = 0 .. P max, averaged over a few
// random masks per P; each layer alone and all layers at once, for one model or two side by
// side. Runs engine::featureMasking on an engine thread (progress over all curves, Cancel)
// and exports the figure and the numbers.
class MaskingPanel : public QWidget {
  Q_OBJECT

 public:
  // Entries of the layers combo: layer k (1-based) is entry FirstLayer + k - 1.
  enum LayerChoice { EachLayerAndAll = 0, AllLayersAtOnce = 1, FirstLayer = 2 };
  // Entries of the text combo.
  enum TextSource { ValidationSplit = 0, TestSplit = 1, TextFile = 2 };

  explicit MaskingPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~MaskingPanel() override;

  // Inputs, for scripts and tests (what the controls set).
  void setCheckpoint(const QString& path);
  // Empty: no comparison.
  void setComparisonCheckpoint(const QString& path);
  // A LayerChoice, or FirstLayer + k - 1 for layer k; the combo grows to hold layer k.
  void setLayerChoice(int choice);
  void setPMax(double pMax);
  void setPStep(double pStep);
  void setRuns(int runs);
  // 0: the whole text.
  void setMaxSymbols(int symbols);
  void setTextSource(int source);
  // Also selects TextFile.
  void setTextFile(const QString& path);

  // Shows curves in nats (engine::featureMasking's) for model A and, when `b` is not empty, B.
  void showCurves(const std::vector<engine::MaskingCurve>& a, const QString& labelA,
                  const std::vector<engine::MaskingCurve>& b = {}, const QString& labelB = {});

  AnalysisJobBar* jobBar() const { return jobBar_; }
  CheckpointChooser* checkpointChooser() const { return chooserA_; }
  CheckpointChooser* comparisonChooser() const { return chooserB_; }
  QComboBox* layerCombo() const { return layers_; }
  QDoubleSpinBox* pMaxSpin() const { return pMax_; }
  QDoubleSpinBox* pStepSpin() const { return pStep_; }
  QSpinBox* runsSpin() const { return runs_; }
  QSpinBox* maxSymbolsSpin() const { return maxSymbols_; }
  QComboBox* textCombo() const { return text_; }
  QString textFile() const { return textFile_; }
  QPushButton* runButton() const { return run_; }
  MaskingCurvePlot* curvePlot() const { return curves_; }
  ExportBar* exportBar() const { return export_; }
  // The curves shown: A's, then B's.
  const std::vector<MaskingSeries>& series() const;
  // What "Save numbers..." writes: engine::writeMaskingCsv for one model; with a comparison
  // model,layer,p,mean_nats,std_nats,mean_bits,runs.
  QByteArray csv() const;

 public slots:
  // Re-reads the project's runs into both checkpoint choosers (after training).
  void refreshCheckpoints();
  // Starts the analysis with the current inputs, as the Run button does.
  void runAnalysis();

 signals:
  void analysisFinished(bool ok);

 private:
  void buildForm();
  void updateLayerChoices();
  void updateEstimate();
  void chooseTextFile();
  int knownLayerCount(const QString& checkpoint) const;

  ProjectDocument& document_;
  CheckpointChooser* chooserA_ = nullptr;
  CheckpointChooser* chooserB_ = nullptr;
  QComboBox* layers_ = nullptr;
  QDoubleSpinBox* pMax_ = nullptr;
  QDoubleSpinBox* pStep_ = nullptr;
  QSpinBox* runs_ = nullptr;
  QSpinBox* maxSymbols_ = nullptr;
  QComboBox* text_ = nullptr;
  QLabel* textFileLabel_ = nullptr;
  QLabel* estimate_ = nullptr;
  QPushButton* run_ = nullptr;
  AnalysisJobBar* jobBar_ = nullptr;
  MaskingCurvePlot* curves_ = nullptr;
  ExportBar* export_ = nullptr;
  QString textFile_;
  int lastTextSource_ = ValidationSplit;
  QHash<QString, int> loadedLayers_;  // layer counts of models loaded so far, by checkpoint
  // One slot per model role; shared with the running job so it outlives a closed panel.
  // While a job runs: draws the curves it has finished (none drawn twice).
  std::function<void()> drawReady_;
  size_t drawnCurves_ = 0;
  std::shared_ptr<ModelSlot> slotA_;
  std::shared_ptr<ModelSlot> slotB_;
  QString labelA_;
  QString labelB_;
};

}  // namespace mrnn::widgets
