#pragma once

#include <QString>
#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/probing/gate_report.h"
#include "widgets/gates/activation_colour_scale.h"
#include "widgets/gates/pattern_finder_view.h"
#include "widgets/gates/unit_pattern.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTreeWidget;

namespace mrnn::widgets {

class ActivationTextView;
class AnalysisJobBar;
class CheckpointChooser;
class ExportBar;
class GateHeatmap;
class GateHistogram;
class GateStatisticsTable;
class ModelSlot;
class ProjectDocument;

// The gate inspector: records every probe of every layer of a checkpoint (and optionally a
// second one to compare with) over a text (engine::analyzeGates, as a job with progress and
// cancel), then shows one probe of one layer at a time: a time x unit heatmap per model with
// a hover read-out, the text coloured by a chosen unit (Karpathy et al.), the distribution of
// the probe's values and the mean/variance/saturation table of every probe (Melis et al.
// §4.4), and a search for the units that follow a pattern in the text (inside quotes, after a
// space, a selection; a range brushed on a map selects its text and ranks the units that
// follow it, LSTMVis' select-and-match). Heatmap, statistics and coloured text each export figure
// and CSV.
class GateInspectorPanel : public QWidget {
  Q_OBJECT

 public:
  explicit GateInspectorPanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~GateInspectorPanel() override;

  AnalysisJobBar* jobBar() const { return jobBar_; }

  // Inputs of the next runAnalysis().
  void setText(const QString& text);
  QString text() const;
  void setCheckpoint(const QString& path);  // model A
  // Model B; an empty path means no comparison.
  void setComparisonCheckpoint(const QString& path);

  // Shows results directly (what a finished run does). `b` is the comparison model's report
  // on the same text. Keeps the probe and unit shown when the new reports have them.
  void showReports(const engine::GateReport& a,
                   const std::optional<engine::GateReport>& b = std::nullopt);
  bool hasReports() const { return reports_[0].has_value(); }
  // Model 0 (A) or 1 (B); null when absent.
  const engine::GateReport* report(int model) const;

  // The probe the views show: `layer` counts from 1, `probe` as in ProbeTrace::probe ("f").
  void selectProbe(int layer, const QString& probe);
  int selectedLayer() const;
  QString selectedProbe() const;
  // The unit that colours the text and is outlined in the shown model's heatmap.
  void selectUnit(int unit);
  int selectedUnit() const;
  // Which model colours the text: 0 (A) or 1 (B, when comparing).
  void setShownModel(int model);
  int shownModel() const;

  // The unit search, as its controls do it.
  void setPattern(PatternFinderView::Pattern pattern);
  void findUnits();
  // The last non-empty selection (in the coloured text or, while it still holds the analysed
  // text, the text box) as steps of model A; {-1, -1} when there is none.
  StepRange patternSelection() const;

  GateHeatmap* heatmap() const { return heatmaps_[0]; }
  GateHeatmap* comparisonHeatmap() const { return heatmaps_[1]; }
  ActivationTextView* textView() const { return textView_; }
  QLabel* textLegend() const { return textLegend_; }
  GateStatisticsTable* statisticsTable() const { return statisticsTable_; }
  GateHistogram* histogram() const { return histogram_; }
  PatternFinderView* patternFinder() const { return patternFinder_; }
  QTreeWidget* patternResults() const;
  ExportBar* heatmapExport() const { return heatmapExport_; }
  ExportBar* statisticsExport() const { return statisticsExport_; }
  ExportBar* textExport() const { return textExport_; }
  CheckpointChooser* modelChooser() const { return chooserA_; }
  CheckpointChooser* comparisonChooser() const { return chooserB_; }
  QPlainTextEdit* textEdit() const { return textEdit_; }
  // What the models read: the text box, or the start of a held-out split.
  QComboBox* textSource() const { return source_; }
  QPushButton* runButton() const { return runButton_; }
  QComboBox* layerCombo() const { return layerCombo_; }
  QComboBox* probeCombo() const { return probeCombo_; }
  QSpinBox* unitSpin() const { return unitSpin_; }
  QComboBox* textModelCombo() const { return textModelCombo_; }
  QTabWidget* tabs() const { return tabs_; }

 public slots:
  // Re-reads the project's runs (after training).
  void refreshCheckpoints();
  // Records the probes with the current inputs, as the Run button does.
  void runAnalysis();

 signals:
  void analysisFinished(bool ok);

 private:
  void buildLayout();  // gate_inspector_layout.cpp
  void createControls();
  void arrangeControls();
  void connectControls();
  void showReportsLabelled(const engine::GateReport& a, const std::optional<engine::GateReport>& b,
                           const QString& labelA, const QString& labelB, const std::string& text);
  const engine::ProbeTrace* trace(int model, int layer, const QString& probe) const;
  const engine::ProbeTrace* traceNamed(const QString& name, int* layer, QString* probe) const;
  QString modelLabel(int model) const;
  void fillLayers();
  void fillProbes();
  void updateProbeViews();
  void updateUnitViews();
  void showTextOf(int model);
  void textBoxSelectionChanged();
  void viewSelectionChanged(qint64 first, qint64 end);
  void useSelection(const StepRange& bytes);
  // A Shift+drag over model `model`'s map: select the steps' text and rank the units.
  void stepsBrushed(int model, qint64 first, qint64 end);
  // Marks the selection's steps on each model's map.
  void showBrushes();
  // The 0/1 pattern over model `model`'s steps; empty with `why` set when there is none.
  std::vector<double> patternFor(int model, QString* why) const;
  void saveHeatmapFigure(const QString& path) const;
  QByteArray unitCsv() const;

  ProjectDocument& document_;
  std::array<std::shared_ptr<ModelSlot>, 2> slots_;
  std::array<std::optional<engine::GateReport>, 2> reports_;
  std::array<QString, 2> labels_;
  std::string analysedText_;
  std::array<std::vector<StepRange>, 2> located_;  // each step's bytes in analysedText_
  StepRange selectionBytes_{-1, -1};
  ActivationColourScale scale_;
  int textModel_ = 0;  // whose symbols the text view holds

  CheckpointChooser* chooserA_ = nullptr;
  CheckpointChooser* chooserB_ = nullptr;
  QPlainTextEdit* textEdit_ = nullptr;
  QComboBox* source_ = nullptr;
  std::array<qint64, 2> runIds_{0, 0};  // the runs recorded, for their colours
  QPushButton* runButton_ = nullptr;
  AnalysisJobBar* jobBar_ = nullptr;
  QComboBox* layerCombo_ = nullptr;
  QComboBox* probeCombo_ = nullptr;
  QSpinBox* unitSpin_ = nullptr;
  QComboBox* textModelCombo_ = nullptr;
  QLabel* textModelLabel_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  std::array<GateHeatmap*, 2> heatmaps_{};
  ActivationTextView* textView_ = nullptr;
  QLabel* textLegend_ = nullptr;
  PatternFinderView* patternFinder_ = nullptr;
  GateStatisticsTable* statisticsTable_ = nullptr;
  QLabel* statisticsCaption_ = nullptr;
  GateHistogram* histogram_ = nullptr;
  ExportBar* heatmapExport_ = nullptr;
  ExportBar* statisticsExport_ = nullptr;
  ExportBar* textExport_ = nullptr;
};

}  // namespace mrnn::widgets
