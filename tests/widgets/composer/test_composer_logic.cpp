// The composer's pure parts: parameter matching against hand-computed counts, the layer
// stack edits, the blocks and problems, and the Match Parameters dialog.

#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <cstdlib>

#include "engine/config/cell_type.h"
#include "engine/config/parameter_count.h"
#include "engine/config/parameter_matching.h"
#include "engine/config/project_file.h"
#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/composer_block.h"
#include "widgets/composer/layer_stack_edits.h"
#include "widgets/composer/match_parameters_dialog.h"

namespace {

using mrnn::engine::CellType;
using mrnn::engine::LayerConfig;
using mrnn::engine::ModelConfig;
namespace w = mrnn::widgets;
namespace engine = mrnn::engine;

constexpr int64_t kVocab = 96;

// The quick template's shape: 96 characters embedded in 64 dimensions, one layer, softmax.
ModelConfig oneLayer(CellType type, int64_t hidden) {
  ModelConfig model;
  model.input.embeddingSize = 64;
  model.input.vocabSize = kVocab;
  LayerConfig layer;
  layer.type = type;
  layer.hiddenSize = hidden;
  model.layers.push_back(layer);
  return model;
}

// mLSTM with M = H over I = 64, V = 96, untied softmax, by hand:
// embedding 96*64 = 6,144; layer MI + 4HI + MH + 4HM + 4H = 5H^2 + 324H; softmax 96H + 96.
int64_t mlstmTotal(int64_t h) {
  return 6144 + 5 * h * h + 324 * h + 96 * h + 96;
}

int64_t distance(int64_t a, int64_t b) {
  return a > b ? a - b : b - a;
}

}  // namespace

class ComposerLogicTest : public QObject {
  Q_OBJECT

 private slots:
  void lstm512CountByHand();
  void mlstmMatchedToLstm512IsClosest();
  void matchingEveryCellPicksTheClosestSize();
  void matchingMSizeKeepsHidden();
  void targetsOutOfReachClampToTheRange();
  void matchingRejectsWhatCannotBeSized();
  void layerStackEdits();
  void newLayerTakesItsNeighboursWidth();
  void blocksCarryFormulaCounts();
  void tiedMismatchMarksOutputAndLayer();
  void mogrifierRankProblemMarksItsLayer();
  void emptyStackIsAProblemOfTheModel();
  void bf16OnTheCpuIsAProblemOfTraining();
  void aModelTooLargeForTheMachineIsAProblem();
  void catalogueCoversEveryCell();
  void dialogPrefillsAnLstmReferenceAndMatches();
};

void ComposerLogicTest::lstm512CountByHand() {
  // 6,144 + (4*512*64 + 4*512^2 + 4*512) + (512*96 + 96) = 1,237,088.
  QCOMPARE(engine::modelParameterCount(oneLayer(CellType::Lstm, 512), kVocab), int64_t{1237088});
  QCOMPARE(engine::modelParameterCount(oneLayer(CellType::Mlstm, 256), kVocab), mlstmTotal(256));
  QCOMPARE(mlstmTotal(256), int64_t{441440});  // docs/model-config.md's worked example
}

void ComposerLogicTest::mlstmMatchedToLstm512IsClosest() {
  const int64_t target = 1237088;
  const ModelConfig model = oneLayer(CellType::Mlstm, 256);
  const int64_t size = engine::sizeLayerToMatch(model, 0, kVocab, target);
  // 5H^2 + 420H + 6,240 = 1,237,088 at H = 455.9: 455 gives 1,232,465 (4,623 short),
  // 456 gives 1,237,440 (352 over).
  QCOMPARE(size, int64_t{456});
  QCOMPARE(mlstmTotal(455), int64_t{1232465});
  QCOMPARE(mlstmTotal(456), int64_t{1237440});
  const w::ParameterMatch match =
      engine::matchParameters(model, 0, engine::SizedSetting::HiddenSize, kVocab, target);
  QCOMPARE(match.size, int64_t{456});
  QCOMPARE(match.total, int64_t{1237440});
  QVERIFY(distance(mlstmTotal(455), target) > distance(match.total, target));
  QVERIFY(distance(mlstmTotal(457), target) > distance(match.total, target));
}

void ComposerLogicTest::matchingEveryCellPicksTheClosestSize() {
  // Two layers, the sized one at the bottom so its width also feeds the layer above.
  for (CellType type : mrnn::engine::allCellTypes()) {
    ModelConfig model = oneLayer(type, 200);
    model.layers[0].rank = 8;
    LayerConfig top;
    top.type = CellType::Gru;
    top.hiddenSize = 128;
    model.layers.push_back(top);
    for (int64_t target : {int64_t{300000}, int64_t{2000000}, int64_t{9876543}}) {
      const w::ParameterMatch match =
          engine::matchParameters(model, 0, engine::SizedSetting::HiddenSize, kVocab, target);
      const auto totalAt = [&](int64_t size) {
        return engine::modelParameterCount(
            engine::withLayerSize(model, 0, engine::SizedSetting::HiddenSize, size), kVocab);
      };
      QCOMPARE(match.total, totalAt(match.size));
      QVERIFY2(match.size > 1, qPrintable(QString::fromStdString(cellTypeName(type))));
      QVERIFY(distance(totalAt(match.size - 1), target) >= distance(match.total, target));
      QVERIFY(distance(totalAt(match.size + 1), target) >= distance(match.total, target));
    }
  }
}

void ComposerLogicTest::matchingMSizeKeepsHidden() {
  const ModelConfig model = oneLayer(CellType::Mlstm, 256);
  // With H = 256 fixed and M free: M*64 + 4*256*64 + M*256 + 4*256*M + 4*256 + 6,144 +
  // 24,672 = 1,344M + 97,376. Target 441,440 (M = 256 exactly).
  const w::ParameterMatch match =
      engine::matchParameters(model, 0, engine::SizedSetting::MSize, kVocab, 441440);
  QCOMPARE(match.size, int64_t{256});
  QCOMPARE(match.total, int64_t{441440});
  const ModelConfig sized = engine::withLayerSize(model, 0, engine::SizedSetting::MSize, 300);
  QCOMPARE(sized.layers[0].hiddenSize, int64_t{256});
  QCOMPARE(sized.layers[0].mSize, int64_t{300});
  QCOMPARE(engine::modelParameterCount(sized, kVocab), int64_t{1344 * 300 + 97376});
}

void ComposerLogicTest::targetsOutOfReachClampToTheRange() {
  const ModelConfig model = oneLayer(CellType::Lstm, 256);
  QCOMPARE(engine::sizeLayerToMatch(model, 0, kVocab, 10), int64_t{1});
  QCOMPARE(engine::sizeLayerToMatch(model, 0, kVocab, std::numeric_limits<int64_t>::max() / 2),
           engine::kMaxLayerWidth);
}

void ComposerLogicTest::matchingRejectsWhatCannotBeSized() {
  const ModelConfig model = oneLayer(CellType::Lstm, 256);
  QVERIFY(!engine::canSize(model, 0, engine::SizedSetting::MSize));
  QVERIFY(engine::canSize(model, 0, engine::SizedSetting::HiddenSize));
  QVERIFY_THROWS_EXCEPTION(
      std::invalid_argument,
      engine::matchParameters(model, 0, engine::SizedSetting::MSize, kVocab, 1000));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine::sizeLayerToMatch(model, 1, kVocab, 1000));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, engine::sizeLayerToMatch(model, 0, 0, 1000));
}

void ComposerLogicTest::layerStackEdits() {
  ModelConfig model = oneLayer(CellType::Lstm, 128);
  model = w::insertLayer(model, 1, CellType::Gru);
  model = w::insertLayer(model, 0, CellType::Rnn);
  QCOMPARE(model.layers.size(), size_t{3});
  QCOMPARE(model.layers[0].type, CellType::Rnn);
  QCOMPARE(model.layers[1].type, CellType::Lstm);
  QCOMPARE(model.layers[2].type, CellType::Gru);
  model.layers[1].hiddenSize = 77;
  model = w::duplicateLayer(model, 1);
  QCOMPARE(model.layers.size(), size_t{4});
  QCOMPARE(model.layers[2].type, CellType::Lstm);
  QCOMPARE(model.layers[2].hiddenSize, int64_t{77});
  model = w::moveLayer(model, 0, 3);  // the RNN to the top
  QCOMPARE(model.layers[3].type, CellType::Rnn);
  QCOMPARE(model.layers[0].type, CellType::Lstm);
  model = w::moveLayer(model, 3, 1);
  QCOMPARE(model.layers[1].type, CellType::Rnn);
  model = w::removeLayer(model, 1);
  QCOMPARE(model.layers.size(), size_t{3});
  QCOMPARE(model.layers[1].type, CellType::Lstm);
  // Out of range: unchanged.
  QCOMPARE(w::removeLayer(model, 7).layers.size(), size_t{3});
  QCOMPARE(w::insertLayer(model, 9, CellType::Gru).layers.size(), size_t{3});
}

void ComposerLogicTest::newLayerTakesItsNeighboursWidth() {
  ModelConfig model = oneLayer(CellType::Lstm, 333);
  QCOMPARE(w::newLayer(model, 1, CellType::Gru).hiddenSize, int64_t{333});  // above
  QCOMPARE(w::newLayer(model, 0, CellType::Gru).hiddenSize, int64_t{333});  // below
  model.layers.clear();
  QCOMPARE(w::newLayer(model, 0, CellType::Gru).hiddenSize, int64_t{256});
}

void ComposerLogicTest::blocksCarryFormulaCounts() {
  // Embedding 64 over 65 symbols, LSTM 128, GRU 64 on top, untied softmax. By hand:
  // input 65*64 = 4,160; LSTM 4*128*64 + 4*128^2 + 4*128 = 98,816;
  // GRU (I = 128) 3*64*128 + 3*64^2 + 3*64 = 37,056; softmax 64*65 + 65 = 4,225.
  ModelConfig model = oneLayer(CellType::Lstm, 128);
  model.input.vocabSize = 65;
  model.layers.push_back(LayerConfig{});
  model.layers[1].type = CellType::Gru;
  model.layers[1].hiddenSize = 64;
  const auto blocks = w::describeBlocks(model, 65);
  QCOMPARE(blocks.size(), size_t{4});
  QCOMPARE(blocks[0].parameters, qint64{4160});
  QCOMPARE(blocks[1].parameters, qint64{98816});
  QCOMPARE(blocks[2].parameters, qint64{37056});
  QCOMPARE(blocks[3].parameters, qint64{4225});
  QCOMPARE(blocks[1].title, QStringLiteral("Layer 1 · LSTM"));
  QCOMPARE(blocks[2].title, QStringLiteral("Layer 2 · GRU"));
  QCOMPARE(blocks[2].inputWidth, qint64{128});
  QCOMPARE(blocks[2].outputWidth, qint64{64});
  QCOMPARE(blocks[3].title, QStringLiteral("Output · softmax"));

  // Vocabulary unknown: the layers (fed by the embedding) are still known, the ends are not.
  model.input.vocabSize = 0;
  const auto partial = w::describeBlocks(model, 0);
  QCOMPARE(partial[0].parameters, qint64{-1});
  QCOMPARE(partial[1].parameters, qint64{98816});
  QCOMPARE(partial[3].parameters, qint64{-1});
}

void ComposerLogicTest::tiedMismatchMarksOutputAndLayer() {
  mrnn::engine::Project project;
  project.model = oneLayer(CellType::Lstm, 128);
  project.model.output.tieEmbeddings = true;
  const auto problems = w::diagnoseProject(project, kVocab);
  QCOMPARE(problems.size(), size_t{1});
  QCOMPARE(problems[0].where, QStringLiteral("Output"));
  QCOMPARE(problems[0].key, QStringLiteral("output.tie_embeddings"));
  QVERIFY(problems[0].reason.contains(QStringLiteral("last layer's width (128)")));
  auto blocks = w::describeBlocks(project.model, kVocab);
  w::markProblems(blocks, problems);
  QCOMPARE(blocks[2].problems.size(), 1);  // output
  QCOMPARE(blocks[1].problems.size(), 1);  // the layer whose width disagrees
  QVERIFY(blocks[0].problems.isEmpty());
  QVERIFY(w::summarizeProblems(problems).startsWith(QStringLiteral("Output: tied embeddings")));

  project.model.layers[0].hiddenSize = 64;
  QVERIFY(w::diagnoseProject(project, kVocab).empty());
}

void ComposerLogicTest::mogrifierRankProblemMarksItsLayer() {
  mrnn::engine::Project project;
  project.model = oneLayer(CellType::Lstm, 128);
  LayerConfig mogrifier;
  mogrifier.type = CellType::Mogrifier;
  mogrifier.hiddenSize = 32;
  mogrifier.rank = 40;  // must be below min(128, 32)
  project.model.layers.push_back(mogrifier);
  const auto problems = w::diagnoseProject(project, kVocab);
  QCOMPARE(problems.size(), size_t{1});
  QCOMPARE(problems[0].blocks, std::vector<int>{2});
  QCOMPARE(problems[0].where, QStringLiteral("Layer 2"));
}

void ComposerLogicTest::emptyStackIsAProblemOfTheModel() {
  mrnn::engine::Project project;
  project.model = oneLayer(CellType::Lstm, 128);
  project.model.layers.clear();
  const auto problems = w::diagnoseProject(project, kVocab);
  QCOMPARE(problems.size(), size_t{1});
  QVERIFY(problems[0].blocks.empty());
  QVERIFY(problems[0].reason.contains(QStringLiteral("at least one recurrent layer")));
  QCOMPARE(w::describeBlocks(project.model, kVocab).size(), size_t{2});
}

// bf16 with the CPU chosen: Start stays off, saying what to change, instead of a run that
// the trainer refuses at once.
void ComposerLogicTest::bf16OnTheCpuIsAProblemOfTraining() {
  mrnn::engine::Project project;
  project.model = oneLayer(CellType::Lstm, 128);
  project.training.bf16 = true;
  const auto problems = w::diagnoseProject(project, kVocab);
  QCOMPARE(problems.size(), size_t{1});
  QVERIFY(problems[0].blocks.empty());
  QCOMPARE(problems[0].key, QStringLiteral("training.bf16"));
  QVERIFY(problems[0].reason.contains(QStringLiteral("device list")));
  project.training.device = "cuda";
  QVERIFY(w::diagnoseProject(project, kVocab).empty());
}

// The defect: three layers of a million units (27 trillion parameters) read "Ready to train";
// only Start said it would need terabytes. The composer says so as the sizes are typed, with
// the memory a run needs beside what this machine has.
void ComposerLogicTest::aModelTooLargeForTheMachineIsAProblem() {
  mrnn::engine::Project project;
  project.model = oneLayer(CellType::Lstm, 1048576);
  const uint64_t gigabytes24 = uint64_t{24} << 30;
  const auto problems = w::diagnoseProject(project, kVocab, gigabytes24);
  QCOMPARE(problems.size(), size_t{1});
  QCOMPARE(problems[0].blocks, std::vector<int>{1});  // the widest layer
  QVERIFY2(problems[0].reason.contains(QStringLiteral("needs about")) &&
               problems[0].reason.contains(QStringLiteral("TB")) &&
               problems[0].reason.contains(QStringLiteral("25.8 GB available")),
           qPrintable(problems[0].reason));
  project.model.layers[0].hiddenSize = 512;
  QVERIFY(w::diagnoseProject(project, kVocab, gigabytes24).empty());
  // On a GPU the host holds the weights only until they move (the GPU's memory is the
  // trainer's to check): 22,000 units fit the host there, not a CPU run's activations.
  project.model.layers[0].hiddenSize = 22000;
  QCOMPARE(w::diagnoseProject(project, kVocab, gigabytes24).size(), size_t{1});
  project.training.device = "cuda";
  QVERIFY(w::diagnoseProject(project, kVocab, gigabytes24).empty());
  project.model.layers[0].hiddenSize = 1048576;
  QCOMPARE(w::diagnoseProject(project, kVocab, gigabytes24).size(), size_t{1});
  QVERIFY(w::diagnoseProject(project, kVocab, 0).empty());  // memory unknown: nothing said
}

void ComposerLogicTest::catalogueCoversEveryCell() {
  QStringList names;
  for (CellType type : mrnn::engine::allCellTypes()) {
    const w::CellInfo& info = w::cellInfo(type);
    QCOMPARE(info.type, type);
    QVERIFY(!info.equations.isEmpty());
    QVERIFY(!w::cellPaper(type).isEmpty());
    QVERIFY(!w::cellSummary(type).contains(QLatin1Char('(')));
    names << info.displayName;
  }
  names.removeDuplicates();
  QCOMPARE(names.size(), 11);
  QCOMPARE(w::cellPaper(CellType::Mlstm), QStringLiteral("Krause et al. 2016, eqs. 17-21"));
  QVERIFY(
      w::cellEquations(CellType::Mlstm).contains(QStringLiteral("mₜ = (W_mx x) ⊙ (W_mh hₜ₋₁)")));
  QVERIFY(w::cellToolTip(CellType::Lstm).contains(QStringLiteral("4HI + 4H^2 + 4H")));
}

void ComposerLogicTest::dialogPrefillsAnLstmReferenceAndMatches() {
  const ModelConfig model = oneLayer(CellType::Mlstm, 256);
  w::MatchParametersDialog dialog(model, kVocab, 0);
  // Prefilled: the same model with an LSTM of 256 units: 6,144 + 328,704 + 24,672.
  QCOMPARE(dialog.target(), int64_t{359520});
  QCOMPARE(dialog.referenceCount(CellType::Lstm, 256), int64_t{359520});
  QCOMPARE(dialog.match().size, engine::sizeLayerToMatch(model, 0, kVocab, 359520));

  dialog.setReference(CellType::Lstm, 512);
  QCOMPARE(dialog.target(), int64_t{1237088});
  QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("target"))->text(),
           QStringLiteral("1,237,088"));
  QCOMPARE(dialog.match().size, int64_t{456});
  QCOMPARE(dialog.match().total, int64_t{1237440});
  QCOMPARE(dialog.result().layers[0].hiddenSize, int64_t{456});
  const QString result = dialog.findChild<QLabel*>(QStringLiteral("result"))->text();
  QVERIFY2(result.contains(QStringLiteral("456")) && result.contains(QStringLiteral("1,237,440")),
           qPrintable(result));

  // Typed target with m size chosen.
  dialog.setSetting(engine::SizedSetting::MSize);
  QCOMPARE(dialog.setting(), engine::SizedSetting::MSize);
  dialog.findChild<QLineEdit*>(QStringLiteral("target"))->setText(QStringLiteral("441440"));
  QCOMPARE(dialog.match().size, int64_t{256});
  QCOMPARE(dialog.result().layers[0].mSize, int64_t{256});
  QCOMPARE(dialog.result().layers[0].hiddenSize, int64_t{256});
}

QTEST_MAIN(ComposerLogicTest)
#include "test_composer_logic.moc"
