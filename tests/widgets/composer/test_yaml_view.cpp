// YamlView and the composer as two views of one document: text edits reach the canvas,
// canvas edits reach the text, invalid text is located and changes nothing.

#include <QLabel>
#include <QPlainTextEdit>
#include <QTest>
#include <QTextBlock>
#include <QUndoStack>

#include "engine/config/project_file.h"
#include "widgets/composer/composer_panel.h"
#include "widgets/composer/yaml_view.h"
#include "widgets/monospace_font.h"
#include "widgets/project/project_document.h"

namespace {

using mrnn::engine::CellType;
using mrnn::widgets::ComposerPanel;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::YamlView;

const QString kQuickProject = QStringLiteral(MRNN_PROJECTS_DIR "/quick-mlstm/project.yaml");

// The quick template reads its vocabulary from the corpus; 96 symbols is what the data panel
// would report (ProjectDocument::setCorpusVocabulary), and what the counts below assume.
void loadQuick(ProjectDocument& document) {
  document.load(kQuickProject);
  document.setCorpusVocabulary(96);
}

// The project as its file's text, the owner's comments and layout included.
QString documentYaml(const ProjectDocument& document) {
  return QString::fromStdString(document.text());
}

// 1-based number of the first line of `text` that contains `needle`.
int lineOf(const QString& text, const QString& needle) {
  const QStringList lines = text.split(QLatin1Char('\n'));
  for (int i = 0; i < lines.size(); ++i) {
    if (lines[i].contains(needle)) return i + 1;
  }
  return 0;
}

// Replaces the editor's whole text the way typing would: through its cursor, so it is the
// user's edit (not the view's own refresh).
void typeText(QPlainTextEdit* editor, const QString& text) {
  QTextCursor cursor(editor->document());
  cursor.select(QTextCursor::Document);
  cursor.insertText(text);
}

}  // namespace

class YamlViewTest : public QObject {
  Q_OBJECT

 private slots:
  void showsTheProject();
  void textEditReachesTheCanvasAfterThePause();
  void canvasEditReachesTheText();
  void invalidTextIsLocatedAndChangesNothing();
  void syntaxErrorIsLocated();
  void revertDropsTheDraft();
  void refreshKeepsTheCursorLine();
};

void YamlViewTest::showsTheProject() {
  ProjectDocument document;
  loadQuick(document);
  YamlView view(document);
  QCOMPARE(view.editor()->toPlainText(), documentYaml(document));
  QVERIFY(!view.hasError());
  // What is drawn, not what the font claims: one advance for every character, whatever
  // font packages the machine has.
  QVERIFY2(mrnn::widgets::drawsMonospaced(view.editor()->font()),
           qPrintable(QFontInfo(view.editor()->font()).family()));
}

void YamlViewTest::textEditReachesTheCanvasAfterThePause() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  YamlView view(document);
  QString text = view.editor()->toPlainText();
  QVERIFY(text.contains(QStringLiteral("hidden_size: 256")));
  text.replace(QStringLiteral("hidden_size: 256"), QStringLiteral("hidden_size: 128"));
  typeText(view.editor(), text);
  // Not before the pause...
  QCOMPARE(document.project().model.layers[0].hiddenSize, int64_t{256});
  // ...but after it.
  QTRY_COMPARE_WITH_TIMEOUT(document.project().model.layers[0].hiddenSize, int64_t{128},
                            YamlView::kDebounceMs * 5);
  QVERIFY(!view.hasError());
  // mLSTM, H = 128, M = 256 (m_size stays), I = 64:
  // 256*64 + 4*128*64 + 256*128 + 4*128*256 + 4*128 = 213,504.
  QCOMPARE(panel.blockParameters(1), qint64{213504});
  QCOMPARE(document.undoStack()->count(), 1);
  QCOMPARE(document.undoStack()->undoText(), QStringLiteral("Edit YAML"));
  // The folder is not in the text; the edit keeps it.
  QVERIFY(!document.project().folder.empty());

  document.undoStack()->undo();
  QCOMPARE(panel.blockParameters(1), qint64{410624});
  QCOMPARE(view.editor()->toPlainText(), documentYaml(document));
}

void YamlViewTest::canvasEditReachesTheText() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  YamlView view(document);
  QVERIFY(!view.editor()->toPlainText().contains(QStringLiteral("type: gru")));
  panel.addLayer(CellType::Gru, 1);
  QVERIFY(view.editor()->toPlainText().contains(QStringLiteral("type: gru")));
  QCOMPARE(view.editor()->toPlainText(), documentYaml(document));
  panel.selectBlock(1);
  panel.deleteSelectedLayer();
  QVERIFY(!view.editor()->toPlainText().contains(QStringLiteral("type: mlstm")));
  document.undoStack()->undo();
  document.undoStack()->undo();
  QCOMPARE(view.editor()->toPlainText(), documentYaml(document));
  QVERIFY(!view.editor()->toPlainText().contains(QStringLiteral("type: gru")));
}

void YamlViewTest::invalidTextIsLocatedAndChangesNothing() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  YamlView view(document);
  const QString before = documentYaml(document);
  // `rounds` belongs to the Mogrifier only.
  QString text = before;
  text.replace(QStringLiteral("      m_size: 256\n"),
               QStringLiteral("      m_size: 256\n      rounds: 3\n"));
  QVERIFY(text != before);
  typeText(view.editor(), text);
  QVERIFY(!view.applyNow());

  QVERIFY(view.hasError());
  const int line = lineOf(text, QStringLiteral("rounds: 3"));
  QVERIFY(line > 0);
  QCOMPARE(view.errorLine(), line);
  QCOMPARE(view.errorText(),
           QStringLiteral("%1:7: model.layers[0].rounds: does not apply to cell type 'mlstm'")
               .arg(line));
  auto* bar = view.findChild<QLabel*>(QStringLiteral("yamlError"));
  QVERIFY(bar->text().contains(QStringLiteral("model.layers[0].rounds")));
  const QList<QTextEdit::ExtraSelection> marks = view.editor()->extraSelections();
  QCOMPARE(marks.size(), 1);
  QCOMPARE(marks.front().cursor.blockNumber(), line - 1);

  // The document and the canvas are untouched; the text stays for the user to fix.
  QCOMPARE(documentYaml(document), before);
  QCOMPARE(document.undoStack()->count(), 0);
  QCOMPARE(panel.blockTitle(1), QStringLiteral("Layer 1 · mLSTM"));
  QCOMPARE(view.editor()->toPlainText(), text);

  // Settings that clash only with each other are taken, as the composer's checkbox takes
  // them: the composer names the problem and the model cannot train until it is fixed.
  text = before;
  QVERIFY(text.contains(QStringLiteral("    type: softmax\n")));
  text.replace(QStringLiteral("    type: softmax\n"),
               QStringLiteral("    type: softmax\n    tie_embeddings: true\n"));
  typeText(view.editor(), text);
  QVERIFY(view.applyNow());
  QVERIFY(!view.hasError());
  QVERIFY(view.editor()->extraSelections().isEmpty());
  QVERIFY(document.project().model.output.tieEmbeddings);
  QVERIFY(!panel.isModelValid());
  QVERIFY2(panel.problemSummary().contains(QStringLiteral("tied embeddings")),
           qPrintable(panel.problemSummary()));

  // Fixing the text applies it and clears the problem.
  text.replace(QStringLiteral("hidden_size: 256"), QStringLiteral("hidden_size: 64"));
  typeText(view.editor(), text);
  QVERIFY(view.applyNow());
  QVERIFY(!view.hasError());
  QVERIFY(document.project().model.output.tieEmbeddings);
  QCOMPARE(document.project().model.layers[0].hiddenSize, int64_t{64});
  QVERIFY(panel.isModelValid());
}

void YamlViewTest::syntaxErrorIsLocated() {
  ProjectDocument document;
  loadQuick(document);
  YamlView view(document);
  const QString before = documentYaml(document);
  QString text = before;
  text.replace(QStringLiteral("  layers:\n"), QStringLiteral("  layers: [\n"));
  typeText(view.editor(), text);
  QTRY_VERIFY_WITH_TIMEOUT(view.hasError(), YamlView::kDebounceMs * 5);
  QVERIFY2(view.errorText().contains(QStringLiteral("YAML syntax error")),
           qPrintable(view.errorText()));
  QVERIFY(view.errorLine() > 0);
  QCOMPARE(documentYaml(document), before);
}

void YamlViewTest::revertDropsTheDraft() {
  ProjectDocument document;
  loadQuick(document);
  YamlView view(document);
  typeText(view.editor(), QStringLiteral("model: [unclosed\n"));
  QVERIFY(!view.applyNow());
  view.revert();
  QVERIFY(!view.hasError());
  QCOMPARE(view.editor()->toPlainText(), documentYaml(document));
}

void YamlViewTest::refreshKeepsTheCursorLine() {
  ProjectDocument document;
  loadQuick(document);
  ComposerPanel panel(document);
  YamlView view(document);
  QTextCursor cursor(view.editor()->document()->findBlockByNumber(12));
  cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 3);
  view.editor()->setTextCursor(cursor);
  panel.addLayer(CellType::Lstm, 1);  // the text grows below the input section
  QCOMPARE(view.editor()->textCursor().blockNumber(), 12);
  QCOMPARE(view.editor()->textCursor().positionInBlock(), 3);
}

QTEST_MAIN(YamlViewTest)
#include "test_yaml_view.moc"
