// ModelSummaryPanel against hand-computed parameter counts.

#include <QFont>
#include <QTableWidget>
#include <QTest>

#include "engine/config/project_file.h"
#include "widgets/model_summary_panel.h"

namespace {

using mrnn::widgets::ModelSummaryPanel;

// Character level, 65 symbols embedded in 64 dimensions, one 128-unit LSTM, untied softmax.
const char* const kLstmProject = R"(name: Tiny LSTM
description: One LSTM layer for the panel test.
model:
  input:
    level: char
    embedding_size: 64
    vocab_size: 65
  layers:
    - type: lstm
      hidden_size: 128
  output:
    type: softmax
    tie_embeddings: false
)";

// LSTM: 4HI + 4H^2 + 4H with I = 64, H = 128.
constexpr qint64 kLayerParameters = 4 * 128 * 64 + 4 * 128 * 128 + 4 * 128;  // 98,816
constexpr qint64 kEmbeddingParameters = 65 * 64;                             // 4,160
constexpr qint64 kOutputParameters = 128 * 65 + 65;                          // 8,385
constexpr qint64 kTotalParameters =
    kEmbeddingParameters + kLayerParameters + kOutputParameters;  // 111,361

QString cell(const ModelSummaryPanel& panel, int row, int column) {
  const QTableWidgetItem* item = panel.table()->item(row, column);
  return item ? item->text() : QStringLiteral("<no item>");
}

}  // namespace

class ModelSummaryPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void countsMatchTheFormulas();
  void numbersAreRightAlignedAndTotalIsBold();
  void layerTooltipNamesPaperAndFormula();
  void errorReplacesTheTable();
  void projectAfterErrorShowsTheTableAgain();
  void unknownVocabularyShowsAMessage();
  void byteInputHas256Symbols();
  void aNarrowDockWrapsTheTextInsteadOfCuttingIt();
};

void ModelSummaryPanelTest::countsMatchTheFormulas() {
  QCOMPARE(kLayerParameters, qint64{98816});
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(kLstmProject));

  QCOMPARE(panel.rowCount(), 4);  // input, layer 1, output, total
  QCOMPARE(panel.table()->columnCount(), 6);
  QVERIFY(panel.message().isEmpty());

  QCOMPARE(cell(panel, 0, ModelSummaryPanel::Block), QStringLiteral("input"));
  QCOMPARE(cell(panel, 0, ModelSummaryPanel::Parameters), QStringLiteral("4,160"));
  QCOMPARE(cell(panel, 1, ModelSummaryPanel::Block), QStringLiteral("layer 1"));
  QCOMPARE(cell(panel, 1, ModelSummaryPanel::Type), QStringLiteral("lstm"));
  QCOMPARE(cell(panel, 1, ModelSummaryPanel::In), QStringLiteral("64"));
  QCOMPARE(cell(panel, 1, ModelSummaryPanel::Out), QStringLiteral("128"));
  QCOMPARE(cell(panel, 1, ModelSummaryPanel::Parameters), QStringLiteral("98,816"));
  QCOMPARE(cell(panel, 2, ModelSummaryPanel::Block), QStringLiteral("output"));
  QCOMPARE(cell(panel, 2, ModelSummaryPanel::Parameters), QStringLiteral("8,385"));
  QCOMPARE(cell(panel, 3, ModelSummaryPanel::Block), QStringLiteral("total"));
  QCOMPARE(cell(panel, 3, ModelSummaryPanel::Parameters), QStringLiteral("111,361"));
  QCOMPARE(panel.totalParameters(), kTotalParameters);
}

void ModelSummaryPanelTest::numbersAreRightAlignedAndTotalIsBold() {
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(kLstmProject));
  for (int row = 0; row < panel.rowCount(); ++row) {
    const QTableWidgetItem* count = panel.table()->item(row, ModelSummaryPanel::Parameters);
    QVERIFY(count);
    QVERIFY(count->textAlignment() & Qt::AlignRight);
    QCOMPARE(count->font().bold(), row == panel.rowCount() - 1);
  }
}

void ModelSummaryPanelTest::layerTooltipNamesPaperAndFormula() {
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(kLstmProject));
  for (int column = 0; column < ModelSummaryPanel::ColumnCount; ++column) {
    const QString tip = panel.table()->item(1, column)->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("Krause")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("4HI + 4H^2 + 4H")), qPrintable(tip));
  }
}

void ModelSummaryPanelTest::errorReplacesTheTable() {
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(kLstmProject));
  const QString error = QStringLiteral("project.yaml:7:5: model.layers[0].type: unknown cell type");
  panel.showError(error);
  QCOMPARE(panel.rowCount(), 0);
  QCOMPARE(panel.totalParameters(), qint64{0});
  QCOMPARE(panel.message(), error);
}

void ModelSummaryPanelTest::projectAfterErrorShowsTheTableAgain() {
  ModelSummaryPanel panel;
  panel.showError(QStringLiteral("broken"));
  panel.showProject(mrnn::engine::parseProject(kLstmProject));
  QCOMPARE(panel.rowCount(), 4);
  QVERIFY(panel.message().isEmpty());
}

void ModelSummaryPanelTest::unknownVocabularyShowsAMessage() {
  QString text = QString::fromLatin1(kLstmProject);
  text.remove(QStringLiteral("    vocab_size: 65\n"));
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(text.toStdString()));
  QCOMPARE(panel.rowCount(), 0);
  QCOMPARE(panel.totalParameters(), qint64{0});
  QVERIFY2(
      panel.message().contains(QStringLiteral("vocabulary size not known"), Qt::CaseInsensitive),
      qPrintable(panel.message()));
}

void ModelSummaryPanelTest::byteInputHas256Symbols() {
  QString text = QString::fromLatin1(kLstmProject);
  text.remove(QStringLiteral("    vocab_size: 65\n"));
  text.replace(QStringLiteral("level: char"), QStringLiteral("level: byte"));
  ModelSummaryPanel panel;
  panel.showProject(mrnn::engine::parseProject(text.toStdString()));
  QCOMPARE(panel.rowCount(), 4);
  QCOMPARE(cell(panel, 0, ModelSummaryPanel::In), QStringLiteral("256"));
  QCOMPARE(panel.totalParameters(), qint64{256 * 64 + kLayerParameters + 128 * 256 + 256});
}

void ModelSummaryPanelTest::aNarrowDockWrapsTheTextInsteadOfCuttingIt() {
  // The right-hand dock of a 1280-pixel window is about 250 pixels wide: a long project name
  // and description wrap there rather than setting a width the dock then cuts off.
  mrnn::engine::Project project = mrnn::engine::parseProject(kLstmProject);
  project.name = "Quick character-level multiplicative LSTM on fortunes";
  project.description = "A long description, of many words, that has to wrap in a narrow dock.";
  ModelSummaryPanel panel;
  panel.showProject(project);
  QVERIFY2(panel.minimumSizeHint().width() <= 250,
           qPrintable(QString::number(panel.minimumSizeHint().width())));
}

QTEST_MAIN(ModelSummaryPanelTest)
#include "test_model_summary_panel.moc"
