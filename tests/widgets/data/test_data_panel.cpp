// DataPanel on corpora written here (counts known in advance) and on tiny Shakespeare from
// shared/data; DatasetsDialog's "Use in project". With MRNN_SCREENSHOT_DIR set, the tiny
// Shakespeare test also saves the panel and the dialog as PNG files there.

#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>
#include <QUndoStack>
#include <cmath>

#include "local_http_server.h"
#include "widgets/data/data_panel.h"
#include "widgets/data/dataset_downloader.h"
#include "widgets/data/datasets_dialog.h"
#include "widgets/project/project_document.h"

namespace {

using mrnn::widgets::DataPanel;
using mrnn::widgets::DatasetsDialog;
using mrnn::widgets::ProjectDocument;
namespace engine = mrnn::engine;

constexpr int kWaitMs = 30000;

const char* const kModel = R"(model:
  input:
    level: char
    embedding_size: 16
  layers:
    - type: lstm
      hidden_size: 32
)";

// Train "abcab aab\n": 10 symbols; a 4, b 3, and c, space, newline once each: vocabulary 5;
// words "abcab" and "aab". Valid "ab\n" (3 symbols, 1 word), test "ba c\n" (5 symbols, 2 words).
void writeSmallCorpus(const QDir& dir) {
  const std::pair<const char*, const char*> files[] = {
      {"train.txt", "abcab aab\n"}, {"valid.txt", "ab\n"}, {"test.txt", "ba c\n"}};
  for (const auto& [name, text] : files) {
    QFile file(dir.filePath(QString::fromLatin1(name)));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
  }
}

void writeProject(const QDir& dir, const QByteArray& data) {
  QFile file(dir.filePath("project.yaml"));
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(QByteArray("name: Data panel test\n") + kModel + data);
}

const QByteArray kSmallData = "data:\n  train: train.txt\n  valid: valid.txt\n  test: test.txt\n";

bool waitForScan(DataPanel& panel) {
  QSignalSpy spy(&panel, &DataPanel::scanFinished);
  return spy.wait(kWaitMs);
}

// The dataset list's "On disk" column for the data set with this id.
QString stateOf(const DatasetsDialog& dialog, const QString& id) {
  const auto* list = dialog.findChild<QTreeWidget*>(QStringLiteral("datasetList"));
  for (int i = 0; list && i < list->topLevelItemCount(); ++i) {
    const QTreeWidgetItem* item = list->topLevelItem(i);
    if (item->data(DatasetsDialog::NameColumn, Qt::UserRole).toString() == id)
      return item->text(DatasetsDialog::StateColumn);
  }
  return QString();
}

}  // namespace

class DataPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void scanShowsKnownCounts() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    QCOMPARE(document.vocabularySize(), int64_t{0});
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    const auto& scan = panel.lastScan();
    QVERIFY2(scan.ok, qPrintable(scan.error));
    QCOMPARE(scan.train.symbols, qint64{10});
    QCOMPARE(scan.valid.symbols, qint64{3});
    QCOMPARE(scan.test.symbols, qint64{5});
    // Words and one <eos> per line (Krause eq. 23 with the word-level count).
    QCOMPARE(scan.train.words, qint64{3});
    QCOMPARE(scan.test.words, qint64{3});
    QCOMPARE(scan.vocabularySize, qint64{5});
    QCOMPARE(scan.train.fileBytes, qint64{10});
    // Most frequent first; ties in vocabulary order (newline, space, c); whitespace visible.
    QCOMPARE(panel.histogramLabels(), (QStringList{"a", "b", "\u21B5", "\u2423", "c"}));
    QCOMPARE(scan.topSymbols.at(0).count, qint64{4});
    QCOMPARE(panel.previewText(), QStringLiteral("abcab aab\n"));
    auto* table = panel.findChild<QTableWidget*>(QStringLiteral("statisticsTable"));
    QVERIFY(table);
    QCOMPARE(table->item(DataPanel::Train, DataPanel::SymbolsColumn)->text(), QStringLiteral("10"));
    QCOMPARE(table->item(DataPanel::Test, DataPanel::WordsColumn)->text(), QStringLiteral("3"));
    QCOMPARE(table->item(DataPanel::Valid, DataPanel::FileSizeColumn)->text(),
             QStringLiteral("3 B"));
    QCOMPARE(document.vocabularySize(), int64_t{5});
    QVERIFY(panel.message().isEmpty());
  }

  void levelEditIsUndoable() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    auto* level = panel.findChild<QComboBox*>(QStringLiteral("level"));
    QVERIFY(level);
    level->setCurrentIndex(level->findData(int(engine::InputLevel::Word)));
    emit level->activated(level->currentIndex());
    QCOMPARE(int(document.project().model.input.level), int(engine::InputLevel::Word));
    QVERIFY(waitForScan(panel));
    QVERIFY2(panel.lastScan().ok, qPrintable(panel.lastScan().error));
    QCOMPARE(int(panel.lastScan().level), int(engine::InputLevel::Word));
    QCOMPARE(panel.lastScan().train.symbols, qint64{3});  // abcab, aab, <eos>

    document.undoStack()->undo();
    QCOMPARE(int(document.project().model.input.level), int(engine::InputLevel::Char));
    QCOMPARE(level->currentData().toInt(), int(engine::InputLevel::Char));
    QVERIFY(waitForScan(panel));
    QCOMPARE(panel.lastScan().vocabularySize, qint64{5});
  }

  void fileEditIsRelativeInsideTheFolderAndUndoable() {
    QTemporaryDir dir;
    QTemporaryDir elsewhere;
    writeSmallCorpus(QDir(dir.path()));
    writeSmallCorpus(QDir(elsewhere.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));

    // Another training text with every symbol valid and test use: 8 symbols.
    QFile more(dir.filePath("more.txt"));
    QVERIFY(more.open(QIODevice::WriteOnly));
    more.write("cab cab\n");
    more.close();
    panel.setSplitFile(DataPanel::Train, dir.filePath("more.txt"));
    QCOMPARE(document.project().data.train, std::string("more.txt"));
    auto* trainEdit = panel.findChild<QLineEdit*>(QStringLiteral("trainFile"));
    QVERIFY(trainEdit);
    QCOMPARE(trainEdit->text(), QStringLiteral("more.txt"));
    QVERIFY(waitForScan(panel));
    QVERIFY2(panel.lastScan().ok, qPrintable(panel.lastScan().error));
    QCOMPARE(panel.lastScan().train.symbols, qint64{8});

    const QString outside = QDir(elsewhere.path()).absoluteFilePath("train.txt");
    panel.setSplitFile(DataPanel::Train, outside);
    QCOMPARE(QString::fromStdString(document.project().data.train), outside);

    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(document.project().data.train, std::string("train.txt"));
    QCOMPARE(trainEdit->text(), QStringLiteral("train.txt"));

    // Typing a path and leaving the field is one edit too.
    trainEdit->setText(QStringLiteral("test.txt"));
    emit trainEdit->editingFinished();
    QCOMPARE(document.project().data.train, std::string("test.txt"));
    QCOMPARE(document.undoStack()->undoText(), QStringLiteral("Set training file"));
  }

  void severalTrainingFilesAreOneText() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    QFile more(dir.filePath("more.txt"));
    QVERIFY(more.open(QIODevice::WriteOnly));
    more.write("cab cab\n");
    more.close();
    QFile again(dir.filePath("again.txt"));
    QVERIFY(again.open(QIODevice::WriteOnly));
    again.write("abc");  // no line end: one is added before the next file would start
    again.close();

    // The Browse button's multiple choice: stored relative, in the order chosen.
    panel.setSplitFiles(DataPanel::Train, {dir.filePath("more.txt"), dir.filePath("again.txt")});
    QCOMPARE(document.project().data.train, std::string("more.txt"));
    QCOMPARE(document.project().data.moreTrain, std::vector<std::string>{"again.txt"});
    auto* trainEdit = panel.findChild<QLineEdit*>(QStringLiteral("trainFile"));
    QCOMPARE(trainEdit->text(), QStringLiteral("more.txt; again.txt"));
    QVERIFY(trainEdit->toolTip().contains(QStringLiteral("2 files")));
    QCOMPARE(trainEdit->cursorPosition(), 0);
    QVERIFY(waitForScan(panel));
    QVERIFY2(panel.lastScan().ok, qPrintable(panel.lastScan().error));
    QCOMPARE(panel.lastScan().train.symbols, qint64{8 + 4});
    QCOMPARE(panel.lastScan().train.fileBytes, qint64{8 + 3});

    // Typed as a list, and back to one file.
    trainEdit->setText(QStringLiteral("again.txt ;more.txt"));
    emit trainEdit->editingFinished();
    QCOMPARE(document.project().data.train, std::string("again.txt"));
    QCOMPARE(document.project().data.moreTrain, std::vector<std::string>{"more.txt"});
    trainEdit->setText(QStringLiteral("train.txt"));
    emit trainEdit->editingFinished();
    QVERIFY(document.project().data.moreTrain.empty());
  }

  void missingFileIsNamed() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    QCOMPARE(document.vocabularySize(), int64_t{5});
    panel.setSplitFile(DataPanel::Train, dir.filePath("missing.txt"));
    QVERIFY(waitForScan(panel));
    QVERIFY(!panel.lastScan().ok);
    QVERIFY2(panel.message().contains(QStringLiteral("missing.txt")), qPrintable(panel.message()));
    QVERIFY(panel.histogramLabels().isEmpty());
    QVERIFY(panel.previewText().isEmpty());
    QCOMPARE(document.vocabularySize(), int64_t{0});
  }

  // The defect: in a short dock (a 1280x720 screen) the reason a corpus could not be read lay
  // below the fold, under the form, while nothing in view said anything was wrong.
  void aCorpusThatCannotBeReadIsShownInAShortDock() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), kSmallData);
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    QScrollArea area;
    area.setWidgetResizable(true);
    auto* panel = new DataPanel(document);
    area.setWidget(panel);
    area.resize(900, 300);
    area.show();
    QVERIFY(waitForScan(*panel));
    QCOMPARE(area.verticalScrollBar()->value(), 0);
    panel->setSplitFile(DataPanel::Train, dir.filePath("missing.txt"));
    QVERIFY(waitForScan(*panel));
    auto* message = panel->findChild<QLabel*>(QStringLiteral("dataMessage"));
    QVERIFY(message != nullptr);
    QTRY_VERIFY2(area.viewport()->rect().contains(
                     QRect(message->mapTo(area.viewport(), QPoint(0, 0)), message->size())),
                 "the message is out of view");
  }

  void spinBoxEditsMergeIntoOneStep() {
    QTemporaryDir dir;
    writeSmallCorpus(QDir(dir.path()));
    writeProject(QDir(dir.path()), "data:\n  train: train.txt\n");
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    auto* maxSymbols = panel.findChild<QSpinBox*>(QStringLiteral("maxSymbols"));
    QVERIFY(maxSymbols);
    const int steps = document.undoStack()->count();
    maxSymbols->setValue(100);
    maxSymbols->setValue(2000);
    QCOMPARE(document.undoStack()->count(), steps + 1);
    QCOMPARE(document.project().data.maxSymbols, int64_t{2000});
    document.undoStack()->undo();
    QCOMPARE(document.project().data.maxSymbols, int64_t{0});
    QCOMPARE(maxSymbols->value(), 0);
  }

  void syntheticProjectShowsGeneratedSplits() {
    QTemporaryDir dir;
    // Word level, 10 content tokens: vocabulary 12 (with <go> and <eos>); each example is
    // 3 tokens, the marker, 3 reversed and <eos>: 8 tokens, so 20 examples are 160 tokens.
    QFile file(dir.filePath("project.yaml"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("name: Copy\n") +
               QByteArray(kModel).replace("level: char", "level: word") +
               "data:\n  synthetic: reverse_copy\n  copy: {vocabulary: 10, length: 3, "
               "train_examples: 20, valid_examples: 5, test_examples: 5}\n");
    file.close();
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    QVERIFY2(panel.lastScan().ok, qPrintable(panel.lastScan().error));
    QCOMPARE(panel.lastScan().vocabularySize, qint64{12});
    QCOMPARE(panel.lastScan().train.symbols, qint64{160});
    QCOMPARE(panel.lastScan().valid.symbols, qint64{40});
    QVERIFY(!panel.findChild<QLineEdit*>(QStringLiteral("trainFile"))->isEnabled());
    auto* note = panel.findChild<QLabel*>(QStringLiteral("syntheticNote"));
    QVERIFY(note && !note->isHidden());
    QCOMPARE(document.vocabularySize(), int64_t{12});
  }

  // A long-range problem's panel names the problem and its size (it described the reverse
  // copy task's defaults for every generated data set).
  void aLongRangeProblemIsNamedNotCalledReverseCopy() {
    QTemporaryDir dir;
    QFile file(dir.filePath("project.yaml"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "name: Problem\nmodel:\n  input: {level: word, embedding_size: 0}\n"
        "  layers:\n    - {type: rnn, hidden_size: 8}\n"
        "data:\n  synthetic: temporal_order_2bit\n"
        "  problem: {length: 60, train: 500, valid: 40, test: 30}\n");
    file.close();
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    auto* note = panel.findChild<QLabel*>(QStringLiteral("syntheticNote"));
    QVERIFY(note && !note->isHidden());
    QVERIFY2(note->text().contains(QStringLiteral("temporal_order_2bit")),
             qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("T = 60")), qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("500 training")), qPrintable(note->text()));
    QVERIFY2(!note->text().contains(QStringLiteral("reverse copy")), qPrintable(note->text()));
    // In a short dock its every line shows (it was laid out one line high, the rest cut off).
    panel.resize(640, 330);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(50);
    QVERIFY2(note->height() >= note->heightForWidth(note->width()),
             qPrintable(QStringLiteral("%1 px high, its lines need %2")
                            .arg(note->height())
                            .arg(note->heightForWidth(note->width()))));
  }

  void projectWithoutDataAsksForAFile() {
    ProjectDocument document;
    DataPanel panel(document);
    QVERIFY(waitForScan(panel));
    QVERIFY2(panel.message().contains(QStringLiteral("No corpus yet")),
             qPrintable(panel.message()));
  }

  void datasetsDialogUsesADownloadedSet() {
    QTemporaryDir project;
    QTemporaryDir downloads;
    writeSmallCorpus(QDir(project.path()));
    writeProject(QDir(project.path()), kSmallData);
    ProjectDocument document;
    document.load(project.filePath("project.yaml"));
    DatasetsDialog dialog(document);
    dialog.setDestination(downloads.path());
    QVERIFY(dialog.selectDataset(QStringLiteral("ptb-word")));
    QVERIFY(!dialog.useInProject());  // not downloaded: nothing changes
    QCOMPARE(document.project().data.train, std::string("train.txt"));
    const QDir folder(QDir(downloads.path()).filePath("ptb-word"));
    QVERIFY(QDir().mkpath(folder.path()));
    for (const char* name : {"ptb.train.txt", "ptb.valid.txt", "ptb.test.txt"}) {
      QFile file(folder.filePath(QString::fromLatin1(name)));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("the cat sat\n");
    }
    // Put there by hand: in place, not "downloaded".
    dialog.setDestination(downloads.path());
    QCOMPARE(stateOf(dialog, QStringLiteral("ptb-word")), QStringLiteral("in place"));
    QVERIFY(dialog.useInProject());
    const auto& data = document.project().data;
    QCOMPARE(QString::fromStdString(data.train), folder.absoluteFilePath("ptb.train.txt"));
    QCOMPARE(QString::fromStdString(data.test), folder.absoluteFilePath("ptb.test.txt"));
    QCOMPARE(int(data.format), int(engine::CorpusFormat::Tokens));
    QCOMPARE(int(document.project().model.input.level), int(engine::InputLevel::Word));
    document.undoStack()->undo();
    QCOMPARE(document.project().data.train, std::string("train.txt"));
  }

  void datasetsDialogDownloadsWithProgress() {
    // 176 kB served at about 400 kB/s: slow enough to see the progress midway.
    QByteArray corpus;
    for (int i = 0; i < 4000; ++i) corpus += "the quick brown fox jumps over the lazy dog\n";
    LocalHttpServer server;
    server.addFile("/corpus.txt", corpus);
    server.setThrottle(4 * 1024, 10);
    QVERIFY(server.listen());
    mrnn::widgets::DatasetInfo info;
    info.id = QStringLiteral("local");
    info.name = QStringLiteral("Local corpus");
    info.description = QStringLiteral("Served by the test.");
    const QString checksum =
        QString::fromLatin1(QCryptographicHash::hash(corpus, QCryptographicHash::Sha256).toHex());
    info.downloads = {{{server.url("/corpus.txt")},
                       QStringLiteral("corpus.txt"),
                       checksum,
                       corpus.size(),
                       mrnn::widgets::ArchiveKind::None,
                       {}}};
    info.files = {{QStringLiteral("corpus.txt"), checksum, corpus.size()}};
    info.data.train = "corpus.txt";
    info.data.format = engine::CorpusFormat::Text;
    info.level = engine::InputLevel::Word;

    QTemporaryDir downloads;
    ProjectDocument document;
    DatasetsDialog dialog(document);
    dialog.setCatalog(mrnn::widgets::DatasetCatalog({info}));
    dialog.setDestination(downloads.path());
    QVERIFY(dialog.selectDataset(QStringLiteral("local")));
    dialog.resize(780, 540);
    dialog.show();
    const QString shots = qEnvironmentVariable("MRNN_SCREENSHOT_DIR");
    bool grabbed = false;
    connect(dialog.downloader(), &mrnn::widgets::DatasetDownloader::progress, this,
            [&](qint64 received, qint64 total) {
              if (!shots.isEmpty() && !grabbed && received > total / 2) {
                grabbed = true;
                QTimer::singleShot(50, &dialog, [&] {
                  dialog.grab().save(QDir(shots).filePath("datasets_dialog_downloading.png"));
                });
              }
            });
    QSignalSpy finished(dialog.downloader(), &mrnn::widgets::DatasetDownloader::finished);
    dialog.download();
    QVERIFY(finished.wait(kWaitMs));
    auto* progress = dialog.findChild<QProgressBar*>(QStringLiteral("downloadProgress"));
    QVERIFY(progress);
    QCOMPARE(progress->value(), progress->maximum());
    QCOMPARE(dialog.progressText().section(QStringLiteral(" · "), 0, 0),
             QStringLiteral("176 kB of 176 kB"));  // 4,000 lines of 44 bytes
    QVERIFY2(dialog.statusText().contains(QStringLiteral("checksum")),
             qPrintable(dialog.statusText()));
    QCOMPARE(stateOf(dialog, QStringLiteral("local")), QStringLiteral("downloaded"));
    QVERIFY(dialog.useInProject());
    const QString expected = QDir(downloads.path()).absoluteFilePath("local/corpus.txt");
    QCOMPARE(QString::fromStdString(document.project().data.train), expected);
    QVERIFY(document.project().hasData);
    QCOMPARE(int(document.project().model.input.level), int(engine::InputLevel::Word));
  }

  void tinyShakespeare() {
    const QString corpus = QStringLiteral(MRNN_SHARED_DIR "/data/tinyshakespeare/input.txt");
    if (!QFile::exists(corpus)) QSKIP("shared/data/tinyshakespeare is not here");
    QTemporaryDir dir;
    writeProject(QDir(dir.path()),
                 "data:\n  train: " + QFileInfo(corpus).absoluteFilePath().toUtf8() + "\n");
    ProjectDocument document;
    document.load(dir.filePath("project.yaml"));
    DataPanel panel(document);
    panel.resize(1000, 650);
    panel.show();
    QVERIFY(waitForScan(panel));
    const auto& scan = panel.lastScan();
    QVERIFY2(scan.ok, qPrintable(scan.error));
    // 1,115,394 characters, 5% each (55,769) cut off for valid and test; 65 distinct in train.
    QCOMPARE(scan.train.symbols, qint64{1003856});
    QCOMPARE(scan.valid.symbols, qint64{55769});
    QCOMPARE(scan.test.symbols, qint64{55769});
    QCOMPARE(scan.train.fileBytes, qint64{1115394});
    QCOMPARE(scan.vocabularySize, qint64{65});
    QCOMPARE(scan.train.words, qint64{218025});           // 182,499 words, 35,526 line ends
    QVERIFY(std::abs(scan.unigramBits - 4.7740) < 1e-3);  // computed independently
    QCOMPARE(panel.histogramLabels().value(0), QStringLiteral("\u2423"));  // space, 153,275 times
    QCOMPARE(scan.topSymbols.at(0).count, qint64{153275});
    QCOMPARE(panel.histogramLabels().value(1), QStringLiteral("e"));
    QCOMPARE(panel.histogramLabels().size(), 60);
    QVERIFY(panel.previewText().startsWith(QStringLiteral("First Citizen:\nBefore we proceed")));
    QCOMPARE(panel.previewText().size(), 2000);
    QCOMPARE(document.vocabularySize(), int64_t{65});

    const QString shots = qEnvironmentVariable("MRNN_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      QTest::qWait(100);  // let the layouts settle on the new texts
      QVERIFY(panel.grab().save(QDir(shots).filePath("data_panel.png")));
      QTemporaryDir downloads;
      const QDir folder(QDir(downloads.path()).filePath("tinyshakespeare"));
      QVERIFY(QDir().mkpath(folder.path()));
      QVERIFY(QFile::copy(corpus, folder.filePath("input.txt")));
      QFile part(QDir(downloads.path()).filePath("text8/text8.zip.part"));
      QVERIFY(QDir().mkpath(QFileInfo(part).absolutePath()));
      QVERIFY(part.open(QIODevice::WriteOnly));
      part.write(QByteArray(12'400'000, 'x'));
      part.close();
      DatasetsDialog dialog(document);
      dialog.setDestination(downloads.path());
      QVERIFY(dialog.selectDataset(QStringLiteral("wikitext-2")));
      dialog.show();
      QTest::qWait(100);
      QVERIFY(dialog.grab().save(QDir(shots).filePath("datasets_dialog.png")));
    }
  }
};

QTEST_MAIN(DataPanelTest)
#include "test_data_panel.moc"
