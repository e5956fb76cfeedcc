// What a user has typed and not saved survives what the window cannot ask about: a signal to
// quit (a logout's SIGTERM), a crash, text that does not read yet. Kept edits come back in the
// next window; a new project, never saved, too; what the user discards stays discarded.

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include "app/gui/main_window.h"
#include "engine/config/kept_edits.h"
#include "engine/io/fnv1a.h"
#include "widgets/composer/yaml_view.h"
#include "widgets/project/project_document.h"
#include "window_test_support.h"

using mrnn::test::answerNextBox;
using mrnn::test::click;
using mrnn::test::editThenQuitOnSignal;
using mrnn::test::quitOnSignal;
using mrnn::test::saveAnswering;
using mrnn::test::writeFile;

namespace {

// Opens `path` in `window`, which keeps edits in `kept`, and waits for the question `box`
// (keptEditsBox, keptElsewhereBox) that offers kept edits back; null when none came.
QMessageBox* openAndAwaitOffer(mrnn::app::MainWindow& window, const QString& kept,
                               const QString& path, const QString& box) {
  window.keepUnsavedEditsIn(kept);
  if (!window.openProject(path)) return nullptr;
  window.show();
  QMessageBox* offer = nullptr;
  for (int waited = 0; waited < 5000 && offer == nullptr; waited += 20) {
    QTest::qWait(20);
    offer = window.findChild<QMessageBox*>(box);
  }
  return offer;
}

// A window edits <folder>/before/project.yaml's hidden size and is told to quit (the edits are
// kept, not saved); the folder is then renamed "after". The project's path before.
// With `typed`, the window's edit is that text typed in the YAML view, not reading yet.
QString keepEditsThenMoveTheFolder(const QTemporaryDir& folder, const QString& kept, int hidden,
                                   const QString& typed = QString()) {
  QDir().mkpath(folder.filePath(QStringLiteral("before")));
  const QString path = folder.filePath(QStringLiteral("before/project.yaml"));
  writeFile(path,
            "name: moved away\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: "
            "40}\n  layers:\n    - {type: lstm, hidden_size: 16}\n");
  {
    mrnn::app::MainWindow window(false);
    window.keepUnsavedEditsIn(kept);
    if (!window.openProject(path)) qFatal("%s", qPrintable(window.statusText()));
    window.show();
    if (typed.isEmpty()) {
      editThenQuitOnSignal(window, hidden);
    } else {
      window.yamlView()->editor()->setPlainText(typed);
      window.yamlView()->applyNow();
      quitOnSignal(window);
    }
  }
  QDir(folder.path()).rename(QStringLiteral("before"), QStringLiteral("after"));
  return path;
}

}  // namespace

class UnsavedWorkTest : public QObject {
  Q_OBJECT

 private slots:
  // The defect: a signal to quit (a logout's SIGTERM, `kill`) closed the window with the
  // project's unsaved edits nowhere: nobody could be asked, and they were gone. Now they are
  // kept outside the project, and the next window to open it offers them back.
  void unsavedEditsOutliveASignalToQuit() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    const QByteArray original =
        "name: kept\n# the researcher's note\nmodel:\n  input: {level: char, embedding_size: 8, "
        "vocab_size: 40}\n  layers:\n    - {type: lstm, hidden_size: 16}\n";
    writeFile(path, original);
    {
      mrnn::app::MainWindow window(false);
      window.keepUnsavedEditsIn(kept.path());
      QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
      window.show();
      editThenQuitOnSignal(window, 24);
    }
    QFile onDisk(path);
    QVERIFY(onDisk.open(QIODevice::ReadOnly));
    QCOMPARE(onDisk.readAll(), original);  // kept, not saved

    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), path, QStringLiteral("keptEditsBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    click(offer, QStringLiteral("Restore"));
    mrnn::widgets::ProjectDocument& document = again.document();
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{24});
    QVERIFY(document.isModified());
    QVERIFY(QString::fromStdString(document.text()).contains(QStringLiteral("researcher's note")));
    document.undoStack()->undo();  // the file's text again
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{16});
    document.undoStack()->redo();
    QCOMPARE(saveAnswering(again, QString(), QString()), QString());
    QVERIFY(!document.isModified());
    QVERIFY2(QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files).isEmpty(),
             "a save leaves nothing kept to offer again");
  }

  // Kept edits that no longer read as a project (edited by hand, an older workbench's): the
  // window keeps the file's text, says why, and sets them aside where no new edit writes.
  void keptEditsThatDoNotReadAreSetAsideNotLost() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    writeFile(path,
              "name: aside\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
              "  layers:\n    - {type: lstm, hidden_size: 16}\n");
    mrnn::engine::KeptEdits edits;
    edits.project = QFileInfo(path).absoluteFilePath().toStdString();
    edits.keptAt = "2026-12-07T18:40:00Z";
    edits.text = "name: aside\nmodel:\n  layers: [\n";
    const QString name =
        QString::number(static_cast<qulonglong>(mrnn::engine::fnv1a(edits.project)), 16)
            .rightJustified(16, QLatin1Char('0'));
    writeFile(QDir(kept.path()).filePath(name + QStringLiteral(".kept-edits")),
              QByteArray::fromStdString(mrnn::engine::keptEditsFileText(edits)));
    mrnn::app::MainWindow window(false);
    window.keepUnsavedEditsIn(kept.path());
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    QMessageBox* offer = nullptr;
    QTRY_VERIFY((offer = window.findChild<QMessageBox*>(QStringLiteral("keptEditsBox"))));
    QString warned;
    answerNextBox(window, QStringLiteral("OK"), &warned);
    click(offer, QStringLiteral("Restore"));
    QVERIFY2(warned.contains(QStringLiteral("do not read as a project")) &&
                 warned.contains(QStringLiteral("Line 4 of the project's text")),
             qPrintable(warned));
    QCOMPARE(window.document().project().model.layers.at(0).hiddenSize, int64_t{16});
    const QStringList aside =
        QDir(kept.path()).entryList({QStringLiteral("*.unreadable-*")}, QDir::Files);
    QCOMPARE(aside.size(), 1);
    QVERIFY(warned.contains(aside.at(0)));
    // A new edit is kept beside them, not over them.
    mrnn::engine::ModelConfig model = window.document().project().model;
    model.layers.at(0).hiddenSize = 24;
    window.document().editModel(model, QStringLiteral("Set hidden size"));
    QTRY_COMPARE_WITH_TIMEOUT(
        QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files).size(), 1, 5000);
    QFile setAside(QDir(kept.path()).filePath(aside.at(0)));
    QVERIFY(setAside.open(QIODevice::ReadOnly));
    QVERIFY(setAside.readAll().endsWith("  layers: [\n"));
  }

  // A new project from a template, never saved, outlives a signal to quit too: the next
  // window to start offers it.
  void aNewProjectOutlivesASignalToQuit() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString recipe = folder.filePath(QStringLiteral("recipe.yaml"));
    writeFile(recipe,
              "name: from a recipe\nmodel:\n  input: {level: char, embedding_size: 8, "
              "vocab_size: 40}\n  layers:\n    - {type: lstm, hidden_size: 16}\n");
    const QString other = folder.filePath(QStringLiteral("other/project.yaml"));
    QVERIFY(QDir().mkpath(folder.filePath(QStringLiteral("other"))));
    writeFile(other,
              "name: other\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
              "  layers:\n    - {type: gru, hidden_size: 8}\n");
    {
      mrnn::app::MainWindow window(false);
      window.keepUnsavedEditsIn(kept.path());
      window.document().loadTemplate(recipe);
      window.show();
      editThenQuitOnSignal(window, 72);
    }
    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), other, QStringLiteral("keptElsewhereBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    click(offer, QStringLiteral("Open It"));
    mrnn::widgets::ProjectDocument& document = again.document();
    QVERIFY(document.isUntitled());
    QVERIFY(document.isModified());
    QCOMPARE(QString::fromStdString(document.project().name), QStringLiteral("from a recipe"));
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{72});
  }

  // The defect: edits kept for a project whose file then went (its folder renamed, a branch
  // checked out without it, a drive not mounted) were offered only by a window opening that
  // very path, so nothing ever offered them again. Now the next window to start offers them.
  void editsKeptForAProjectThatWentAreOfferedAtTheNextStart() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString before = keepEditsThenMoveTheFolder(folder, kept.path(), 56);
    writeFile(folder.filePath(QStringLiteral("elsewhere.yaml")),
              "name: another\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: "
              "40}\n  layers:\n    - {type: gru, hidden_size: 8}\n");
    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), folder.filePath(QStringLiteral("elsewhere.yaml")),
                          QStringLiteral("keptElsewhereBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    QVERIFY2(offer->text().contains(QDir::toNativeSeparators(before)), qPrintable(offer->text()));
    QVERIFY2(!offer->informativeText().contains(QStringLiteral("Restore Here")),
             "another project's text: the edits are not its own");
    click(offer, QStringLiteral("Open It"));
    mrnn::widgets::ProjectDocument& document = again.document();
    QVERIFY(document.isUntitled());
    QVERIFY(document.isModified());
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{56});
    // Kept now as this window's new project, the old file gone: offered once, not twice.
    const auto keptNames = [&] {
      return QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files);
    };
    QTRY_COMPARE_WITH_TIMEOUT(keptNames().size(), 1, 5000);
    QVERIFY(keptNames().at(0).startsWith(QStringLiteral("new-")));
  }

  // The project opened where it went, its text the one the edits began from: they go back
  // into it, unsaved, as they would have at its old path.
  void editsKeptForAMovedProjectGoBackIntoItWhereItIsNow() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    keepEditsThenMoveTheFolder(folder, kept.path(), 40);
    const QString now = folder.filePath(QStringLiteral("after/project.yaml"));
    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), now, QStringLiteral("keptElsewhereBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    click(offer, QStringLiteral("Restore Here"));
    mrnn::widgets::ProjectDocument& document = again.document();
    QCOMPARE(QFileInfo(document.path()).canonicalFilePath(), QFileInfo(now).canonicalFilePath());
    QVERIFY(document.isModified());
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{40});
    QCOMPARE(saveAnswering(again, QString(), QString()), QString());
    QVERIFY(QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files).isEmpty());
  }

  // The same for text typed in the YAML view that did not read yet: back there, as typed.
  void aDraftKeptForAMovedProjectGoesBackIntoTheYamlView() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString typed = QStringLiteral("name: moved away\nmodel: [\n");
    keepEditsThenMoveTheFolder(folder, kept.path(), 0, typed);
    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), folder.filePath(QStringLiteral("after/project.yaml")),
                          QStringLiteral("keptElsewhereBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    click(offer, QStringLiteral("Restore Here"));
    QCOMPARE(again.yamlView()->editor()->toPlainText(), typed);
    QVERIFY(again.yamlView()->hasError());
    QVERIFY(!again.document().isUntitled());
  }

  // The defect: Open It on text typed in the YAML view that did not read yet, kept for a
  // project whose file went, said it "does not read as a project" and left it in the kept
  // file, where no window could show it. Now a new project opens with the text in its YAML
  // view, as typed, its problem shown, for the project to take once it reads.
  void aDraftKeptForAProjectThatWentOpensInANewProject() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString typed = QStringLiteral("name: moved away\nmodel: [\n");
    keepEditsThenMoveTheFolder(folder, kept.path(), 0, typed);
    const QString elsewhere = folder.filePath(QStringLiteral("elsewhere.yaml"));
    writeFile(elsewhere,
              "name: another\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: "
              "40}\n  layers:\n    - {type: gru, hidden_size: 8}\n");
    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), elsewhere, QStringLiteral("keptElsewhereBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    QString refused;
    answerNextBox(again, QStringLiteral("OK"), &refused);  // the old refusal, if it comes
    click(offer, QStringLiteral("Open It"));
    QVERIFY2(refused.isEmpty(), qPrintable(refused));
    QVERIFY(again.document().isUntitled());
    QCOMPARE(again.yamlView()->editor()->toPlainText(), typed);
    QTRY_VERIFY(again.yamlView()->hasError());
    // Kept now under this window's new project, the moved project's kept file gone.
    const auto keptNames = [&] {
      return QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files);
    };
    QTRY_COMPARE_WITH_TIMEOUT(keptNames().size(), 1, 5000);
    QVERIFY(keptNames().at(0).startsWith(QStringLiteral("new-")));
    // Once it reads, the project is the typed text.
    again.yamlView()->editor()->setPlainText(
        QStringLiteral("name: moved away\nmodel:\n  input: {level: char, embedding_size: 8, "
                       "vocab_size: 40}\n  layers:\n    - {type: lstm, hidden_size: 24}\n"));
    QVERIFY(again.yamlView()->applyNow());
    QCOMPARE(QString::fromStdString(again.document().project().name), QStringLiteral("moved away"));
    QCOMPARE(again.document().project().model.layers.at(0).hiddenSize, int64_t{24});
  }

  // The defect: text typed in the YAML view that did not read as a project yet (a list half
  // typed) was lost to a signal to quit: the terminal said so, and only the project's last
  // edits that read were kept. Now the text is kept as typed, and Restore puts it back there.
  void textThatDoesNotReadYetOutlivesASignalToQuit() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    const QByteArray original =
        "name: typed\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
        "  layers:\n    - {type: lstm, hidden_size: 16}\n";
    writeFile(path, original);
    const QString typed = QStringLiteral(
        "name: typed\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
        "  layers:\n    - {type: lstm, hidden_size: 16}\n    - {type: gru, hidden_");
    {
      mrnn::app::MainWindow window(false);
      window.keepUnsavedEditsIn(kept.path());
      QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      window.yamlView()->editor()->setPlainText(typed);
      QVERIFY(!window.yamlView()->applyNow());
      quitOnSignal(window);
    }
    QFile onDisk(path);
    QVERIFY(onDisk.open(QIODevice::ReadOnly));
    QCOMPARE(onDisk.readAll(), original);

    mrnn::app::MainWindow again(false);
    QMessageBox* offer =
        openAndAwaitOffer(again, kept.path(), path, QStringLiteral("keptEditsBox"));
    QVERIFY2(offer, qPrintable(again.statusText()));
    QVERIFY2(offer->text().contains(QStringLiteral("YAML view")), qPrintable(offer->text()));
    click(offer, QStringLiteral("Restore"));
    QCOMPARE(again.yamlView()->editor()->toPlainText(), typed);
    QTRY_VERIFY(again.yamlView()->hasError());  // shown as typed, its problem beside it
    QVERIFY(!again.document().isModified());    // nothing of it is in the project yet
  }

  // The defect: text typed in the YAML view that did not read as a project yet (a colon
  // missing, a list half typed) went without a word when the window closed or another project
  // opened: the document had no unsaved edits, so nothing asked. Now closing asks.
  void closingAsksBeforeLosingYamlThatDoesNotRead() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    writeFile(path,
              "name: drafted\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: "
              "40}\n  layers:\n    - {type: lstm, hidden_size: 16}\n");
    QTemporaryDir kept;
    mrnn::app::MainWindow window(false);
    window.keepUnsavedEditsIn(kept.path());
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString typed = QStringLiteral(
        "name: drafted\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
        "  layers:\n    - {type: lstm, hidden_size: 16\n");
    window.yamlView()->editor()->setPlainText(typed);  // as typed: a brace not yet closed
    QVERIFY(!window.yamlView()->applyNow());
    QVERIFY(!window.document().isModified());
    const auto keptFiles = [&] {
      return QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files);
    };
    QTRY_COMPARE_WITH_TIMEOUT(keptFiles().size(), 1, 5000);  // kept against a crash
    QString asked;
    answerNextBox(window, QStringLiteral("Cancel"), &asked);
    window.close();
    QVERIFY2(asked.contains(QStringLiteral("does not read as a project")), qPrintable(asked));
    QVERIFY(window.isVisible());
    QCOMPARE(window.yamlView()->editor()->toPlainText(), typed);  // still there
    asked.clear();
    answerNextBox(window, QStringLiteral("Discard"), &asked);
    window.close();
    QVERIFY(!asked.isEmpty());
    QTRY_VERIFY(!window.isVisible());
    QVERIFY2(keptFiles().isEmpty(), "discarded text is not offered back");
  }

  // Discard at "save changes?" lets the edits go: nothing is kept to offer them back.
  void discardedEditsAreNotOfferedBack() {
    QTemporaryDir folder;
    QTemporaryDir kept;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    writeFile(path,
              "name: discarded\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: "
              "40}\n  layers:\n    - {type: lstm, hidden_size: 16}\n");
    mrnn::app::MainWindow window(false);
    window.keepUnsavedEditsIn(kept.path());
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    mrnn::engine::ModelConfig model = window.document().project().model;
    model.layers.at(0).hiddenSize = 24;
    window.document().editModel(model, QStringLiteral("Set hidden size"));
    const auto keptFiles = [&] {
      return QDir(kept.path()).entryList({QStringLiteral("*.kept-edits")}, QDir::Files);
    };
    QTRY_COMPARE_WITH_TIMEOUT(keptFiles().size(), 1, 5000);
    answerNextBox(window, QStringLiteral("Discard"), nullptr);
    window.close();
    QTRY_VERIFY(!window.isVisible());
    QVERIFY(keptFiles().isEmpty());
  }
};

QTEST_MAIN(UnsavedWorkTest)
#include "test_unsaved_work.moc"
