#pragma once

#include <QByteArray>
#include <QColor>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "engine/probing/probing_output.h"
#include "engine/probing/tree_result.h"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QSplitter;

namespace mrnn::widgets {

class AnalysisJobBar;
class CheckpointChooser;
class ExportBar;
class ModelSlot;
class ProjectDocument;
class SpreadPlot;
class TreeCanvas;

// The hidden-state tree (Krause et al. Fig. 1, Sutskever et al. §3.1): from a context, the
// tree of possible continuations to a chosen depth (every symbol up to a cap at depth 1, the
// top-k children or a probability mass deeper), drawn node by node with edges as wide as
// their probability, and per depth how far apart the siblings' hidden states lie. A second
// model grows its tree from the same context beside the first, so the fan-out of two
// architectures can be compared. The expansion runs as an engine job (progress, cancel).
class HiddenStateTreePanel : public QWidget {
  Q_OBJECT

 public:
  explicit HiddenStateTreePanel(ProjectDocument& document, QWidget* parent = nullptr);
  ~HiddenStateTreePanel() override;

  // The inputs, for scripts and tests (the same as editing the fields).
  void setContext(const QString& context);
  void setDepth(int depth);
  void setBranching(int children);
  void setFirstLevelCap(int children);
  void setMass(double mass);
  void setCheckpoint(const QString& path);
  // An empty path selects "(no comparison)".
  void setComparisonCheckpoint(const QString& path);

  // Shows trees grown from `context` (what a finished run does): model A, and B beside it
  // when given.
  void showTrees(const QString& context, const engine::TreeResult& a, const QString& labelA,
                 const std::optional<engine::TreeResult>& b = {}, const QString& labelB = {});

  AnalysisJobBar* jobBar() const { return jobBar_; }
  // The canvas of model 0 (A) or 1 (B); B's is hidden while there is no comparison.
  TreeCanvas* canvas(int model) const;
  QLabel* treeLabel(int model) const;
  SpreadPlot* spreadPlot() const { return spread_; }
  ExportBar* treeExportBar() const { return treeExport_; }
  ExportBar* spreadExportBar() const { return spreadExport_; }
  // The trees shown, labelled (empty before the first result).
  const std::vector<engine::LabelledTree>& trees() const { return trees_; }
  QString shownContext() const { return shownContext_; }
  // Every node of every tree: model,index,depth,parent,symbol,probability,cumulative_log_prob.
  QByteArray treeCsv() const;
  // Both trees whole (not only the part scrolled into view), side by side, into `path`.
  void saveTreeFigure(const QString& path) const;

  // The colours of model A and B (canvas, curves, labels): their runs' (run_colours.h).
  QColor modelColour(int model) const;

 public slots:
  void refreshCheckpoints();
  void runAnalysis();
  void expandAll();
  void collapseAll();

 signals:
  void analysisFinished(bool ok);

 private:
  QWidget* makeTreeColumn(int model);
  void display(const QString& context, std::vector<engine::LabelledTree> trees);
  void updateRunnable();

  ProjectDocument& document_;
  CheckpointChooser* modelA_ = nullptr;
  CheckpointChooser* modelB_ = nullptr;
  qint64 runIds_[2] = {0, 0};  // the runs of the trees shown
  QLineEdit* context_ = nullptr;
  QSpinBox* depth_ = nullptr;
  QSpinBox* branching_ = nullptr;
  QSpinBox* firstLevel_ = nullptr;
  QDoubleSpinBox* mass_ = nullptr;
  QPushButton* run_ = nullptr;
  AnalysisJobBar* jobBar_ = nullptr;
  QSplitter* treeSplitter_ = nullptr;
  QWidget* columns_[2] = {nullptr, nullptr};
  QLabel* labels_[2] = {nullptr, nullptr};
  TreeCanvas* canvases_[2] = {nullptr, nullptr};
  QScrollArea* scrolls_[2] = {nullptr, nullptr};
  QPushButton* expandAll_ = nullptr;
  QPushButton* collapseAll_ = nullptr;
  ExportBar* treeExport_ = nullptr;
  SpreadPlot* spread_ = nullptr;
  ExportBar* spreadExport_ = nullptr;
  // One model per role: a job uses them on its thread, the bar runs one job at a time; shared
  // with the job so that they outlive it.
  std::shared_ptr<ModelSlot> slots_[2];
  QString shownContext_;
  std::vector<engine::LabelledTree> trees_;
};

}  // namespace mrnn::widgets
