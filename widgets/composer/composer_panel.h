#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <vector>

#include "engine/config/cell_type.h"
#include "widgets/composer/composer_block.h"
#include "widgets/composer/match_parameters_dialog.h"

class QAction;
class QLabel;
class QScrollArea;
class QToolButton;

namespace mrnn::widgets {

class BlockInspector;
class CellPalette;
class ComposerCanvas;
class ProjectDocument;

// The architecture composer: the cell palette, the model drawn as blocks (input, layer
// stack, output) with live parameter counts and problems marked on them, and an inspector
// for the selected block. Every change is an edit of the ProjectDocument, so it is undoable
// and every other view of the project follows.
//
// Shortcuts (while the canvas has focus): Insert adds the palette's cell below the selected
// block, Delete removes the selected layer, Ctrl+D duplicates it, Alt+Up / Alt+Down move it,
// Ctrl+M opens "Match parameters".
class ComposerPanel : public QWidget {
  Q_OBJECT

 public:
  explicit ComposerPanel(ProjectDocument& document, QWidget* parent = nullptr);

  // False while any setting keeps the model from being built; the main window disables
  // "Start training" then.
  bool isModelValid() const { return problems_.empty(); }
  // One line per problem, "Output: tied embeddings need ..."; empty when valid.
  QString problemSummary() const;
  // While a run trains, the status chip says so instead of "Ready to train" (edits apply
  // to the next run).
  void setTrainingActive(bool active);
  // Why the project's corpus cannot be read (the Data panel's scan), empty when it can: the
  // status chip then says training cannot start, not "Ready to train", though the model is
  // sound.
  void setDataProblem(const QString& problem);
  QString statusText() const;

  // Blocks top to bottom: 0 input, 1..N layers, N+1 output.
  int blockCount() const;
  int selectedBlock() const;
  void selectBlock(int index);
  QString blockTitle(int index) const;
  // -1 while unknown (the vocabulary size is not known yet).
  qint64 blockParameters(int index) const;
  QStringList blockProblems(int index) const;
  // -1 while unknown.
  qint64 totalParameters() const { return total_; }

  // The edits the canvas, palette, menus and shortcuts make; each is one undo step.
  // `position` is where the new layer goes in the stack (0 = bottom, N = top).
  void addLayer(engine::CellType type, int position);
  void deleteSelectedLayer();
  void duplicateSelectedLayer();
  void moveLayer(int from, int to);
  void moveSelectedLayer(int delta);
  // Opens the "Match parameters" dialog for the selected layer (window-modal, not blocking);
  // accepting it resizes the layer as one edit.
  void openMatchParameters();
  // Where the dialog finds the project's runs to match (the composer knows no run store).
  void setRunReferenceSource(std::function<QList<ParameterReference>()> source);

  ComposerCanvas* canvas() const { return canvas_; }
  CellPalette* palette() const { return palette_; }
  BlockInspector* inspector() const { return inspector_; }

 signals:
  void validityChanged(bool valid, const QString& problems);

 private:
  QWidget* buildPalettePane();
  QWidget* buildCanvasPane();
  void createActions();
  void refresh();
  // The palette shows the selected layer's cell, else the top layer's.
  void followModelInPalette();
  void updateActions();
  void showContextMenu(int block, const QPoint& globalPosition);
  // Where a layer added "below the selected block" goes.
  int insertionPointBelowSelection() const;
  int selectedLayer() const;  // index into the model's layers, -1 when no layer is selected

  ProjectDocument& document_;
  CellPalette* palette_ = nullptr;
  ComposerCanvas* canvas_ = nullptr;
  QScrollArea* canvasScroll_ = nullptr;
  BlockInspector* inspector_ = nullptr;
  QLabel* totalLabel_ = nullptr;
  QLabel* validity_ = nullptr;
  QToolButton* matchButton_ = nullptr;

  QAction* addAction_ = nullptr;
  QAction* duplicateAction_ = nullptr;
  QAction* deleteAction_ = nullptr;
  QAction* moveUpAction_ = nullptr;
  QAction* moveDownAction_ = nullptr;
  QAction* matchAction_ = nullptr;
  QAction* undoAction_ = nullptr;
  QAction* redoAction_ = nullptr;

  std::function<QList<ParameterReference>()> runReferences_;
  std::vector<ComposerProblem> problems_;
  QString summary_;
  bool reportedValid_ = true;
  bool training_ = false;
  QString dataProblem_;  // why the corpus cannot be read; empty when it can
  qint64 total_ = -1;
};

}  // namespace mrnn::widgets
