#include <sys/stat.h>

#include <qcustomplot.h>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include <atomic>
#include <functional>
#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "file_head.h"
#include "trained_project.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/analysis/model_slot.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/project/project_document.h"
#include "widgets/training/run_store_watcher.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

QCustomPlot* linePlot() {
  auto* plot = new QCustomPlot;
  plot->resize(320, 200);
  plot->addGraph();
  plot->graph(0)->setData({0, 1, 2}, {1, 3, 2});
  plot->rescaleAxes();
  return plot;
}

}  // namespace

class AnalysisCommonTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    trained_ =
        std::make_unique<test::TrainedProject>(test::tinyProjectYaml(8), test::lexiconText(3000));
    QVERIFY2(trained_->ok(), qPrintable(trained_->error()));
  }

  void figuresHaveTheirFormat_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "plot.png" << QByteArray("\x89PNG", 4);
    QTest::newRow("svg") << "plot.svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "plot.PDF" << QByteArray("%PDF");
  }
  void figuresHaveTheirFormat() {
    QFETCH(QString, name);
    QFETCH(QByteArray, magic);
    QTemporaryDir dir;
    std::unique_ptr<QCustomPlot> plot(linePlot());
    const QString path = dir.filePath(name);
    savePlot(path, plot.get());
    QCOMPARE(test::fileHead(path, magic.size()), magic);
    // Readable as any new file is (a CSV saved beside it is 0644 under umask 022).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const bool othersRead = (mask & 0004) == 0;
    QCOMPARE(QFileInfo(path).permissions().testFlag(QFileDevice::ReadOther), othersRead);
    // Nothing temporary is left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
  }

  void pngIsTwiceTheSize() {
    QTemporaryDir dir;
    std::unique_ptr<QCustomPlot> plot(linePlot());
    savePlot(dir.filePath("p.png"), plot.get());
    const QImage image(dir.filePath("p.png"));
    QCOMPARE(image.size(), QSize(640, 400));
  }

  void figureErrorsNameThePath() {
    QTemporaryDir dir;
    std::unique_ptr<QCustomPlot> plot(linePlot());
    try {
      savePlot(dir.filePath("plot.bmp"), plot.get());
      QFAIL("a .bmp figure was accepted");
    } catch (const std::runtime_error& error) {
      QVERIFY(QString(error.what()).contains("plot.bmp"));
      QVERIFY(QString(error.what()).contains(".png, .svg or .pdf"));
    }
    try {
      savePlot(dir.filePath("missing/plot.png"), plot.get());
      QFAIL("a figure in a missing folder was accepted");
    } catch (const std::runtime_error& error) {
      QVERIFY(QString(error.what()).contains("missing"));
    }
  }

  void failedFigureKeepsTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.svg");
    saveText(path, "old");
    QVERIFY_EXCEPTION_THROWN(
        saveFigure(path, QSize(10, 10),
                   [](QPaintDevice&, const QSize&) { throw std::runtime_error("disk full"); }),
        std::runtime_error);
    QCOMPARE(test::fileHead(path, 10), QByteArray("old"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
  }

  void exportBarSavesFigureAndCsv() {
    QTemporaryDir dir;
    std::unique_ptr<QCustomPlot> plot(linePlot());
    ExportBar bar(
        "curve", [&](const QString& path) { savePlot(path, plot.get()); },
        [] { return QByteArray("a,b\n1,2\n"); });
    QVERIFY(!bar.figureButton()->isEnabled());
    bar.setAvailable(true);
    QVERIFY(bar.figureButton()->isEnabled());
    QVERIFY(bar.csvButton()->isEnabled());
    QCOMPARE(bar.saveFigureTo(dir.filePath("c.svg")), QString());
    QVERIFY(bar.saveFigureTo(dir.filePath("c.txt")).contains(".png, .svg or .pdf"));
    QCOMPARE(bar.saveCsvTo(dir.filePath("c.csv")), QString());
    QCOMPARE(test::fileHead(dir.filePath("c.csv"), 100), QByteArray("a,b\n1,2\n"));
    QVERIFY(bar.saveCsvTo(dir.filePath("nowhere/c.csv")).contains("c.csv"));
  }

  // The defect: a name typed without a suffix got ".png", and a file of that name (one the
  // dialog never asked about) was replaced unasked. Now the bar asks; "No" keeps it.
  void exportBarAsksBeforeReplacingAFileTheDialogDidNotAskAbout() {
    QTemporaryDir dir;
    const QString mine = dir.filePath("curve.png");
    saveText(mine, "my photograph");
    std::unique_ptr<QCustomPlot> plot(linePlot());
    ExportBar bar(
        "curve", [&](const QString& path) { savePlot(path, plot.get()); },
        [] { return QByteArray("a,b\n1,2\n"); });
    bar.setAvailable(true);
    bool askedToReplace = false;
    const std::function<void()> answer = [&] {
      QWidget* modal = QApplication::activeModalWidget();
      if (auto* files = qobject_cast<QFileDialog*>(modal)) {
        files->selectFile(dir.filePath("curve"));
        static_cast<QDialog*>(files)->accept();  // QFileDialog::accept, as its Save button
      } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
        askedToReplace = box->text().contains("curve.png");
        box->button(QMessageBox::No)->click();
        return;
      }
      QTimer::singleShot(20, &bar, answer);  // dropped with the bar, at the test's end
    };
    QTimer::singleShot(0, &bar, answer);
    QSignalSpy saved(&bar, &ExportBar::saved);
    bar.figureButton()->click();
    QVERIFY(askedToReplace);
    QCOMPARE(saved.count(), 0);
    QCOMPARE(test::fileHead(mine, 100), QByteArray("my photograph"));
  }

  void jobBarReportsProgressAndSuccess() {
    AnalysisJobBar bar;
    // The bar says what it shows, before and after: never an empty or a silent full bar.
    QVERIFY(bar.progressBar()->isTextVisible());
    QCOMPARE(bar.progressBar()->text(), QStringLiteral("not run yet"));
    QSignalSpy finished(&bar, &AnalysisJobBar::finished);
    bool called = false;
    int result = 0;
    QVERIFY(bar.run(
        "Counting",
        [&result](engine::JobContext& job) {
          for (int i = 1; i <= 4; ++i) job.report(i / 4.0, "step");
          result = 42;
        },
        [&] { called = result == 42; }));
    QVERIFY(bar.cancelButton()->isEnabled());
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(called);
    QCOMPARE(bar.progressBar()->value(), 1000);
    QCOMPARE(bar.progressBar()->text(), QStringLiteral("done"));
    QVERIFY2(bar.status().contains("Counting: done"), qPrintable(bar.status()));
    QVERIFY(!bar.cancelButton()->isEnabled());
  }

  void jobBarCancels() {
    AnalysisJobBar bar;
    QSignalSpy finished(&bar, &AnalysisJobBar::finished);
    std::atomic<bool> started{false};
    bool called = false;
    QVERIFY(bar.run(
        "Waiting",
        [&started](engine::JobContext& job) {
          started = true;
          for (;;) {
            job.report(0.5, "forever");
            QThread::msleep(2);
          }
        },
        [&] { called = true; }));
    // A second job is refused while the first runs.
    QVERIFY(!bar.run("Other", [](engine::JobContext&) {}, {}));
    QTRY_VERIFY(started.load());
    bar.cancelButton()->click();
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(!called);
    QVERIFY2(bar.status().contains("cancelled"), qPrintable(bar.status()));
    QCOMPARE(bar.progressBar()->value(), 0);
  }

  void jobBarShowsFailure() {
    AnalysisJobBar bar;
    QSignalSpy failed(&bar, &AnalysisJobBar::failed);
    QVERIFY(bar.run(
        "Loading",
        [](engine::JobContext&) { throw std::runtime_error("model.pt: not a checkpoint"); }, {}));
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.first().first().toString(), QString("model.pt: not a checkpoint"));
    QVERIFY(bar.status().contains("Loading failed: model.pt: not a checkpoint"));
  }

  void chooserListsTheRunsCheckpoints() {
    ProjectDocument document;
    document.load(trained_->projectFile());
    CheckpointChooser chooser(document);
    QCOMPARE(chooser.count(), 2);  // best and latest of the one run
    QCOMPARE(chooser.checkpoint(), QFileInfo(trained_->bestCheckpoint()).absoluteFilePath());
    QVERIFY2(chooser.label().startsWith("Run 1"), qPrintable(chooser.label()));

    QSignalSpy changed(&chooser, &CheckpointChooser::checkpointChanged);
    chooser.setOptional("(none)");
    QCOMPARE(chooser.count(), 3);
    QCOMPARE(chooser.checkpoint(), QString());  // a comparison starts switched off
    QCOMPARE(changed.size(), 1);
    chooser.comboBox()->setCurrentIndex(2);
    QCOMPARE(chooser.checkpoint(), QFileInfo(trained_->latestCheckpoint()).absoluteFilePath());
    QCOMPARE(changed.size(), 2);

    // A file from elsewhere is added and kept across refreshes.
    QTemporaryDir dir;
    const QString other = dir.filePath("other.pt");
    QVERIFY(QFile::copy(trained_->latestCheckpoint(), other));
    chooser.setCheckpoint(other);
    QCOMPARE(chooser.checkpoint(), other);
    chooser.refresh();
    QCOMPARE(chooser.checkpoint(), other);
    QCOMPARE(chooser.label(), QString("other.pt"));
  }

  void chooserOffersTheBestModelFirst() {
    // A newer run whose best checkpoint validates worse than run 1's.
    const std::string folder = QDir(trained_->folder()).absolutePath().toStdString();
    mrnn::engine::RunStore store(mrnn::engine::RunPaths::database(folder));
    const auto first = store.checkpoints(trained_->runId());
    double bestLoss = 0.0;
    for (const auto& c : first) {
      if (c.kind == "best" && c.validLoss) bestLoss = *c.validLoss;
    }
    QVERIFY(bestLoss > 0.0);
    mrnn::engine::RunRecord record;
    record.name = "worse";
    record.status = mrnn::engine::RunStatus::Finished;
    const int64_t worse = store.createRun(record);
    const QString worseBest = QString::fromStdString(mrnn::engine::RunPaths::best(folder, worse));
    QVERIFY(QDir().mkpath(QFileInfo(worseBest).path()));
    QVERIFY(QFile::copy(trained_->bestCheckpoint(), worseBest));
    store.recordCheckpoint(worse, {"best", "checkpoints/run-" + std::to_string(worse) + "/best.pt",
                                   5, bestLoss + 1.0, ""});
    ProjectDocument document;
    document.load(trained_->projectFile());
    CheckpointChooser chooser(document);
    QCOMPARE(chooser.count(), 3);
    QCOMPARE(chooser.checkpoint(), QFileInfo(trained_->bestCheckpoint()).absoluteFilePath());
    QVERIFY2(chooser.comboBox()->itemText(0).startsWith(QStringLiteral("Run %1").arg(worse)),
             qPrintable(chooser.comboBox()->itemText(0)));  // listed first, not chosen
    QVERIFY2(chooser.comboBox()->itemText(1).contains(QStringLiteral(" params · best")),
             qPrintable(chooser.comboBox()->itemText(1)));
    store.deleteRun(worse);
    QDir(QFileInfo(worseBest).path()).removeRecursively();
  }

  void chooserFollowsTheBestUntilAPick() {
    // A project whose only run has so far saved a latest checkpoint, never validated.
    QTemporaryDir dir;
    const QString projectFile = dir.filePath("project.yaml");
    QVERIFY(QFile::copy(trained_->projectFile(), projectFile));
    QVERIFY(QFile::copy(QFileInfo(trained_->projectFile()).dir().filePath("corpus.txt"),
                        dir.filePath("corpus.txt")));
    const std::string folder = QDir(dir.path()).absolutePath().toStdString();
    mrnn::engine::RunStore store(mrnn::engine::RunPaths::database(folder));
    mrnn::engine::RunRecord record;
    record.name = "training";
    record.status = mrnn::engine::RunStatus::Running;
    const int64_t run = store.createRun(record);
    const auto place = [&](const char* kind) {
      const std::string relative = "checkpoints/run-" + std::to_string(run) + "/" + kind + ".pt";
      const QString path = dir.filePath(QString::fromStdString(relative));
      QDir().mkpath(QFileInfo(path).path());
      QFile::copy(trained_->latestCheckpoint(), path);
      return relative;
    };
    store.recordCheckpoint(run, {"latest", place("latest"), 5, std::nullopt, ""});
    ProjectDocument document;
    document.load(projectFile);
    CheckpointChooser chooser(document);
    RunStoreWatcher watcher(document, nullptr, 3'600'000);  // checked by hand below
    connect(&watcher, &RunStoreWatcher::checkpointsChanged, &chooser, &CheckpointChooser::refresh);
    QSignalSpy checkpointsChanged(&watcher, &RunStoreWatcher::checkpointsChanged);
    QVERIFY(chooser.checkpoint().endsWith("latest.pt"));

    // The run validates: the chooser moves to its best checkpoint as the store changes.
    store.recordCheckpoint(run, {"best", place("best"), 10, 2.5, ""});
    QVERIFY(watcher.checkNow());
    QCOMPARE(checkpointsChanged.size(), 1);
    QVERIFY2(chooser.checkpoint().endsWith("best.pt"), qPrintable(chooser.checkpoint()));
    QVERIFY(chooser.followsBest());

    // A pick by hand stays, through a later refresh.
    const int latestRow = chooser.comboBox()->findText("latest", Qt::MatchContains);
    QVERIFY(latestRow >= 0);
    chooser.comboBox()->setCurrentIndex(latestRow);
    Q_EMIT chooser.comboBox()->activated(latestRow);
    store.recordCheckpoint(run, {"best", place("best"), 20, 2.0, ""});
    QVERIFY(watcher.checkNow());
    QVERIFY2(chooser.checkpoint().endsWith("latest.pt"), qPrintable(chooser.checkpoint()));

    // Renamed: the chooser lists it by its new name.
    store.renameRun(run, "the baseline");
    QVERIFY(watcher.checkNow());
    QVERIFY2(chooser.comboBox()->itemText(0).startsWith(
                 QStringLiteral("Run %1 · the baseline").arg(run)),
             qPrintable(chooser.comboBox()->itemText(0)));

    // The run deleted: it leaves the list, and nothing points at its files.
    store.deleteRun(run);
    QVERIFY(QDir(dir.filePath(QStringLiteral("checkpoints/run-%1").arg(run))).removeRecursively());
    QVERIFY(watcher.checkNow());
    QCOMPARE(checkpointsChanged.size(), 4);
    QCOMPARE(chooser.count(), 0);
    QCOMPARE(chooser.checkpoint(), QString());
    QVERIFY(!watcher.checkNow());
  }

  void chooserOfAnUntitledProjectIsEmpty() {
    ProjectDocument document;
    CheckpointChooser chooser(document);
    QCOMPARE(chooser.count(), 0);
    QCOMPARE(chooser.checkpoint(), QString());
  }

  void modelSlotLoadsOnceAndNamesBadFiles() {
    ModelSlot slot;
    const std::string best = trained_->bestCheckpoint().toStdString();
    engine::LoadedModel& first = slot.get(best);
    QVERIFY(first.model);
    QCOMPARE(&slot.get(best), &first);
    QVERIFY_EXCEPTION_THROWN(slot.get(""), std::runtime_error);
    try {
      slot.get("/nonexistent/model.pt");
      QFAIL("a missing checkpoint loaded");
    } catch (const std::exception& error) {
      QVERIFY2(QString(error.what()).contains("/nonexistent/model.pt"), error.what());
    }
  }

  void heldOutTextNeedsTheModelsVocabulary() {
    const engine::Project project = engine::loadProject(trained_->projectFile().toStdString());
    const engine::LoadedModel loaded =
        engine::loadModelFromCheckpoint(trained_->bestCheckpoint().toStdString());
    const engine::CorpusSplit valid = engine::heldOutSplit(project, loaded.vocabulary, "valid");
    QVERIFY(valid.tokens.size() > 10);
    QCOMPARE(static_cast<int64_t>(engine::splitIds(valid, 10).size()), int64_t{10});
    QVERIFY_EXCEPTION_THROWN(engine::heldOutSplit(project, loaded.vocabulary, "train"),
                             std::invalid_argument);
    const engine::Vocabulary other = engine::Vocabulary::bytes();
    try {
      engine::heldOutSplit(project, other, "valid");
      QFAIL("a vocabulary mismatch passed");
    } catch (const std::runtime_error& error) {
      QVERIFY2(QString(error.what()).contains("another vocabulary"), error.what());
    }
  }

 private:
  std::unique_ptr<test::TrainedProject> trained_;
};

QTEST_MAIN(AnalysisCommonTest)
#include "test_analysis_common.moc"
