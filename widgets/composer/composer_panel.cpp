#include "widgets/composer/composer_panel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "engine/runtime/machine_resources.h"
#include "widgets/composer/block_inspector.h"
#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/cell_palette.h"
#include "widgets/composer/composer_canvas.h"
#include "widgets/composer/layer_stack_edits.h"
#include "widgets/composer/match_parameters_dialog.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

constexpr int kPaletteWidth = 240;
constexpr int kCanvasWidth = 540;
constexpr int kInspectorWidth = 340;

QLabel* paneHeading(const QString& text) {
  auto* label = new QLabel(text);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  return label;
}

}  // namespace

ComposerPanel::ComposerPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("composerPanel"));
  inspector_ = new BlockInspector(document_, this);
  // The three panes fit a 960-pixel window beside the YAML dock.
  inspector_->setMinimumWidth(250);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setObjectName(QStringLiteral("composerSplitter"));
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(buildPalettePane());
  splitter->addWidget(buildCanvasPane());
  splitter->addWidget(inspector_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setStretchFactor(2, 0);
  splitter->setSizes({kPaletteWidth, kCanvasWidth, kInspectorWidth});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  createActions();

  connect(canvas_, &ComposerCanvas::selectionChanged, this, [this](int block) {
    inspector_->showBlock(block, blockProblems(block));
    updateActions();
    followModelInPalette();
  });
  connect(canvas_, &ComposerCanvas::insertLayerRequested, this, &ComposerPanel::addLayer);
  connect(canvas_, &ComposerCanvas::addLayerRequested, this,
          [this](int position) { addLayer(palette_->currentCellType(), position); });
  connect(canvas_, &ComposerCanvas::moveLayerRequested, this, &ComposerPanel::moveLayer);
  connect(canvas_, &ComposerCanvas::contextMenuRequested, this, &ComposerPanel::showContextMenu);
  connect(palette_, &CellPalette::addRequested, this,
          [this](engine::CellType type) { addLayer(type, insertionPointBelowSelection()); });
  connect(&document_, &ProjectDocument::projectChanged, this, &ComposerPanel::refresh);
  // A project just opened: the palette names its cell, not the last one's.
  connect(&document_, &ProjectDocument::pathChanged, this, &ComposerPanel::followModelInPalette);
  connect(&document_, &ProjectDocument::vocabularyChanged, this, &ComposerPanel::refresh);

  refresh();
  selectBlock(blockCount() > 2 ? 1 : 0);
  followModelInPalette();
  reportedValid_ = isModelValid();
}

QWidget* ComposerPanel::buildPalettePane() {
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(8, 8, 4, 8);
  layout->setSpacing(4);
  layout->addWidget(paneHeading(tr("Cells")));
  auto* hint = new QLabel(tr("Drag onto the canvas, or double-click to add."));
  hint->setWordWrap(true);
  hint->setStyleSheet(QStringLiteral("color: #5c636a;"));
  layout->addWidget(hint);
  palette_ = new CellPalette(pane);
  layout->addWidget(palette_, 1);
  pane->setMinimumWidth(170);
  return pane;
}

QWidget* ComposerPanel::buildCanvasPane() {
  auto* pane = new QWidget;
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* header = new QWidget;
  header->setObjectName(QStringLiteral("composerHeader"));
  // Two rows: the total alone (it was cut to "Total 431,489 paramet" beside the button at
  // 960 pixels), then the validity chip and Match parameters.
  auto* headerRows = new QVBoxLayout(header);
  headerRows->setContentsMargins(12, 8, 12, 4);
  headerRows->setSpacing(4);
  auto* headerLayout = new QHBoxLayout;
  headerRows->addLayout(headerLayout);
  totalLabel_ = new QLabel;
  totalLabel_->setObjectName(QStringLiteral("totalParameters"));
  totalLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totalLabel_->setToolTip(
      tr("All trainable parameters of the model, from the closed-form "
         "counts (docs/model-config.md)"));
  QFont totalFont = totalLabel_->font();
  totalFont.setPointSizeF(totalFont.pointSizeF() * 1.15);
  totalLabel_->setFont(totalFont);
  validity_ = new QLabel;
  validity_->setObjectName(QStringLiteral("validity"));
  matchButton_ = new QToolButton;
  matchButton_->setObjectName(QStringLiteral("matchParametersButton"));
  matchButton_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  headerLayout->addWidget(totalLabel_);
  headerLayout->addStretch(1);
  auto* validityRow = new QHBoxLayout;
  validityRow->addWidget(validity_);
  validityRow->addStretch(1);
  validityRow->addWidget(matchButton_);
  headerRows->addLayout(validityRow);
  layout->addWidget(header);

  auto* toolbar = new QToolBar(pane);
  toolbar->setObjectName(QStringLiteral("composerToolbar"));
  toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  toolbar->setIconSize(QSize(16, 16));
  toolbar->setContentsMargins(6, 0, 6, 0);
  layout->addWidget(toolbar);

  canvas_ = new ComposerCanvas;
  canvasScroll_ = new QScrollArea;
  canvasScroll_->setObjectName(QStringLiteral("canvasScroll"));
  canvasScroll_->setWidget(canvas_);
  canvasScroll_->setWidgetResizable(true);
  canvasScroll_->setFrameShape(QFrame::NoFrame);
  canvasScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  layout->addWidget(canvasScroll_, 1);
  pane->setMinimumWidth(330);
  return pane;
}

void ComposerPanel::createActions() {
  const auto makeAction = [this](const QString& name, const QString& text, const QKeySequence& key,
                                 const QString& tip) {
    auto* action = new QAction(text, this);
    action->setObjectName(name);
    action->setShortcut(key);
    // Shortcuts act while the canvas has focus, so Delete in a text field deletes text.
    action->setShortcutContext(Qt::WidgetShortcut);
    action->setToolTip(
        key.isEmpty() ? tip
                      : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    canvas_->addAction(action);
    return action;
  };
  addAction_ = makeAction(QStringLiteral("addLayerAction"), tr("Add"), QKeySequence(Qt::Key_Insert),
                          tr("Add a layer of the palette's cell below the selected block"));
  duplicateAction_ =
      makeAction(QStringLiteral("duplicateLayerAction"), tr("Duplicate"),
                 QKeySequence(Qt::CTRL | Qt::Key_D), tr("Duplicate the selected layer"));
  deleteAction_ = makeAction(QStringLiteral("deleteLayerAction"), tr("Delete"),
                             QKeySequence::Delete, tr("Delete the selected layer"));
  moveUpAction_ = makeAction(QStringLiteral("moveLayerUpAction"), tr("Move Up"),
                             QKeySequence(Qt::ALT | Qt::Key_Up),
                             tr("Move the selected layer towards the input"));
  moveDownAction_ = makeAction(QStringLiteral("moveLayerDownAction"), tr("Move Down"),
                               QKeySequence(Qt::ALT | Qt::Key_Down),
                               tr("Move the selected layer towards the output"));
  matchAction_ = makeAction(QStringLiteral("matchParametersAction"), tr("Match parameters…"),
                            QKeySequence(Qt::CTRL | Qt::Key_M),
                            tr("Size a layer so the model has a target number of parameters"));
  connect(addAction_, &QAction::triggered, this,
          [this] { addLayer(palette_->currentCellType(), insertionPointBelowSelection()); });
  connect(duplicateAction_, &QAction::triggered, this, &ComposerPanel::duplicateSelectedLayer);
  connect(deleteAction_, &QAction::triggered, this, &ComposerPanel::deleteSelectedLayer);
  connect(moveUpAction_, &QAction::triggered, this, [this] { moveSelectedLayer(-1); });
  connect(moveDownAction_, &QAction::triggered, this, [this] { moveSelectedLayer(1); });
  connect(matchAction_, &QAction::triggered, this, &ComposerPanel::openMatchParameters);

  // Undo and redo here have no shortcut: the main window's Edit menu owns Ctrl+Z. Their text
  // stays short; the tooltip names the step.
  QUndoStack* stack = document_.undoStack();
  undoAction_ = new QAction(tr("Undo"), this);
  undoAction_->setObjectName(QStringLiteral("composerUndoAction"));
  redoAction_ = new QAction(tr("Redo"), this);
  redoAction_->setObjectName(QStringLiteral("composerRedoAction"));
  connect(undoAction_, &QAction::triggered, stack, &QUndoStack::undo);
  connect(redoAction_, &QAction::triggered, stack, &QUndoStack::redo);
  const auto updateUndo = [this, stack] {
    undoAction_->setEnabled(stack->canUndo());
    redoAction_->setEnabled(stack->canRedo());
    undoAction_->setToolTip(stack->canUndo() ? tr("Undo: %1").arg(stack->undoText())
                                             : tr("Nothing to undo"));
    redoAction_->setToolTip(stack->canRedo() ? tr("Redo: %1").arg(stack->redoText())
                                             : tr("Nothing to redo"));
  };
  connect(stack, &QUndoStack::indexChanged, this, updateUndo);
  connect(stack, &QUndoStack::cleanChanged, this, updateUndo);
  updateUndo();

  auto* toolbar = findChild<QToolBar*>(QStringLiteral("composerToolbar"));
  toolbar->addAction(addAction_);
  toolbar->addAction(duplicateAction_);
  toolbar->addAction(deleteAction_);
  toolbar->addSeparator();
  toolbar->addAction(moveUpAction_);
  toolbar->addAction(moveDownAction_);
  toolbar->addSeparator();
  toolbar->addAction(undoAction_);
  toolbar->addAction(redoAction_);
  matchButton_->setDefaultAction(matchAction_);
}

QString ComposerPanel::problemSummary() const {
  return summarizeProblems(problems_);
}

int ComposerPanel::blockCount() const {
  return canvas_->blockCount();
}

int ComposerPanel::selectedBlock() const {
  return canvas_->selectedBlock();
}

void ComposerPanel::selectBlock(int index) {
  canvas_->setSelectedBlock(index);
  const QRect rect = canvas_->blockRect(index);
  if (!rect.isNull())
    canvasScroll_->ensureVisible(rect.center().x(), rect.center().y(), 0, rect.height() / 2 + 24);
}

QString ComposerPanel::blockTitle(int index) const {
  if (index < 0 || index >= blockCount()) return QString();
  return canvas_->blocks()[static_cast<size_t>(index)].title;
}

qint64 ComposerPanel::blockParameters(int index) const {
  if (index < 0 || index >= blockCount()) return -1;
  return canvas_->blocks()[static_cast<size_t>(index)].parameters;
}

QStringList ComposerPanel::blockProblems(int index) const {
  if (index < 0 || index >= blockCount()) return {};
  return canvas_->blocks()[static_cast<size_t>(index)].problems;
}

int ComposerPanel::selectedLayer() const {
  const int block = selectedBlock();
  const int layers = blockCount() - 2;
  return block >= 1 && block <= layers ? block - 1 : -1;
}

int ComposerPanel::insertionPointBelowSelection() const {
  const int block = selectedBlock();
  const int layers = blockCount() - 2;
  // Only a selected layer moves the insertion point: after the input or with nothing
  // selected, a new layer goes on top of the stack, so the existing layers keep their
  // inputs and their parameter counts.
  if (block <= 0 || block > layers) return layers;
  return block;  // right after the selected layer
}

void ComposerPanel::addLayer(engine::CellType type, int position) {
  const engine::ModelConfig& model = document_.project().model;
  const int layers = static_cast<int>(model.layers.size());
  position = std::clamp(position, 0, layers);
  document_.editModel(insertLayer(model, static_cast<size_t>(position), type),
                      tr("Add %1 layer").arg(cellDisplayName(type)));
  selectBlock(position + 1);
  canvas_->setFocus(Qt::OtherFocusReason);
}

void ComposerPanel::deleteSelectedLayer() {
  const int layer = selectedLayer();
  if (layer < 0) return;
  const engine::ModelConfig& model = document_.project().model;
  document_.editModel(removeLayer(model, static_cast<size_t>(layer)),
                      tr("Delete layer %1").arg(layer + 1));
  const int layers = blockCount() - 2;
  selectBlock(layers == 0 ? 0 : std::min(layer, layers - 1) + 1);
}

void ComposerPanel::duplicateSelectedLayer() {
  const int layer = selectedLayer();
  if (layer < 0) return;
  document_.editModel(duplicateLayer(document_.project().model, static_cast<size_t>(layer)),
                      tr("Duplicate layer %1").arg(layer + 1));
  selectBlock(layer + 2);
}

void ComposerPanel::moveLayer(int from, int to) {
  const int layers = static_cast<int>(document_.project().model.layers.size());
  if (from < 0 || from >= layers || to < 0 || to >= layers || from == to) return;
  document_.editModel(widgets::moveLayer(document_.project().model, static_cast<size_t>(from),
                                         static_cast<size_t>(to)),
                      tr("Move layer %1 to position %2").arg(from + 1).arg(to + 1));
  selectBlock(to + 1);
}

void ComposerPanel::moveSelectedLayer(int delta) {
  const int layer = selectedLayer();
  if (layer >= 0) moveLayer(layer, layer + delta);
}

void ComposerPanel::openMatchParameters() {
  const engine::ModelConfig& model = document_.project().model;
  if (model.layers.empty()) return;
  const int layer = std::max(0, selectedLayer());
  auto* dialog = new MatchParametersDialog(model, document_.vocabularySize(), layer, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (runReferences_) dialog->setRunReferences(runReferences_());
  connect(dialog, &QDialog::accepted, this, [this, dialog] {
    const int chosen = dialog->layer();
    document_.editModel(dialog->result(), tr("Match parameters of layer %1").arg(chosen + 1));
    selectBlock(chosen + 1);
  });
  dialog->open();
}

void ComposerPanel::setRunReferenceSource(std::function<QList<ParameterReference>()> source) {
  runReferences_ = std::move(source);
}

void ComposerPanel::showContextMenu(int block, const QPoint& globalPosition) {
  QMenu menu(this);
  const int layers = blockCount() - 2;
  const bool onLayer = block >= 1 && block <= layers;
  // Insert right after the clicked block: below the input, above the output.
  const int position = block < 0 ? layers : std::clamp(block, 0, layers);
  QMenu* insert =
      menu.addMenu(block == layers + 1 ? tr("Insert Layer Above") : tr("Insert Layer Below"));
  for (engine::CellType type : engine::allCellTypes()) {
    QAction* action =
        insert->addAction(QStringLiteral("%1 — %2").arg(cellDisplayName(type), cellSummary(type)));
    connect(action, &QAction::triggered, this,
            [this, type, position] { addLayer(type, position); });
  }
  if (onLayer) {
    menu.addSeparator();
    menu.addAction(duplicateAction_);
    menu.addAction(deleteAction_);
    menu.addSeparator();
    menu.addAction(moveUpAction_);
    menu.addAction(moveDownAction_);
  }
  menu.addSeparator();
  menu.addAction(matchAction_);
  menu.exec(globalPosition);
}

void ComposerPanel::followModelInPalette() {
  // The palette shows the selected layer's cell (else the top layer's), so that it never
  // claims a cell the model does not have.
  const int layer = selectedLayer();
  const auto& layers = document_.project().model.layers;
  if (layer >= 0 && layer < static_cast<int>(layers.size())) {
    palette_->setCurrentRow(palette_->rowOf(layers[static_cast<size_t>(layer)].type));
  } else if (!layers.empty()) {
    palette_->setCurrentRow(palette_->rowOf(layers.back().type));
  }
}

void ComposerPanel::setDataProblem(const QString& problem) {
  if (problem == dataProblem_) return;
  dataProblem_ = problem;
  refresh();
}

void ComposerPanel::setTrainingActive(bool active) {
  if (active == training_) return;
  training_ = active;
  refresh();
}

QString ComposerPanel::statusText() const {
  return validity_->text();
}

void ComposerPanel::refresh() {
  const int64_t vocab = document_.vocabularySize();
  const engine::Project& project = document_.project();
  std::vector<ComposerBlock> blocks = describeBlocks(project.model, vocab);
  problems_ = diagnoseProject(project, vocab, engine::availableMemoryBytes());
  markProblems(blocks, problems_);
  total_ = -1;
  if (vocab > 0 && !project.model.layers.empty()) {
    total_ = 0;
    for (const ComposerBlock& block : blocks) total_ += block.parameters;
  }
  canvas_->setBlocks(std::move(blocks));

  totalLabel_->setText(total_ >= 0 ? tr("Total <b>%1</b> parameters").arg(formatCount(total_))
                                   : tr("Total: <i>known once the vocabulary size is</i>"));
  const QString summary = problemSummary();
  if (problems_.empty() && training_) {
    validity_->setText(tr("● Training…"));
    validity_->setStyleSheet(QStringLiteral(
        "color: #1864ab; background: #e7f5ff; border-radius: 9px; padding: 2px 10px;"));
    validity_->setToolTip(tr("A run is training; changes here apply to the next run"));
  } else if (problems_.empty() && !dataProblem_.isEmpty()) {
    validity_->setText(tr("⚠ The corpus cannot be read"));
    validity_->setStyleSheet(QStringLiteral(
        "color: #c92a2a; background: #fff5f5; border-radius: 9px; padding: 2px 10px;"));
    validity_->setToolTip(tr("The model can be built, but training cannot start until its "
                             "corpus reads (the Data panel says more):\n") +
                          dataProblem_);
  } else if (problems_.empty()) {
    validity_->setText(tr("✓ Ready to train"));
    validity_->setStyleSheet(QStringLiteral(
        "color: #2b8a3e; background: #ebfbee; border-radius: 9px; padding: 2px 10px;"));
    validity_->setToolTip(tr("Every setting can be built"));
  } else {
    validity_->setText(problems_.size() == 1 ? tr("⚠ 1 problem")
                                             : tr("⚠ %1 problems").arg(problems_.size()));
    validity_->setStyleSheet(QStringLiteral(
        "color: #c92a2a; background: #fff5f5; border-radius: 9px; padding: 2px 10px;"));
    validity_->setToolTip(tr("Training cannot start until these are fixed:\n") + summary);
  }

  const int selected = canvas_->selectedBlock();
  inspector_->showBlock(selected, blockProblems(selected));
  updateActions();

  const bool valid = isModelValid();
  if (valid != reportedValid_ || summary != summary_) {
    reportedValid_ = valid;
    summary_ = summary;
    emit validityChanged(valid, summary);
  }
}

void ComposerPanel::updateActions() {
  const int layer = selectedLayer();
  const int layers = blockCount() - 2;
  duplicateAction_->setEnabled(layer >= 0);
  deleteAction_->setEnabled(layer >= 0);
  moveUpAction_->setEnabled(layer > 0);
  moveDownAction_->setEnabled(layer >= 0 && layer + 1 < layers);
  matchAction_->setEnabled(layers > 0 && document_.vocabularySize() > 0);
}

}  // namespace mrnn::widgets
