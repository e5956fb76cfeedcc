#include <sqlite3.h>
#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QtTest>
#include <cmath>

#include "engine/config/project_file.h"
#include "engine/io/checkpoint_envelope.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "training_test_project.h"
#include "widgets/export/export_bar.h"
#include "widgets/project/project_document.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/line_diff.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/runs_table_model.h"
#include "widgets/training/training_controller.h"

using mrnn::engine::RunRecord;
using mrnn::engine::RunStatus;
using mrnn::engine::RunStore;
using mrnn::widgets::ConfigDiffDialog;
using mrnn::widgets::DiffLine;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunBanner;
using mrnn::widgets::RunsPanel;
using mrnn::widgets::RunsTableModel;
using mrnn::widgets::TrainingController;
using mrnn::widgets::test::TrainingTestProject;

namespace {

// The config of a stored run: the test project with a given hidden size and learning rate.
std::string configYaml(const ProjectDocument& document, int64_t hidden, double lr) {
  mrnn::engine::Project project = document.project();
  project.model.layers.at(0).hiddenSize = hidden;
  project.training.optimizer.learningRate = lr;
  project.training.batchSize = 32;
  project.training.bptt = 100;
  return mrnn::engine::projectToYaml(project);
}

// Answers the next modal message box with the button whose text is `button`, and keeps
// its text for the test to read.
void answerNextMessageBox(const QString& button, QString* text, QString* informative = nullptr) {
  QTimer::singleShot(0, [button, text, informative] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    *text = box->text();
    if (informative) *informative = box->informativeText();
    for (QAbstractButton* candidate : box->buttons()) {
      if (candidate->text() == button) candidate->click();
    }
  });
}

QString cell(const RunsPanel& panel, int proxyRow, int column) {
  return panel.proxy()->index(proxyRow, column).data().toString();
}

// A checkpoint file of run `runId` whose envelope is whole (its payload is no model: the panel
// reads only the envelope before a resume), as a run in progress leaves one; `best` for the
// best one.
QString placeLatestCheckpoint(const QString& folder, qint64 runId, bool best = false) {
  const std::string path = best ? mrnn::engine::RunPaths::best(folder.toStdString(), runId)
                                : mrnn::engine::RunPaths::latest(folder.toStdString(), runId);
  const QString latest = QString::fromStdString(path);
  QDir().mkpath(QFileInfo(latest).path());
  QFile file(latest);
  if (file.open(QIODevice::WriteOnly))
    file.write(QByteArray::fromStdString(mrnn::engine::sealCheckpoint("payload")));
  return latest;
}

qint64 idAt(const RunsPanel& panel, int proxyRow) {
  return panel.proxy()->index(proxyRow, 0).data(RunsTableModel::RunIdRole).toLongLong();
}

}  // namespace

class RunsPanelTest : public QObject {
  Q_OBJECT

 private slots:
  void init();
  void cleanup();
  void tableShowsTheStoresRuns();
  void aHessianFreeRunShowsNoLearningRate();
  void aRealValuedRunShowsItsSquaredError();
  void longTrialNamesKeepTheirDistinguishingEnd();
  void anImportedRunCannotBeResumedAndItsBannerFollowsARename();
  void deletingATrialsRunSaysSoAndQueuesTheTrialAgain();
  void sortingByBestValidPutsTheBestFirst();
  void filterMatchesAnyColumn();
  void headersReadWholeAndTheFooterCountsWhatIsShown();
  void aRunIsRenamedAndNotedInTheTable();
  void aHeldDatabaseNeitherFreezesTheTableNorTakesItsWords();
  void selectionAsksForOverlays();
  void configDiffOfTwoRunsShowsTheChangedLine();
  void deleteAsksAndRemoves();
  void exportWritesTheStoresCsv();
  void anExportNeverReplacesTheOpenProjectsCorpus();
  void resumeNamesTheLatestCheckpoint();
  void aDamagedLatestCheckpointOffersTheBestOne();
  void aRunWhoseProcessDiedReadsInterrupted();
  void aRunAnotherProcessWritesIsNeitherResumedNorDeleted();
  void projectWithoutRunsCreatesNoDatabase();
  void renderScreenshot();

 private:
  std::unique_ptr<TrainingTestProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<RunsPanel> panel_;
  QString database_;
};

void RunsPanelTest::init() {
  project_ = std::make_unique<TrainingTestProject>();
  document_ = std::make_unique<ProjectDocument>();
  QCOMPARE(project_->loadInto(*document_), QString());
  database_ =
      QString::fromStdString(mrnn::engine::RunPaths::database(project_->folder().toStdString()));
  {
    RunStore store(database_.toStdString());
    const auto add = [&](const std::string& name, int64_t hidden, double lr, RunStatus status,
                         std::optional<double> best, std::optional<double> test,
                         const std::string& reason = "") {
      RunRecord run;
      run.name = name;
      run.modelType = "lstm";
      run.parameters = 1000 * hidden;
      run.configYaml = configYaml(*document_, hidden, lr);
      run.startedAt = "2025-01-0" + std::to_string(store.listRuns().size() + 1) + "T10:00:00Z";
      const int64_t id = store.createRun(run);
      store.updateProgress(id, 500, 3723.0);
      if (best) store.setBestValid(id, *best);
      if (test) store.setTestResult(id, *test);
      store.setStatus(id, status, reason);
      return id;
    };
    QCOMPARE(add("baseline", 256, 0.002, RunStatus::Finished, 1.5, 1.52), int64_t(1));
    QCOMPARE(add("wider", 512, 0.002, RunStatus::Finished, 1.4, 1.41), int64_t(2));
    QCOMPARE(add("diverged", 256, 0.5, RunStatus::Failed, std::nullopt, std::nullopt,
                 "the training loss became NaN at step 7"),
             int64_t(3));
    QCOMPARE(add("bigger lr", 256, 0.004, RunStatus::Stopped, 1.45, std::nullopt), int64_t(4));
  }
  panel_ = std::make_unique<RunsPanel>(*document_);
  panel_->resize(1100, 500);
  panel_->show();
}

void RunsPanelTest::cleanup() {
  panel_.reset();
  document_.reset();
  project_.reset();
}

void RunsPanelTest::tableShowsTheStoresRuns() {
  const RunsTableModel* model = panel_->model();
  QCOMPARE(model->rowCount(), 4);
  const int row = model->rowOfRun(1);
  const auto text = [&](int r, int column) { return model->index(r, column).data().toString(); };
  QCOMPARE(text(row, RunsTableModel::Name), QStringLiteral("baseline"));
  QCOMPARE(text(row, RunsTableModel::Model), QStringLiteral("lstm"));
  QCOMPARE(text(row, RunsTableModel::Parameters), QStringLiteral("256,000"));
  QCOMPARE(text(row, RunsTableModel::Optimizer), QStringLiteral("adam"));
  QCOMPARE(text(row, RunsTableModel::LearningRate), QStringLiteral("0.002"));
  QCOMPARE(text(row, RunsTableModel::Batch), QStringLiteral("32"));
  QCOMPARE(text(row, RunsTableModel::Bptt), QStringLiteral("100"));
  QCOMPARE(text(row, RunsTableModel::Hidden), QStringLiteral("256"));
  QCOMPARE(text(row, RunsTableModel::BestValid), QStringLiteral("1.5000"));
  QCOMPARE(text(row, RunsTableModel::Test), QStringLiteral("1.5200"));
  QCOMPARE(text(row, RunsTableModel::Duration), QStringLiteral("1:02:03"));
  QCOMPARE(text(row, RunsTableModel::Status), QStringLiteral("Finished"));
  const int failed = model->rowOfRun(3);
  QCOMPARE(text(failed, RunsTableModel::Status), QStringLiteral("Failed"));
  QCOMPARE(text(failed, RunsTableModel::BestValid), QStringLiteral("-"));
  QCOMPARE(model->index(failed, RunsTableModel::Status).data(Qt::ToolTipRole).toString(),
           QStringLiteral("the training loss became NaN at step 7"));
  QCOMPARE(text(model->rowOfRun(2), RunsTableModel::Hidden), QStringLiteral("512"));
  QCOMPARE(text(model->rowOfRun(4), RunsTableModel::Status), QStringLiteral("Stopped"));
}

// Hessian-free has no learning rate (its λ and CG set each step): its row once read "0.001",
// the learning rate left in its config from another optimiser.
void RunsPanelTest::aHessianFreeRunShowsNoLearningRate() {
  mrnn::engine::Project project = document_->project();
  project.training.optimizer.kind = mrnn::engine::OptimizerKind::HessianFree;
  project.training.optimizer.learningRate = 0.001;
  RunRecord run;
  run.id = 9;
  run.name = "hf";
  run.configYaml = mrnn::engine::projectToYaml(project);
  RunsTableModel model;
  model.setRuns({run});
  QCOMPARE(model.index(0, RunsTableModel::Optimizer).data().toString(),
           QStringLiteral("hessian_free"));
  QCOMPARE(model.index(0, RunsTableModel::LearningRate).data().toString(), QStringLiteral("—"));
  QVERIFY(model.index(0, RunsTableModel::LearningRate)
              .data(Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("no learning rate")));
  QVERIFY(model.toCsv().find(",hessian_free,,") != std::string::npos);
}

// The trainer records every held-out loss in bits; a real-valued output's (the addition
// problem's) is a squared error, shown and sorted as that.
void RunsPanelTest::aRealValuedRunShowsItsSquaredError() {
  TrainingTestProject::Options options;
  options.additionProblem = true;
  TrainingTestProject addition(options);
  ProjectDocument document;
  QCOMPARE(addition.loadInto(document), QString());
  RunRecord run;
  run.id = 9;
  run.name = "addition";
  run.configYaml = mrnn::engine::projectToYaml(document.project());
  run.bestValid = 0.25 / std::log(2.0);
  run.testResult = 0.125 / std::log(2.0);
  RunsTableModel model;
  model.setRuns({run});
  QCOMPARE(model.index(0, RunsTableModel::BestValid).data().toString(), QStringLiteral("0.2500"));
  QCOMPARE(model.index(0, RunsTableModel::Test).data().toString(), QStringLiteral("0.1250"));
  QCOMPARE(model.headerData(RunsTableModel::BestValid, Qt::Horizontal).toString(),
           QStringLiteral("Best valid, sq. error"));
  QVERIFY(model.index(0, RunsTableModel::Test)
              .data(Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("mean squared error")));
}

// Trial names were cut to "lstm-vs-mlst…" at 1280 px, hiding the part that tells trials apart:
// the table elides in the middle, and the name's tooltip gives it whole.
void RunsPanelTest::longTrialNamesKeepTheirDistinguishingEnd() {
  QCOMPARE(panel_->view()->textElideMode(), Qt::ElideMiddle);
  RunRecord run;
  run.id = 5;
  run.name = "lstm-vs-mlstm #3: type=mlstm, seed 2";
  RunsTableModel model;
  model.setRuns({run});
  QVERIFY(model.index(0, RunsTableModel::Name)
              .data(Qt::ToolTipRole)
              .toString()
              .startsWith(QStringLiteral("lstm-vs-mlstm #3: type=mlstm, seed 2\n")));
  // Sorting by name sorts by the names (it once sorted by a tooltip, the same for every run).
  panel_->view()->sortByColumn(RunsTableModel::Name, Qt::AscendingOrder);
  QStringList names;
  for (int r = 0; r < panel_->view()->model()->rowCount(); ++r) {
    names << panel_->view()->model()->index(r, RunsTableModel::Name).data().toString();
  }
  QCOMPARE(names, (QStringList{QStringLiteral("baseline"), QStringLiteral("bigger lr"),
                               QStringLiteral("diverged"), QStringLiteral("wider")}));
}

// Resuming an imported run can only fail ("it has weights but no training state"): Resume is
// off for it, its tooltip saying why. The banner that named it by its old name goes when it is
// renamed, and a banner about one project's runs goes when another project opens.
void RunsPanelTest::anImportedRunCannotBeResumedAndItsBannerFollowsARename() {
  qint64 imported = 0;
  {
    RunStore store(database_.toStdString());
    RunRecord run;
    run.name = "imported lstm";
    run.modelType = "lstm";
    run.configYaml = configYaml(*document_, 16, 0.002);
    imported = store.createRun(run);
    store.setStatus(imported, RunStatus::Finished, "imported from /models/lm.pt");
  }
  panel_->refresh();
  panel_->selectRuns({imported});
  QVERIFY(!panel_->resumeAction()->isEnabled());
  QVERIFY2(panel_->resumeAction()->toolTip().contains(QStringLiteral("was imported")),
           qPrintable(panel_->resumeAction()->toolTip()));
  panel_->selectRuns({4});
  QVERIFY(panel_->resumeAction()->isEnabled());

  panel_->showImportedRun(imported, QStringLiteral("imported lstm"),
                          QStringLiteral("/models/lm.pt"), QStringLiteral("an LSTM"));
  QVERIFY(!panel_->banner()->isHidden());
  QAbstractItemModel* shown = panel_->view()->model();
  QModelIndex name;
  for (int r = 0; r < shown->rowCount(); ++r) {
    const QModelIndex at = shown->index(r, RunsTableModel::Name);
    if (at.data(RunsTableModel::RunIdRole).toLongLong() == imported) name = at;
  }
  QVERIFY(name.isValid());
  QVERIFY(shown->setData(name, QStringLiteral("lm from the lab"), Qt::EditRole));
  QVERIFY(panel_->banner()->isHidden());

  panel_->showImportedRun(imported, QStringLiteral("lm from the lab"),
                          QStringLiteral("/models/lm.pt"), QStringLiteral("an LSTM"));
  TrainingTestProject other;
  QCOMPARE(other.loadInto(*document_), QString());
  QVERIFY(panel_->banner()->isHidden());
}

void RunsPanelTest::sortingByBestValidPutsTheBestFirst() {
  panel_->view()->sortByColumn(RunsTableModel::BestValid, Qt::AscendingOrder);
  QCOMPARE(idAt(*panel_, 0), 2);  // 1.40
  QCOMPARE(idAt(*panel_, 1), 4);  // 1.45
  QCOMPARE(idAt(*panel_, 2), 1);  // 1.50
  QCOMPARE(idAt(*panel_, 3), 3);  // never validated: last
  QCOMPARE(cell(*panel_, 0, RunsTableModel::BestValid), QStringLiteral("1.4000"));
  panel_->view()->sortByColumn(RunsTableModel::Hidden, Qt::DescendingOrder);
  QCOMPARE(idAt(*panel_, 0), 2);
  panel_->view()->sortByColumn(RunsTableModel::LearningRate, Qt::DescendingOrder);
  QCOMPARE(idAt(*panel_, 0), 3);  // 0.5 > 0.004 > 0.002, numerically
  QCOMPARE(idAt(*panel_, 1), 4);
}

void RunsPanelTest::filterMatchesAnyColumn() {
  panel_->filterEdit()->setText(QStringLiteral("diverged"));
  QCOMPARE(panel_->proxy()->rowCount(), 1);
  QCOMPARE(idAt(*panel_, 0), 3);
  panel_->filterEdit()->setText(QStringLiteral("finished"));  // the status column
  QCOMPARE(panel_->proxy()->rowCount(), 2);
  panel_->filterEdit()->setText(QStringLiteral("512"));
  QCOMPARE(panel_->proxy()->rowCount(), 1);
  QCOMPARE(idAt(*panel_, 0), 2);
  panel_->filterEdit()->clear();
  QCOMPARE(panel_->proxy()->rowCount(), 4);
}

void RunsPanelTest::headersReadWholeAndTheFooterCountsWhatIsShown() {
  QHeaderView* header = panel_->view()->horizontalHeader();
  for (int column = 0; column < RunsTableModel::ColumnCount; ++column) {
    if (column == RunsTableModel::Name) continue;  // stretches
    QVERIFY2(header->sectionSize(column) >= header->sectionSizeHint(column),
             qPrintable(panel_->model()->headerData(column, Qt::Horizontal).toString()));
  }
  auto* footer = panel_->findChild<QLabel*>(QStringLiteral("runsFooter"));
  QVERIFY(footer);
  QVERIFY2(footer->text().startsWith(QStringLiteral("4 run")), qPrintable(footer->text()));
  panel_->filterEdit()->setText(QStringLiteral("diverged"));
  QVERIFY2(footer->text().contains(QStringLiteral("1 shown")), qPrintable(footer->text()));
  panel_->filterEdit()->clear();
  QVERIFY(!footer->text().contains(QStringLiteral("shown")));

  // The defect: a long message there (an evaluation's failure names two checkpoint paths) set
  // the panel's least width past the window's, and a scroll bar came up under it. It is cut
  // to the room there is, whole in its tooltip.
  panel_->resize(1280, 400);
  panel_->show();
  QVERIFY(QTest::qWaitForWindowExposed(panel_.get()));
  const int before = panel_->minimumSizeHint().width();
  panel_->selectRuns({2});
  QVERIFY(panel_->model()->setData(
      panel_->model()->index(panel_->model()->rowOfRun(2), RunsTableModel::Name),
      QStringLiteral("a run named at length ").repeated(20)));
  QString question;
  answerNextMessageBox(QStringLiteral("Delete"), &question);
  panel_->deleteSelected();
  QCoreApplication::processEvents();
  QVERIFY2(
      panel_->minimumSizeHint().width() <= before,
      qPrintable(QStringLiteral("%1 > %2").arg(panel_->minimumSizeHint().width()).arg(before)));
  QVERIFY2(footer->toolTip().contains(QStringLiteral("Deleted")), qPrintable(footer->toolTip()));
}

void RunsPanelTest::aRunIsRenamedAndNotedInTheTable() {
  RunsTableModel* model = panel_->model();
  const int row = model->rowOfRun(2);
  QVERIFY(model->flags(model->index(row, RunsTableModel::Name)) & Qt::ItemIsEditable);
  QVERIFY(model->flags(model->index(row, RunsTableModel::Note)) & Qt::ItemIsEditable);
  QVERIFY(!(model->flags(model->index(row, RunsTableModel::Model)) & Qt::ItemIsEditable));
  QVERIFY(model->setData(model->index(row, RunsTableModel::Name), QStringLiteral("wide LSTM")));
  QVERIFY(model->setData(model->index(model->rowOfRun(2), RunsTableModel::Note),
                         QStringLiteral("twice the units of run 1")));
  // Written to the store, and shown from it.
  RunStore store(database_.toStdString(), RunStore::Access::ReadOnly);
  QCOMPARE(store.run(2)->name, std::string("wide LSTM"));
  QCOMPARE(store.run(2)->note, std::string("twice the units of run 1"));
  QCOMPARE(model->index(model->rowOfRun(2), RunsTableModel::Name).data().toString(),
           QStringLiteral("wide LSTM"));
  QCOMPARE(model->index(model->rowOfRun(2), RunsTableModel::Note).data().toString(),
           QStringLiteral("twice the units of run 1"));
  // An empty name is not taken.
  QVERIFY(!model->setData(model->index(model->rowOfRun(2), RunsTableModel::Name), QString()));
  QCOMPARE(store.run(2)->name, std::string("wide LSTM"));
  // The note is in the exported table too.
  QVERIFY(model->toCsv().find(",twice the units of run 1\n") != std::string::npos);

  // As a user does it: a double-click on run 1's note, the text, Return.
  QTableView* view = panel_->view();
  const QModelIndex cell =
      panel_->proxy()->mapFromSource(model->index(model->rowOfRun(1), RunsTableModel::Note));
  view->scrollTo(cell);
  const QPoint at = view->visualRect(cell).center();
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
  QLineEdit* editor = nullptr;
  QTRY_VERIFY((editor = view->viewport()->findChild<QLineEdit*>()) != nullptr);
  QTest::keyClicks(editor, QStringLiteral("the baseline"));
  QTest::keyClick(editor, Qt::Key_Return);
  QTRY_COMPARE(store.run(1).value().note, std::string("the baseline"));
}

// The defect: with another program holding the run database (a database browser with unsaved
// edits), a rename, a note or a delete froze the window for the store's 5 s wait and then
// said "another program holds it locked" in the database's terms.
void RunsPanelTest::aHeldDatabaseNeitherFreezesTheTableNorTakesItsWords() {
  sqlite3* other = nullptr;
  QCOMPARE(sqlite3_open(database_.toUtf8().constData(), &other), SQLITE_OK);
  QCOMPARE(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  QSignalSpy messages(panel_.get(), &RunsPanel::statusMessage);
  RunsTableModel* model = panel_->model();
  QElapsedTimer clock;
  clock.start();
  model->setData(model->index(model->rowOfRun(2), RunsTableModel::Name), QStringLiteral("wide"));
  const qint64 renameMs = clock.elapsed();
  QVERIFY2(renameMs < 1500, qPrintable(QStringLiteral("the rename took %1 ms").arg(renameMs)));
  QCOMPARE(messages.count(), 1);
  const QString said = messages.takeFirst().at(0).toString();
  QVERIFY2(said.contains(QStringLiteral("Run 2 keeps its name")) &&
               said.contains(QStringLiteral("another program holds the run database")) &&
               said.contains(QStringLiteral("try again")),
           qPrintable(said));

  clock.restart();
  QString question;
  answerNextMessageBox(QStringLiteral("Delete"), &question);
  panel_->selectRuns({1});
  panel_->deleteSelected();
  QVERIFY2(clock.elapsed() < 1500,
           qPrintable(QStringLiteral("the delete took %1 ms").arg(clock.elapsed())));
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("Nothing was deleted")) &&
               panel_->banner()->text().contains(QStringLiteral("try again when it is free")),
           qPrintable(panel_->banner()->text()));
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  RunStore store(database_.toStdString(), RunStore::Access::ReadOnly);
  QVERIFY(store.run(1).has_value());
  QCOMPARE(store.run(2)->name, std::string("wider"));
}

void RunsPanelTest::selectionAsksForOverlays() {
  QSignalSpy overlays(panel_.get(), &RunsPanel::overlayRunsChanged);
  panel_->view()->sortByColumn(RunsTableModel::Id, Qt::AscendingOrder);
  panel_->selectRuns({2, 1});
  QVERIFY(overlays.count() >= 1);
  QCOMPARE(overlays.last().at(0).value<QList<qint64>>(), (QList<qint64>{1, 2}));
  QVERIFY(panel_->diffAction()->isEnabled());
  QVERIFY(!panel_->resumeAction()->isEnabled());  // one run at a time
  panel_->selectRuns({4});
  QCOMPARE(overlays.last().at(0).value<QList<qint64>>(), (QList<qint64>{4}));
  QVERIFY(!panel_->diffAction()->isEnabled());
  QVERIFY(panel_->resumeAction()->isEnabled());
  panel_->setTrainingActive(true);
  QVERIFY(!panel_->resumeAction()->isEnabled());
}

void RunsPanelTest::configDiffOfTwoRunsShowsTheChangedLine() {
  panel_->selectRuns({1, 2});  // configs differ in the hidden size only
  panel_->diffSelected();
  auto* dialog = panel_->findChild<ConfigDiffDialog*>();
  QVERIFY(dialog);
  QVERIFY(dialog->isVisible());
  QCOMPARE(dialog->removedCount(), 1);
  QCOMPARE(dialog->addedCount(), 1);
  QString removed;
  QString added;
  for (const DiffLine& line : dialog->lines()) {
    if (line.kind == DiffLine::Kind::Removed) removed = line.text.trimmed();
    if (line.kind == DiffLine::Kind::Added) added = line.text.trimmed();
  }
  QCOMPARE(removed, QStringLiteral("hidden_size: 256"));
  QCOMPARE(added, QStringLiteral("hidden_size: 512"));
  QVERIFY(dialog->windowTitle().contains(QStringLiteral("run 1")));
  dialog->close();
}

void RunsPanelTest::deleteAsksAndRemoves() {
  const QString checkpoints = QString::fromStdString(
      mrnn::engine::RunPaths::checkpointFolder(project_->folder().toStdString(), 3));
  QVERIFY(QDir().mkpath(checkpoints));
  QFile latest(checkpoints + QStringLiteral("/latest.pt"));
  QVERIFY(latest.open(QIODevice::WriteOnly));
  latest.write("not really a checkpoint");
  latest.close();
  panel_->selectRuns({3});

  QString question;
  answerNextMessageBox(QStringLiteral("Keep"), &question);
  panel_->deleteSelected();
  QVERIFY2(question.contains(QStringLiteral("run 3 · diverged")), qPrintable(question));
  QCOMPARE(panel_->model()->rowCount(), 4);
  QVERIFY(RunStore(database_.toStdString()).run(3).has_value());
  QVERIFY(QFileInfo::exists(checkpoints));

  answerNextMessageBox(QStringLiteral("Delete"), &question);
  panel_->deleteSelected();
  QCOMPARE(panel_->model()->rowCount(), 3);
  QCOMPARE(panel_->model()->rowOfRun(3), -1);
  QVERIFY(!RunStore(database_.toStdString()).run(3).has_value());
  QVERIFY(!QFileInfo::exists(checkpoints));
  QVERIFY(RunStore(database_.toStdString()).run(1).has_value());

  // A file of the user's in a run's folder stays, and the banner says where (the defect: the
  // whole folder went, the file with it).
  const QString kept = QString::fromStdString(
      mrnn::engine::RunPaths::checkpointFolder(project_->folder().toStdString(), 4));
  QVERIFY(QDir().mkpath(kept));
  QFile notes(kept + QStringLiteral("/notes.txt"));
  QVERIFY(notes.open(QIODevice::WriteOnly));
  notes.write("why the learning rate was doubled");
  notes.close();
  QFile checkpoint(kept + QStringLiteral("/latest.pt"));
  QVERIFY(checkpoint.open(QIODevice::WriteOnly));
  checkpoint.close();
  panel_->selectRuns({4});
  answerNextMessageBox(QStringLiteral("Delete"), &question);
  panel_->deleteSelected();
  QCOMPARE(panel_->model()->rowOfRun(4), -1);
  QVERIFY(QFileInfo::exists(kept + QStringLiteral("/notes.txt")));
  QVERIFY(!QFileInfo::exists(kept + QStringLiteral("/latest.pt")));
  QCOMPARE(panel_->banner()->kind(), RunBanner::Kind::Information);
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("checkpoints/run-4 stays")) &&
               panel_->banner()->text().contains(QStringLiteral("notes.txt")),
           qPrintable(panel_->banner()->text()));
}

// Deleting a trial's run said nothing of its experiment, which went on claiming it. The dialog
// says which trial of which experiment the run is, and the trial waits to train again.
void RunsPanelTest::deletingATrialsRunSaysSoAndQueuesTheTrialAgain() {
  {
    mrnn::engine::ExperimentLedger ledger(project_->folder().toStdString());
    mrnn::engine::TrialRecord trial;
    trial.experiment = "lstm-vs-mlstm";
    trial.trial = 2;
    trial.label = "type=mlstm";
    trial.status = mrnn::engine::TrialStatus::Done;
    trial.runId = 2;
    ledger.put(trial);
  }
  panel_->selectRuns({2});
  QString question;
  QString informative;
  answerNextMessageBox(QStringLiteral("Delete"), &question, &informative);
  panel_->deleteSelected();
  QVERIFY2(informative.contains(
               QStringLiteral("Run 2 is trial #3 (type=mlstm) of experiment 'lstm-vs-mlstm'")),
           qPrintable(informative));
  const mrnn::engine::ExperimentLedger after(project_->folder().toStdString(),
                                             mrnn::engine::ExperimentLedger::Access::ReadOnly);
  const auto trial = after.trial("lstm-vs-mlstm", 2);
  QVERIFY(trial.has_value());
  QCOMPARE(trial->status, mrnn::engine::TrialStatus::Queued);
  QCOMPARE(trial->runId, int64_t{0});
}

void RunsPanelTest::exportWritesTheStoresCsv() {
  const QString path = project_->folder() + QStringLiteral("/exported.csv");
  QVERIFY(panel_->exportCsvTo(path));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const std::string written = file.readAll().toStdString();
  QCOMPARE(written, panel_->model()->toCsv());
  // The table's columns, hyperparameters included: the header and run 2's row.
  QVERIFY2(written.rfind("id,name,model_type,parameters,optimizer,learning_rate,batch_size,bptt,"
                         "hidden_sizes,best_valid_bits_per_symbol,test_bits_per_symbol,steps,",
                         0) == 0,
           written.c_str());
  QVERIFY2(
      written.find("\n2,wider,lstm,512000,adam,0.002,32,100,512,1.4,1.41,") != std::string::npos,
      written.c_str());
  QVERIFY(written.find("diverged") != std::string::npos);
  // A folder that does not exist: a notice, no crash.
  QVERIFY(!panel_->exportCsvTo(project_->folder() + QStringLiteral("/no/such/folder/x.csv")));
  QCOMPARE(panel_->banner()->kind(), RunBanner::Kind::Failure);
}

// The defect: a file dialog's "replace it?" was all that stood between an export (the Runs
// table's CSV, any view's numbers) and the open project's corpus, though `mrnn` and Export
// Model never replace a project's own files.
void RunsPanelTest::anExportNeverReplacesTheOpenProjectsCorpus() {
  const QString corpus = project_->folder() + QStringLiteral("/corpus.txt");
  QFile before(corpus);
  QVERIFY(before.open(QIODevice::ReadOnly));
  const QByteArray text = before.readAll();
  before.close();
  QVERIFY(!panel_->exportCsvTo(corpus));
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("corpus.txt")),
           qPrintable(panel_->banner()->text()));
  mrnn::widgets::ExportBar bar(QStringLiteral("numbers"), nullptr,
                               [] { return QByteArray("step,loss\n1,2.0\n"); });
  const QString refused = bar.saveCsvTo(corpus);
  QVERIFY2(refused.contains(QStringLiteral("corpus.txt")), qPrintable(refused));
  QFile after(corpus);
  QVERIFY(after.open(QIODevice::ReadOnly));
  QCOMPARE(after.readAll(), text);
  // Beside it, a new file is written as before.
  QCOMPARE(bar.saveCsvTo(project_->folder() + QStringLiteral("/numbers.csv")), QString());
}

void RunsPanelTest::resumeNamesTheLatestCheckpoint() {
  QSignalSpy resume(panel_.get(), &RunsPanel::resumeRequested);
  panel_->selectRuns({4});
  panel_->resumeSelected();  // no checkpoint file yet
  QTRY_VERIFY(panel_->banner()->text().contains(QStringLiteral("no latest checkpoint")));
  QVERIFY(panel_->banner()->isVisible());
  QCOMPARE(resume.count(), 0);

  const QString latest = placeLatestCheckpoint(project_->folder(), 4);
  QVERIFY(QFileInfo::exists(latest));
  panel_->resumeSelected();
  QVERIFY(!panel_->resumeAction()->isEnabled());  // while the checkpoints are read
  QTRY_COMPARE(resume.count(), 1);
  QCOMPARE(resume.at(0).at(0).toLongLong(), 4);
  QCOMPARE(resume.at(0).at(1).toString(), latest);
  QVERIFY(panel_->resumeAction()->isEnabled());
}

// The defect: a run whose latest checkpoint was damaged was resumed from it (training then
// failed to start), and the window had no way to resume from its best checkpoint, whole beside
// it. The damage is said before anything starts, and the banner resumes from the best one.
void RunsPanelTest::aDamagedLatestCheckpointOffersTheBestOne() {
  const QString latest = placeLatestCheckpoint(project_->folder(), 4);
  const QString best = placeLatestCheckpoint(project_->folder(), 4, true);
  {
    QFile damage(latest);
    QVERIFY(damage.open(QIODevice::ReadWrite));
    damage.seek(34);
    damage.write("X");
  }
  QSignalSpy resume(panel_.get(), &RunsPanel::resumeRequested);
  panel_->selectRuns({4});
  panel_->resumeSelected();
  QTRY_VERIFY(panel_->banner()->hasAction());
  QCOMPARE(resume.count(), 0);
  const QString said = panel_->banner()->text();
  QVERIFY2(said.contains(QStringLiteral("cannot be resumed from its latest checkpoint")) &&
               said.contains(QStringLiteral("checksum")) &&
               said.contains(QStringLiteral("best checkpoint")),
           qPrintable(said));
  QVERIFY(panel_->banner()->hasAction());
  panel_->banner()->triggerAction();
  QCOMPARE(resume.count(), 1);
  QCOMPARE(resume.at(0).at(0).toLongLong(), 4);
  QCOMPARE(resume.at(0).at(1).toString(), best);
  // The best one damaged too: said, and nothing offered.
  {
    QFile damage(best);
    QVERIFY(damage.open(QIODevice::WriteOnly | QIODevice::Truncate));
  }
  panel_->resumeSelected();
  QTRY_VERIFY2(panel_->banner()->text().contains(QStringLiteral("no whole best checkpoint")),
               qPrintable(panel_->banner()->text()));
  QCOMPARE(resume.count(), 1);
  QVERIFY(!panel_->banner()->hasAction());
  QFile::remove(best);
  QFile::remove(latest);
}

void RunsPanelTest::aRunWhoseProcessDiedReadsInterrupted() {
  // The database says running; no process holds the run (it was killed).
  RunStore(database_.toStdString()).setStatus(4, RunStatus::Running);
  panel_->refresh();
  const RunsTableModel* model = panel_->model();
  const QModelIndex status = model->index(model->rowOfRun(4), RunsTableModel::Status);
  QCOMPARE(status.data().toString(), QStringLiteral("Interrupted"));
  QVERIFY(status.data(Qt::ToolTipRole).toString().contains(QStringLiteral("resume")));
  // While its writer lives, it is running.
  mrnn::engine::RunCatalogue catalogue(project_->folder().toStdString());
  mrnn::engine::RunLock held = catalogue.lockForWriting(4);
  panel_->refresh();
  QCOMPARE(model->index(model->rowOfRun(4), RunsTableModel::Status).data().toString(),
           QStringLiteral("Running"));
}

void RunsPanelTest::aRunAnotherProcessWritesIsNeitherResumedNorDeleted() {
  const QString latest = placeLatestCheckpoint(project_->folder(), 4);
  mrnn::engine::RunCatalogue catalogue(project_->folder().toStdString());
  mrnn::engine::RunLock held = catalogue.lockForWriting(4);  // as `mrnn resume` would
  QSignalSpy resume(panel_.get(), &RunsPanel::resumeRequested);
  panel_->selectRuns({4});
  panel_->resumeSelected();
  QCOMPARE(resume.count(), 0);
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("being trained by process")),
           qPrintable(panel_->banner()->text()));
  panel_->deleteSelected();  // refused before asking
  QVERIFY(RunStore(database_.toStdString()).run(4).has_value());
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("Run 4 is being trained by")),
           qPrintable(panel_->banner()->text()));
  QVERIFY(QFileInfo::exists(latest));
}

void RunsPanelTest::projectWithoutRunsCreatesNoDatabase() {
  TrainingTestProject empty;
  ProjectDocument document;
  QCOMPARE(empty.loadInto(document), QString());
  RunsPanel panel(document);
  panel.show();
  QCOMPARE(panel.model()->rowCount(), 0);
  auto* label = panel.findChild<QLabel*>(QStringLiteral("runsEmptyLabel"));
  QVERIFY(label->isVisible());
  QVERIFY(label->text().contains(QStringLiteral("No runs yet")));
  QVERIFY(!QFileInfo::exists(empty.folder() + QStringLiteral("/runs.sqlite")));
  QVERIFY(!panel.exportAction()->isEnabled());
}

void RunsPanelTest::renderScreenshot() {
  const QString folder = qEnvironmentVariable("MRNN_SCREENSHOT_DIR");
  if (folder.isEmpty()) QSKIP("set MRNN_SCREENSHOT_DIR to save a screenshot");
  panel_->selectRuns({1, 2});
  panel_->resize(1100, 700);
  QTest::qWait(100);
  QVERIFY(panel_->grab().save(folder + QStringLiteral("/runs_panel_test.png")));
  panel_->diffSelected();
  auto* dialog = panel_->findChild<ConfigDiffDialog*>();
  QVERIFY(dialog);
  QTest::qWait(100);
  QVERIFY(dialog->grab().save(folder + QStringLiteral("/config_diff_test.png")));
}

QTEST_MAIN(RunsPanelTest)
#include "test_runs_panel.moc"
