// Renders the composer offscreen at a typical window size and saves PNGs next to the test
// binary (composer.png, composer-invalid.png, composer-three-layers.png, yaml-view.png,
// match-parameters.png) to be
// looked at; checks the layout a user would notice: blocks inside the visible canvas, none
// overlapping, the inspector and palette readable.

#include <QDir>
#include <QImage>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QTest>

#include "widgets/composer/cell_palette.h"
#include "widgets/composer/composer_canvas.h"
#include "widgets/composer/composer_panel.h"
#include "widgets/composer/match_parameters_dialog.h"
#include "widgets/composer/yaml_view.h"
#include "widgets/project/project_document.h"

namespace {

using mrnn::engine::CellType;
using mrnn::widgets::ComposerPanel;
using mrnn::widgets::ProjectDocument;

const QString kQuickProject = QStringLiteral(MRNN_PROJECTS_DIR "/quick-mlstm/project.yaml");

// The quick template reads its vocabulary from the corpus; 96 symbols is what the data panel
// would report (ProjectDocument::setCorpusVocabulary), and what the counts below assume.
void loadQuick(ProjectDocument& document) {
  document.load(kQuickProject);
  document.setCorpusVocabulary(96);
}

QString outputPath(const QString& name) {
  return QDir(QStringLiteral(MRNN_SCREENSHOT_DIR)).filePath(name);
}

// Blocks lie inside the canvas's visible width and do not overlap.
void checkLayout(const ComposerPanel& panel) {
  const auto* scroll = panel.findChild<QScrollArea*>(QStringLiteral("canvasScroll"));
  QVERIFY(scroll);
  const int visibleWidth = scroll->viewport()->width();
  for (int i = 0; i < panel.blockCount(); ++i) {
    const QRect rect = panel.canvas()->blockRect(i);
    QVERIFY2(rect.left() >= 0 && rect.right() < visibleWidth,
             qPrintable(QStringLiteral("block %1 outside the visible canvas").arg(i)));
    if (i > 0) QVERIFY(panel.canvas()->blockRect(i - 1).bottom() < rect.top());
  }
}

QImage render(QWidget& widget, const QString& name) {
  widget.resize(1100, 700);
  widget.show();
  QTest::qWait(50);  // layouts settle
  const QImage image = widget.grab().toImage();
  image.save(outputPath(name));
  return image;
}

}  // namespace

class ComposerScreenshotTest : public QObject {
  Q_OBJECT

 private slots:
  void quickProject();
  void invalidTie();
  void threeLayers();
  void yamlViewWithError();
  void matchParametersDialog();
};

void ComposerScreenshotTest::quickProject() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  const QImage image = render(panel, QStringLiteral("composer.png"));
  QCOMPARE(image.size(), QSize(1100, 700) * panel.devicePixelRatioF());
  checkLayout(panel);
  // The palette shows every cell without a scroll bar at this height, or nearly: at least
  // eight whole entries.
  const auto* palette = panel.palette();
  const int entryHeight = palette->visualItemRect(palette->item(0)).height();
  QVERIFY(palette->viewport()->height() / entryHeight >= 8);
}

void ComposerScreenshotTest::invalidTie() {
  ProjectDocument document;
  loadQuick(document);
  auto model = document.project().model;
  model.output.tieEmbeddings = true;
  document.editModel(model, QStringLiteral("Tie"));
  ComposerPanel panel(document);
  panel.selectBlock(2);
  render(panel, QStringLiteral("composer-invalid.png"));
  QVERIFY(!panel.isModelValid());
  checkLayout(panel);
}

void ComposerScreenshotTest::threeLayers() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  panel.addLayer(CellType::Mogrifier, 1);
  panel.addLayer(CellType::Gru, 2);
  panel.selectBlock(2);
  render(panel, QStringLiteral("composer-three-layers.png"));
  QCOMPARE(panel.blockCount(), 5);
  checkLayout(panel);
}

void ComposerScreenshotTest::yamlViewWithError() {
  ProjectDocument document;
  loadQuick(document);
  mrnn::widgets::YamlView view(document);
  QString text = view.editor()->toPlainText();
  text.replace(QStringLiteral("      m_size: 256\n"),
               QStringLiteral("      m_size: 256\n      rounds: 3\n"));
  QTextCursor cursor(view.editor()->document());
  cursor.select(QTextCursor::Document);
  cursor.insertText(text);
  QVERIFY(!view.applyNow());
  const QImage image = render(view, QStringLiteral("yaml-view.png"));
  QVERIFY(!image.isNull());
}

void ComposerScreenshotTest::matchParametersDialog() {
  ProjectDocument document;
  loadQuick(document);
  mrnn::widgets::MatchParametersDialog dialog(document.project().model, document.vocabularySize(),
                                              0);
  dialog.setReference(CellType::Lstm, 512);
  dialog.show();
  QTest::qWait(50);
  dialog.grab().save(outputPath(QStringLiteral("match-parameters.png")));
  QCOMPARE(dialog.match().size, int64_t{742});
}

QTEST_MAIN(ComposerScreenshotTest)
#include "test_composer_screenshot.moc"
