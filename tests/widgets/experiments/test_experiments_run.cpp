#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <thread>

#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/queue_control.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_catalogue.h"
#include "experiment_test_project.h"
#include "widgets/experiments/axes_editor.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/experiments/results_table_model.h"
#include "widgets/experiments/results_view.h"
#include "widgets/experiments/trials_table.h"
#include "widgets/project/project_document.h"

using namespace mrnn;
using namespace mrnn::widgets;

namespace {

int doneTrials(const ExperimentsPanel& panel) {
  int done = 0;
  for (int row = 0; row < panel.trialsTable()->rowCount(); ++row) {
    const QTableWidgetItem* status = panel.trialsTable()->item(row, TrialsTable::StatusColumn);
    done += status != nullptr && status->text() == QLatin1String("done") ? 1 : 0;
  }
  return done;
}

// Whatever happens to the test, no queue is left training in a removed folder.
void stopQueue(const QString& folder) {
  const engine::QueueControl control(folder.toStdString(), "grid");
  if (!control.holder()) return;
  control.stop(nullptr);
  for (int waited = 0; waited < 300 && control.holder(); ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// Steps trained by each run of the project (id -> steps).
std::map<int64_t, int64_t> stepsByRun(const QString& folder) {
  std::map<int64_t, int64_t> steps;
  if (!engine::RunCatalogue::exists(folder.toStdString())) return steps;
  for (const auto& run : engine::RunCatalogue(folder.toStdString()).runs())
    steps[run.id] = run.steps;
  return steps;
}

int64_t totalSteps(const QString& folder) {
  int64_t total = 0;
  for (const auto& [id, steps] : stepsByRun(folder)) total += steps;
  return total;
}

// A 2x2 grid project of `steps` steps a trial, open in a panel that launches the built `mrnn`;
// whatever happens to the test, its queue is stopped before the project's folder goes.
struct LaunchablePanel {
  test::ExperimentTestProject project;
  ProjectDocument document;
  std::unique_ptr<ExperimentsPanel> panel;
  explicit LaunchablePanel(int steps) : project(steps, "[1]") {
    document.load(project.projectFile());
    panel = std::make_unique<ExperimentsPanel>(document);
    panel->setProgram(QStringLiteral(MRNN_CLI_PATH));
  }
  ~LaunchablePanel() { stopQueue(project.folder()); }
};

}  // namespace

class ExperimentsRunTest : public QObject {
  Q_OBJECT

 private slots:
  void gridRunsEndToEndThroughThePanel();
  void pauseContinueStopAndLaunchAgain();
  void aLinkOrFifoAtTheQueueLogIsLeftAlone();
  void failedTrialsAreTrainedAgainWhenAsked();
};

// A 2x2 grid (LSTM and mLSTM at about 3,000 parameters x two learning rates) of 40 steps
// each, launched with the panel's Launch button: the built `mrnn` trains it in a queue of its
// own; the panel follows it, and its results table is the run store's.
void ExperimentsRunTest::gridRunsEndToEndThroughThePanel() {
  LaunchablePanel opened(40);
  QVERIFY(opened.project.ok());
  const test::ExperimentTestProject& project = opened.project;
  ExperimentsPanel& panel = *opened.panel;
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QCOMPARE(panel.plan()->trials.size(), size_t{4});
  QVERIFY(panel.launchButton()->isEnabled());
  QTest::mouseClick(panel.launchButton(), Qt::LeftButton);
  QVERIFY2(!panel.queueLabel()->text().startsWith(QStringLiteral("Could not")),
           qPrintable(panel.queueLabel()->text()));
  // The queue runs as a process of its own (Launch off, Stop on) ...
  QTRY_VERIFY_WITH_TIMEOUT(panel.isQueueRunning() || doneTrials(panel) == 4, 20000);
  // ... until every trial is done.
  QTRY_VERIFY_WITH_TIMEOUT(doneTrials(panel) == 4 && !panel.isQueueRunning(), 120000);
  QVERIFY2(panel.queueLabel()->text().startsWith(QStringLiteral("Finished: 4 of 4 done")),
           qPrintable(panel.queueLabel()->text()));
  QVERIFY(panel.launchButton()->isEnabled());

  // The results table is the run store's: each configuration's validation is its run's best.
  const engine::RunCatalogue catalogue(project.folder().toStdString());
  QCOMPARE(catalogue.runs().size(), size_t{4});
  ResultsTableModel* model = panel.resultsView()->model();
  QCOMPARE(model->rowCount(), 4);
  for (int row = 0; row < model->rowCount(); ++row) {
    const engine::ConfigurationResult& result = model->results()[static_cast<size_t>(row)];
    const QVariantList ids = model->index(row, 0).data(ResultsTableModel::RunIdsRole).toList();
    QCOMPARE(ids.size(), 1);
    const auto run = catalogue.run(ids[0].toLongLong());
    QVERIFY(run.has_value());
    QCOMPARE(run->status, engine::RunStatus::Finished);
    QVERIFY(run->bestValid.has_value());
    const QModelIndex valid = model->index(row, model->validColumn());
    QCOMPARE(valid.data(ResultsTableModel::MeanRole).toDouble(), *run->bestValid);
    QCOMPARE(valid.data().toString(), QString::number(*run->bestValid, 'f', 4));
    // The run trained the configuration the row names.
    QCOMPARE(run->modelType, result.settings[0].value);
    QCOMPARE(run->parameters, result.parameters);
    QVERIFY2(run->configYaml.find("lr: " + result.settings[1].value) != std::string::npos,
             run->configYaml.c_str());
    QCOMPARE(model->index(row, model->seedsColumn()).data().toString(), QStringLiteral("1/1"));
    // The trials table shows the same run and figure.
    for (int trial = 0; trial < panel.trialsTable()->rowCount(); ++trial) {
      const QTableWidgetItem* item = panel.trialsTable()->item(trial, TrialsTable::TrialColumn);
      if (item->data(TrialsTable::RunIdRole).toLongLong() != ids[0].toLongLong()) continue;
      QCOMPARE(panel.trialsTable()->item(trial, TrialsTable::ValidColumn)->text(),
               QString::number(*run->bestValid, 'f', 4));
      QCOMPARE(panel.trialsTable()->item(trial, TrialsTable::StepColumn)->text(),
               QStringLiteral("40/40"));
    }
  }
}

// Long trials (3,000 steps): the queue leads a session of its own (so closing the workbench
// leaves it running), Pause freezes its trials, Continue wakes them, Stop ends it with the
// trials' checkpoints, and Launch goes on from them (the same runs, further along).
void ExperimentsRunTest::pauseContinueStopAndLaunchAgain() {
  LaunchablePanel opened(3000);
  const test::ExperimentTestProject& project = opened.project;
  ExperimentsPanel& panel = *opened.panel;
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  QVERIFY(panel.launch());
  QTRY_VERIFY_WITH_TIMEOUT(panel.isQueueRunning(), 20000);
  QVERIFY(!panel.launchButton()->isEnabled());
  QVERIFY(panel.stopButton()->isEnabled());
  // Edits wait while the queue runs.
  QVERIFY(
      !(panel.axesEditor()->table()->item(0, AxesEditor::KeyColumn)->flags() & Qt::ItemIsEditable));
  QVERIFY(!panel.axesEditor()->addButton()->isEnabled());

  const auto queue = panel.snapshot().queue;
  QVERIFY(queue.has_value());
  const auto pid = static_cast<pid_t>(queue->pid);
  QCOMPARE(::getsid(pid), pid);   // a session of its own: the workbench's end is not its end
  QCOMPARE(::getpgid(pid), pid);  // and its group's leader: Pause freezes its trials with it
  QVERIFY(::getsid(pid) != ::getsid(0));

  QTRY_VERIFY_WITH_TIMEOUT(totalSteps(project.folder()) > 0, 60000);
  QTest::mouseClick(panel.pauseButton(), Qt::LeftButton);
  QTRY_COMPARE_WITH_TIMEOUT(panel.pauseButton()->text(), QStringLiteral("Continue"), 10000);
  QVERIFY(panel.queueLabel()->text().startsWith(QStringLiteral("Paused")));
  // Trials write their progress every few steps: let what was under way land, then none moves.
  QTest::qWait(1500);
  const int64_t frozen = totalSteps(project.folder());
  QTest::qWait(2500);
  QCOMPARE(totalSteps(project.folder()), frozen);
  QTest::mouseClick(panel.pauseButton(), Qt::LeftButton);
  QTRY_COMPARE_WITH_TIMEOUT(panel.pauseButton()->text(), QStringLiteral("Pause"), 10000);
  QTRY_VERIFY_WITH_TIMEOUT(totalSteps(project.folder()) > frozen, 30000);

  QTest::mouseClick(panel.stopButton(), Qt::LeftButton);
  QTRY_VERIFY_WITH_TIMEOUT(!panel.isQueueRunning(), 60000);
  QVERIFY2(panel.queueLabel()->text().startsWith(QStringLiteral("Stopped")),
           qPrintable(panel.queueLabel()->text()));
  QVERIFY(panel.launchButton()->isEnabled());
  const std::map<int64_t, int64_t> stopped = stepsByRun(project.folder());
  QVERIFY(!stopped.empty());

  // Launch goes on: the same runs train further (no new run for a trial that had one).
  QTest::mouseClick(panel.launchButton(), Qt::LeftButton);
  QTRY_VERIFY_WITH_TIMEOUT(panel.isQueueRunning(), 20000);
  QTRY_VERIFY_WITH_TIMEOUT(
      [&] {
        const auto now = stepsByRun(project.folder());
        for (const auto& [id, steps] : stopped) {
          const auto found = now.find(id);
          if (found != now.end() && found->second > steps) return true;
        }
        return false;
      }(),
      60000);
}

// The defects: a FIFO at the queue's log froze the workbench for good on Launch (waiting for a
// reader), and a link there had the queue's output appended to the file it names. Both are
// refused in words; the linked file is unchanged and no queue starts.
void ExperimentsRunTest::aLinkOrFifoAtTheQueueLogIsLeftAlone() {
  LaunchablePanel opened(40);
  QVERIFY(opened.project.ok());
  const test::ExperimentTestProject& project = opened.project;
  ExperimentsPanel& panel = *opened.panel;
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  const QString logs = project.folder() + QStringLiteral("/experiment-logs/grid");
  QVERIFY(QDir().mkpath(logs));
  const QString log = logs + QStringLiteral("/queue.log");
  QVERIFY(::mkfifo(QFile::encodeName(log).constData(), 0644) == 0);
  QVERIFY(!panel.launch());
  QVERIFY2(panel.queueLabel()->text().contains(QStringLiteral("it is a FIFO")),
           qPrintable(panel.queueLabel()->text()));

  QVERIFY(QFile::remove(log));
  const QString theirs = project.folder() + QStringLiteral("/theirs.txt");
  {
    QFile file(theirs);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a file of the user's\n");
  }
  QVERIFY(QFile::link(theirs, log));
  QVERIFY(!panel.launch());
  QVERIFY2(panel.queueLabel()->text().contains(QStringLiteral("it is a symbolic link")),
           qPrintable(panel.queueLabel()->text()));
  QFile file(theirs);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll(), QByteArray("a file of the user's\n"));
  QVERIFY(!panel.isQueueRunning());
}

// The defect: trials that failed for a reason outside them (a disk that filled, a process
// killed twice) stayed failed: Launch ended at once, and nothing in the window could train them
// again. Launch now asks, and Retry Failed trains them.
void ExperimentsRunTest::failedTrialsAreTrainedAgainWhenAsked() {
  LaunchablePanel opened(40);
  QVERIFY(opened.project.ok());
  ExperimentsPanel& panel = *opened.panel;
  QVERIFY2(panel.plan().has_value(), qPrintable(panel.problemLabel()->text()));
  {
    engine::ExperimentLedger ledger(panel.plan()->folder());
    for (const auto& trial : panel.plan()->trials) {
      engine::TrialRecord record = engine::queuedTrialRecord(*panel.plan(), trial);
      record.status = engine::TrialStatus::Failed;
      record.reason = "cannot write './checkpoints/run-1/best.pt': No space left on device";
      ledger.put(record);
    }
  }
  panel.refreshStatus();
  QVERIFY2(panel.queueLabel()->text().contains(QStringLiteral("4 failed (Launch can train")),
           qPrintable(panel.queueLabel()->text()));
  QString asked;
  QTimer answer;
  answer.setInterval(50);
  connect(&answer, &QTimer::timeout, [&] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (box == nullptr || box->objectName() != QLatin1String("retryFailedBox")) return;
    asked = box->text();
    for (QAbstractButton* button : box->buttons()) {
      if (button->text() == QLatin1String("Retry Failed")) button->click();
    }
  });
  answer.start();
  QTest::mouseClick(panel.launchButton(), Qt::LeftButton);
  answer.stop();
  QVERIFY2(asked.contains(QStringLiteral("4 trials of this experiment failed")) &&
               asked.contains(QStringLiteral("No space left on device")),
           qPrintable(asked));
  QTRY_VERIFY_WITH_TIMEOUT(doneTrials(panel) == 4 && !panel.isQueueRunning(), 120000);
  QVERIFY2(panel.queueLabel()->text().startsWith(QStringLiteral("Finished: 4 of 4 done")),
           qPrintable(panel.queueLabel()->text()));
}

QTEST_MAIN(ExperimentsRunTest)
#include "test_experiments_run.moc"
