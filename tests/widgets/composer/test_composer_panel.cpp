// ComposerPanel against a ProjectDocument: blocks follow the model, every structural and
// inspector edit is one undo step, counts equal the formulas, problems mark their blocks.

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "engine/config/project_file.h"
#include "widgets/composer/block_inspector.h"
#include "widgets/composer/cell_palette.h"
#include "widgets/composer/composer_canvas.h"
#include "widgets/composer/composer_panel.h"
#include "widgets/composer/match_parameters_dialog.h"
#include "widgets/project/project_document.h"

namespace {

using mrnn::engine::CellType;
using mrnn::widgets::ComposerCanvas;
using mrnn::widgets::ComposerPanel;
using mrnn::widgets::ProjectDocument;

const QString kQuickProject = QStringLiteral(MRNN_PROJECTS_DIR "/quick-mlstm/project.yaml");

// The quick template reads its vocabulary from the corpus; 96 symbols is what the data panel
// would report (ProjectDocument::setCorpusVocabulary), and what the counts below assume.
void loadQuick(ProjectDocument& document) {
  document.load(kQuickProject);
  document.setCorpusVocabulary(96);
}

// Embedding 64 over 65 symbols, an LSTM of 128 and a GRU of 64 on top, untied softmax.
const char* const kTwoLayerProject = R"(name: Two layers
model:
  input:
    level: char
    embedding_size: 64
    vocab_size: 65
  layers:
    - type: lstm
      hidden_size: 128
    - type: gru
      hidden_size: 64
  output:
    type: softmax
)";

// Writes `text` as a project file in `dir` and loads it into `document`.
void loadText(ProjectDocument& document, const QTemporaryDir& dir, const char* text) {
  const QString path = dir.filePath(QStringLiteral("project.yaml"));
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(text);
  file.close();
  document.load(path);
}

std::string yamlOf(const ProjectDocument& document) {
  return mrnn::engine::projectToYaml(document.project());
}

std::vector<CellType> layerTypes(const ProjectDocument& document) {
  std::vector<CellType> types;
  for (const auto& layer : document.project().model.layers) types.push_back(layer.type);
  return types;
}

}  // namespace

class ComposerPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void init() { QVERIFY(dir_.isValid()); }
  void blocksMatchTheQuickProject();
  void blockCountsEqualTheFormulas();
  void paletteListsEveryCellAndAddsOnEnter();
  void dropFromPaletteInsertsWhereDropped();
  void deleteAndDuplicateAreUndoable();
  void dragReordersLayers();
  void shortcutsAreDeclaredOnTheCanvas();
  void inspectorTypingIsOneUndoStep();
  void inspectorShowsOnlyApplicableSettingsAndEquations();
  void inputScaleEditsOnlyItsOwnLine();
  void tiedMismatchMarksTheOutputUntilFixed();
  void matchParametersResizesInOneStep();
  void statusSaysTrainingWhileARunTrains();
  void addingWithTheInputSelectedKeepsTheLayersAsTheyAre();

 private:
  QTemporaryDir dir_;
};

void ComposerPanelTest::blocksMatchTheQuickProject() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  QCOMPARE(panel.blockCount(), 3);
  QCOMPARE(panel.blockTitle(0), QStringLiteral("Input"));
  QCOMPARE(panel.blockTitle(1), QStringLiteral("Layer 1 · mLSTM"));
  QCOMPARE(panel.blockTitle(2), QStringLiteral("Output · softmax"));
  // docs/model-config.md's worked example.
  QCOMPARE(panel.blockParameters(0), qint64{6144});
  QCOMPARE(panel.blockParameters(1), qint64{410624});
  QCOMPARE(panel.blockParameters(2), qint64{24672});
  QCOMPARE(panel.totalParameters(), qint64{441440});
  QVERIFY(panel.findChild<QLabel*>(QStringLiteral("totalParameters"))
              ->text()
              .contains(QStringLiteral("441,440")));
  QVERIFY(panel.isModelValid());
  QVERIFY(panel.problemSummary().isEmpty());
  QCOMPARE(panel.selectedBlock(), 1);  // the first layer, ready to edit
}

void ComposerPanelTest::blockCountsEqualTheFormulas() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);
  ComposerPanel panel(document);
  QCOMPARE(panel.blockCount(), 4);
  QCOMPARE(panel.blockParameters(0), qint64{65 * 64});                                 // 4,160
  QCOMPARE(panel.blockParameters(1), qint64{4 * 128 * 64 + 4 * 128 * 128 + 4 * 128});  // 98,816
  QCOMPARE(panel.blockParameters(2), qint64{3 * 64 * 128 + 3 * 64 * 64 + 3 * 64});     // 37,056
  QCOMPARE(panel.blockParameters(3), qint64{64 * 65 + 65});                            // 4,225
  QCOMPARE(panel.totalParameters(), qint64{144257});
}

void ComposerPanelTest::paletteListsEveryCellAndAddsOnEnter() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  mrnn::widgets::CellPalette* palette = panel.palette();
  QCOMPARE(palette->count(), 11);
  QCOMPARE(palette->item(palette->rowOf(CellType::Mogrifier))
               ->data(mrnn::widgets::CellPalette::kPaperRole)
               .toString(),
           QStringLiteral("Melis et al. 2019, eqs. 1-2"));

  const std::string before = yamlOf(document);
  panel.selectBlock(1);
  palette->setCurrentRow(palette->rowOf(CellType::Gru));
  QTest::keyClick(palette, Qt::Key_Return);
  QCOMPARE(layerTypes(document), (std::vector<CellType>{CellType::Mlstm, CellType::Gru}));
  QCOMPARE(document.project().model.layers[1].hiddenSize, int64_t{256});  // its neighbour's
  QCOMPARE(panel.blockCount(), 4);
  QCOMPARE(panel.blockTitle(2), QStringLiteral("Layer 2 · GRU"));
  QCOMPARE(panel.selectedBlock(), 2);
  document.undoStack()->undo();
  QCOMPARE(yamlOf(document), before);
  QCOMPARE(panel.blockCount(), 3);
}

void ComposerPanelTest::dropFromPaletteInsertsWhereDropped() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);
  ComposerPanel panel(document);
  panel.resize(1100, 700);
  ComposerCanvas* canvas = panel.canvas();
  canvas->resize(520, canvas->minimumSizeHint().height());

  // Between the LSTM (block 1) and the GRU (block 2).
  const QRect lower = canvas->blockRect(1);
  const QRect upper = canvas->blockRect(2);
  const QPoint between(lower.center().x(), (lower.bottom() + upper.top()) / 2);
  QCOMPARE(canvas->insertionPositionAt(between), 1);

  QMimeData mime;
  mime.setData(QString::fromLatin1(ComposerCanvas::kCellMimeType), QByteArray("mogrifier"));
  QDragEnterEvent enter(between, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(canvas, &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent drop(QPointF(between), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(canvas, &drop);
  QCOMPARE(layerTypes(document),
           (std::vector<CellType>{CellType::Lstm, CellType::Mogrifier, CellType::Gru}));
  QCOMPARE(panel.blockTitle(2), QStringLiteral("Layer 2 · Mogrifier LSTM"));
  QCOMPARE(document.undoStack()->count(), 1);

  // Foreign drops are refused.
  QMimeData text;
  text.setText(QStringLiteral("lstm"));
  QDragEnterEvent foreign(between, Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(canvas, &foreign);
  QVERIFY(!foreign.isAccepted());
}

void ComposerPanelTest::deleteAndDuplicateAreUndoable() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);
  ComposerPanel panel(document);
  const std::string original = yamlOf(document);
  auto* duplicate = panel.findChild<QAction*>(QStringLiteral("duplicateLayerAction"));
  auto* remove = panel.findChild<QAction*>(QStringLiteral("deleteLayerAction"));
  QVERIFY(duplicate && remove);

  panel.selectBlock(1);
  duplicate->trigger();
  QCOMPARE(layerTypes(document),
           (std::vector<CellType>{CellType::Lstm, CellType::Lstm, CellType::Gru}));
  QCOMPARE(panel.selectedBlock(), 2);  // the copy
  const std::string duplicated = yamlOf(document);

  panel.selectBlock(3);
  remove->trigger();
  QCOMPARE(layerTypes(document), (std::vector<CellType>{CellType::Lstm, CellType::Lstm}));
  QCOMPARE(panel.blockCount(), 4);

  // The input and output cannot be deleted or duplicated.
  panel.selectBlock(0);
  QVERIFY(!remove->isEnabled());
  QVERIFY(!duplicate->isEnabled());
  panel.deleteSelectedLayer();
  QCOMPARE(document.project().model.layers.size(), size_t{2});

  document.undoStack()->undo();
  QCOMPARE(yamlOf(document), duplicated);
  document.undoStack()->undo();
  QCOMPARE(yamlOf(document), original);
  QCOMPARE(panel.blockCount(), 4);
  QCOMPARE(panel.blockTitle(2), QStringLiteral("Layer 2 · GRU"));
}

void ComposerPanelTest::dragReordersLayers() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);
  ComposerPanel panel(document);
  panel.resize(1100, 700);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  ComposerCanvas* canvas = panel.canvas();
  const std::string original = yamlOf(document);

  // Drag the LSTM (block 1) below the GRU (block 2).
  const QPoint start = canvas->blockRect(1).center();
  const QPoint end(start.x(), canvas->blockRect(2).bottom() + 10);
  QTest::mousePress(canvas, Qt::LeftButton, Qt::NoModifier, start);
  for (int step = 1; step <= 6; ++step) {
    QTest::mouseMove(canvas, start + (end - start) * step / 6);
  }
  QTest::mouseRelease(canvas, Qt::LeftButton, Qt::NoModifier, end);
  QCOMPARE(layerTypes(document), (std::vector<CellType>{CellType::Gru, CellType::Lstm}));
  QCOMPARE(panel.blockTitle(1), QStringLiteral("Layer 1 · GRU"));
  QCOMPARE(panel.selectedBlock(), 2);  // the moved layer stays selected
  // The GRU now reads the embedding: 3*64*64 + 3*64^2 + 3*64 = 24,768.
  QCOMPARE(panel.blockParameters(1), qint64{24768});
  QCOMPARE(document.undoStack()->count(), 1);

  // A click without moving does not reorder.
  QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, canvas->blockRect(1).center());
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(panel.selectedBlock(), 1);

  panel.selectBlock(2);
  panel.moveSelectedLayer(-1);  // Alt+Up
  QCOMPARE(yamlOf(document), original);
  document.undoStack()->undo();
  document.undoStack()->undo();
  QCOMPARE(yamlOf(document), original);
}

void ComposerPanelTest::shortcutsAreDeclaredOnTheCanvas() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  const auto shortcutOf = [&panel](const char* name) {
    auto* action = panel.findChild<QAction*>(QString::fromLatin1(name));
    return action ? action->shortcut() : QKeySequence();
  };
  QCOMPARE(shortcutOf("deleteLayerAction"), QKeySequence(QKeySequence::Delete));
  QCOMPARE(shortcutOf("duplicateLayerAction"), QKeySequence(Qt::CTRL | Qt::Key_D));
  QCOMPARE(shortcutOf("moveLayerUpAction"), QKeySequence(Qt::ALT | Qt::Key_Up));
  QCOMPARE(shortcutOf("moveLayerDownAction"), QKeySequence(Qt::ALT | Qt::Key_Down));
  QCOMPARE(shortcutOf("addLayerAction"), QKeySequence(Qt::Key_Insert));
  QVERIFY(panel.canvas()->actions().size() >= 6);
  for (QAction* action : panel.canvas()->actions()) QVERIFY(!action->toolTip().isEmpty());

  // Through the keyboard, when the window is active.
  panel.show();
  panel.activateWindow();
  if (!QTest::qWaitForWindowActive(&panel)) QSKIP("no active window on this platform");
  panel.canvas()->setFocus();
  panel.selectBlock(1);
  QTest::keyClick(panel.canvas(), Qt::Key_D, Qt::ControlModifier);
  QCOMPARE(document.project().model.layers.size(), size_t{2});
  QTest::keyClick(panel.canvas(), Qt::Key_Delete);
  QCOMPARE(document.project().model.layers.size(), size_t{1});
  QTest::keyClick(panel.canvas(), Qt::Key_Down);
  QCOMPARE(panel.selectedBlock(), 2);
}

void ComposerPanelTest::inspectorTypingIsOneUndoStep() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  panel.selectBlock(1);
  auto* hidden = panel.inspector()->findChild<QSpinBox*>(QStringLiteral("hiddenSize"));
  QVERIFY(hidden);
  QCOMPARE(hidden->value(), 256);
  hidden->setFocus();
  hidden->selectAll();
  QTest::keyClicks(hidden, QStringLiteral("512"));
  QCOMPARE(document.project().model.layers[0].hiddenSize, int64_t{512});
  QCOMPARE(document.undoStack()->count(), 1);  // 5, 51, 512 merged
  QCOMPARE(panel.blockParameters(1),
           qint64{256 * 64 + 4 * 512 * 64 + 256 * 512 + 4 * 512 * 256 + 4 * 512});

  // Another field is another step.
  auto* weightDrop = panel.inspector()->findChild<QDoubleSpinBox*>(QStringLiteral("weightDrop"));
  weightDrop->setValue(0.25);
  QCOMPARE(document.project().model.layers[0].weightDrop, 0.25);
  QCOMPARE(document.undoStack()->count(), 2);

  document.undoStack()->undo();
  document.undoStack()->undo();
  QCOMPARE(document.project().model.layers[0].hiddenSize, int64_t{256});
  QCOMPARE(hidden->value(), 256);  // the inspector follows undo
  QCOMPARE(document.project().model.layers[0].weightDrop, 0.0);
}

void ComposerPanelTest::inputScaleEditsOnlyItsOwnLine() {
  const char* const text = R"(name: Commented  # mine
model:
  input: {level: char, embedding_size: 0, vocab_size: 65}
  layers:
    - type: rnn      # the tanh RNN
      hidden_size: 64
  init:
    recurrent: orthogonal
    recurrent_scale: 1.1   # edge of chaos
)";
  ProjectDocument document;
  loadText(document, dir_, text);
  ComposerPanel panel(document);
  panel.selectBlock(1);
  auto* inputScale = panel.inspector()->findChild<QDoubleSpinBox*>(QStringLiteral("inputScale"));
  QVERIFY(inputScale);
  QCOMPARE(inputScale->value(), 1.0);
  inputScale->setValue(0.3);
  QCOMPARE(document.project().model.init.inputScale, 0.3);
  const std::string edited = document.text();
  QVERIFY2(edited.find("    recurrent_scale: 1.1   # edge of chaos\n    input_scale: 0.3\n") !=
               std::string::npos,
           edited.c_str());
  QVERIFY(edited.find("# the tanh RNN") != std::string::npos);
  // Back to the usual scale: the key goes, and the file is what its owner wrote.
  inputScale->setValue(1.0);
  QCOMPARE(document.text(), std::string(text));
}

void ComposerPanelTest::inspectorShowsOnlyApplicableSettingsAndEquations() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);
  ComposerPanel panel(document);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  mrnn::widgets::BlockInspector* inspector = panel.inspector();
  auto* mSize = inspector->findChild<QSpinBox*>(QStringLiteral("mSize"));
  auto* rounds = inspector->findChild<QSpinBox*>(QStringLiteral("rounds"));
  auto* equations = inspector->findChild<QLabel*>(QStringLiteral("equations"));

  panel.selectBlock(2);  // GRU
  QVERIFY(!mSize->isVisible());
  QVERIFY(!rounds->isVisible());
  QVERIFY(equations->text().contains(QStringLiteral("hₜ = (1 − z) ⊙ hₜ₋₁ + z ⊙ j")));
  // PyTorch's form, one click: its candidate in the equations (they once kept eq. 20's).
  auto* resetAfter = inspector->findChild<QCheckBox*>(QStringLiteral("resetAfter"));
  QVERIFY(resetAfter->isVisible() && !resetAfter->isChecked());
  resetAfter->click();
  QVERIFY(document.project().model.layers[1].resetAfter);
  QVERIFY2(equations->text().contains(QStringLiteral("r ⊙ (W_h hₜ₋₁ + b_hh)")),
           qPrintable(equations->text()));
  resetAfter->click();
  QVERIFY(equations->text().contains(QStringLiteral("W_h(r ⊙ hₜ₋₁)")));
  QVERIFY(inspector->findChild<QLabel*>(QStringLiteral("parameterFormula"))
              ->text()
              .contains(QStringLiteral("3HI + 3H^2 + 3H")));

  // Changing the cell type through the inspector: one step, m size appears.
  auto* cellType = inspector->findChild<QComboBox*>(QStringLiteral("cellType"));
  cellType->setCurrentIndex(static_cast<int>(CellType::Mgru));
  QCOMPARE(document.project().model.layers[1].type, CellType::Mgru);
  QVERIFY(mSize->isVisible());
  QVERIFY(equations->text().contains(QStringLiteral("mₜ = (W_mx x) ⊙ (W_mh hₜ₋₁)")));
  QCOMPARE(panel.blockTitle(2), QStringLiteral("Layer 2 · mGRU"));

  panel.selectBlock(0);
  auto* inputEquations = inspector->findChild<QLabel*>(QStringLiteral("inputEquations"));
  QVERIFY(inputEquations->isVisible());
  QVERIFY(inputEquations->text().contains(QStringLiteral("E[token]")));
}

void ComposerPanelTest::tiedMismatchMarksTheOutputUntilFixed() {
  ProjectDocument document;
  loadText(document, dir_, kTwoLayerProject);  // embedding 64, last layer 64
  ComposerPanel panel(document);
  QSignalSpy validity(&panel, &ComposerPanel::validityChanged);
  // Make the last layer 128 wide, then tie: the widths disagree.
  panel.selectBlock(2);
  panel.inspector()->findChild<QSpinBox*>(QStringLiteral("hiddenSize"))->setValue(128);
  QVERIFY(panel.isModelValid());
  QCOMPARE(validity.count(), 0);
  panel.selectBlock(3);
  panel.inspector()->findChild<QCheckBox*>(QStringLiteral("tieEmbeddings"))->setChecked(true);
  QVERIFY(document.project().model.output.tieEmbeddings);

  QVERIFY(!panel.isModelValid());
  QCOMPARE(panel.blockProblems(3).size(), 1);
  QVERIFY(panel.blockProblems(3).front().contains(
      QStringLiteral("tied embeddings need the last layer's width (128) to equal the embedding "
                     "size (64)")));
  QCOMPARE(panel.blockProblems(2).size(), 1);  // the layer whose width disagrees
  QVERIFY(panel.blockProblems(0).isEmpty());
  QVERIFY(panel.problemSummary().startsWith(QStringLiteral("Output: tied embeddings")));
  QCOMPARE(validity.count(), 1);
  QCOMPARE(validity.at(0).at(0).toBool(), false);
  QCOMPARE(validity.at(0).at(1).toString(), panel.problemSummary());
  auto* problems = panel.inspector()->findChild<QLabel*>(QStringLiteral("inspectorProblems"));
  QVERIFY(problems->text().contains(QStringLiteral("tied embeddings")));

  // Fix it on the layer: the mark goes away.
  panel.selectBlock(2);
  panel.inspector()->findChild<QSpinBox*>(QStringLiteral("hiddenSize"))->setValue(64);
  QVERIFY(panel.isModelValid());
  QVERIFY(panel.blockProblems(3).isEmpty());
  QVERIFY(panel.blockProblems(2).isEmpty());
  QCOMPARE(validity.count(), 2);
  QCOMPARE(validity.at(1).at(0).toBool(), true);
  QVERIFY(validity.at(1).at(1).toString().isEmpty());
  // Tied softmax: the output has only its bias, 65.
  QCOMPARE(panel.blockParameters(3), qint64{65});
}

void ComposerPanelTest::matchParametersResizesInOneStep() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  panel.selectBlock(1);
  panel.openMatchParameters();
  auto* dialog = panel.findChild<mrnn::widgets::MatchParametersDialog*>();
  QVERIFY(dialog);
  dialog->setReference(CellType::Lstm, 512);  // 1,237,088 parameters
  // The template fixes m_size at 256, so only H moves: with I = 64, V = 96 the total is
  // 6,144 + (256*64 + 4H*64 + 256H + 4H*256 + 4H) + (96H + 96) = 1,636H + 22,624;
  // H = 742 gives 1,236,536 (552 short), 743 gives 1,238,172 (1,084 over).
  QCOMPARE(dialog->target(), int64_t{1237088});
  QCOMPARE(dialog->match().size, int64_t{742});
  dialog->accept();
  QCOMPARE(document.project().model.layers[0].hiddenSize, int64_t{742});
  QCOMPARE(document.project().model.layers[0].mSize, int64_t{256});
  QCOMPARE(panel.totalParameters(), qint64{1236536});
  QCOMPARE(document.undoStack()->count(), 1);
  document.undoStack()->undo();
  QCOMPARE(panel.totalParameters(), qint64{441440});

  // Any of the project's runs can be the target; a target out of reach keeps Apply off.
  panel.setRunReferenceSource([] {
    return QList<mrnn::widgets::ParameterReference>{
        {QStringLiteral("Run 2 · lstm · 300,000 params"), 300000},
        {QStringLiteral("Run 1 · mlstm · 1,000 params"), 1000}};
  });
  panel.openMatchParameters();
  auto* again = panel.findChildren<mrnn::widgets::MatchParametersDialog*>().last();
  QCOMPARE(again->runReferenceBox()->count(), 2);
  again->findChild<QPushButton*>(QStringLiteral("useRunReference"))->click();
  QCOMPARE(again->target(), int64_t{300000});
  QVERIFY(again->match().reachable);
  QVERIFY(again->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
  again->runReferenceBox()->setCurrentIndex(1);
  again->findChild<QPushButton*>(QStringLiteral("useRunReference"))->click();
  QCOMPARE(again->target(), int64_t{1000});
  QVERIFY(!again->match().reachable);
  QVERIFY(!again->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
  again->reject();
}

void ComposerPanelTest::statusSaysTrainingWhileARunTrains() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  QVERIFY(panel.statusText().contains(QStringLiteral("Ready to train")));
  panel.setTrainingActive(true);
  QVERIFY2(panel.statusText().contains(QStringLiteral("Training")), qPrintable(panel.statusText()));
  QVERIFY(!panel.statusText().contains(QStringLiteral("Ready")));
  panel.setTrainingActive(false);
  QVERIFY(panel.statusText().contains(QStringLiteral("Ready to train")));
}

void ComposerPanelTest::addingWithTheInputSelectedKeepsTheLayersAsTheyAre() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  mrnn::widgets::CellPalette* palette = panel.palette();
  // The palette names the model's cell, not a default.
  QCOMPARE(panel.selectedBlock(), 1);
  QCOMPARE(palette->currentCellType(), CellType::Mlstm);
  const qint64 layerOne = panel.blockParameters(1);
  panel.selectBlock(0);  // the input
  palette->setCurrentRow(palette->rowOf(CellType::Gru));
  QTest::keyClick(palette, Qt::Key_Return);
  QCOMPARE(layerTypes(document), (std::vector<CellType>{CellType::Mlstm, CellType::Gru}));
  QCOMPARE(panel.blockParameters(1), layerOne);  // layer 1 reads the input as before
  QCOMPARE(panel.selectedBlock(), 2);
  QCOMPARE(palette->currentCellType(), CellType::Gru);

  // A panel that was open before the project: the palette follows the project opened.
  ProjectDocument later;
  ComposerPanel open(later);
  loadQuick(later);
  QCOMPARE(open.palette()->currentCellType(), CellType::Mlstm);
}

QTEST_MAIN(ComposerPanelTest)
#include "test_composer_panel.moc"
