// The runs panel's Export Model and Import PyTorch Model (ImportModelDialog) on a tiny model
// trained in the test: what each writes, what the table shows, and that a refused import
// writes nothing.

#include "model_files.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QtTest>
#include <functional>
#include <memory>

#include "engine/interop/model_file_kind.h"
#include "engine/store/imported_run.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "engine/store/run_store.h"
#include "trained_project.h"
#include "widgets/checkpoints/checkpoint_list.h"
#include "widgets/project/project_document.h"
#include "widgets/training/import_model_dialog.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/runs_table_model.h"

using mrnn::engine::ModelFileKind;
using mrnn::widgets::ImportModelDialog;
using mrnn::widgets::ProjectDocument;
using mrnn::widgets::RunBanner;
using mrnn::widgets::RunsPanel;
using mrnn::widgets::RunsTableModel;

namespace {

void writeText(const QString& path, const QByteArray& text) {
  QFile file(path);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write(text);
}

// What an import may write: the run records and the checkpoint folders.
struct ProjectState {
  size_t runs = 0;
  QStringList checkpointFolders;
  bool operator==(const ProjectState& other) const {
    return runs == other.runs && checkpointFolders == other.checkpointFolders;
  }
};

ProjectState stateOf(const QString& folder) {
  ProjectState state;
  state.runs = mrnn::engine::RunCatalogue(folder.toStdString()).runs().size();
  state.checkpointFolders =
      QDir(folder + QStringLiteral("/checkpoints")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  return state;
}

QString statusCell(const RunsPanel& panel, qint64 runId, int role = Qt::DisplayRole) {
  const RunsTableModel* model = panel.model();
  return model->index(model->rowOfRun(runId), RunsTableModel::Status).data(role).toString();
}

}  // namespace

class RunModelFilesTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();
  void exportIsOffWithoutARunOrACheckpoint();
  void exportWritesAStateDictAndItsDescription();
  void exportWritesSafetensorsWithTheDescriptionInside();
  void aNameGivenWithoutItsSuffixNeverReplacesAFileUnasked();
  void theDialogTellsAFileThatCarriesItsVocabulary();
  void importRefusesAMissingFileAndWritesNothing();
  void importRefusesAVocabularyOfTheWrongSizeAndWritesNothing();
  void importOfAPyTorchModelWithItsVocabularyAddsARun();
  void importOfAnExportedFileAddsARunShownAsImported();

 private:
  // Exports the trained run through the panel and waits for the end.
  bool exportTrainedRun(const QString& path);

  std::unique_ptr<mrnn::test::TrainedProject> project_;
  std::unique_ptr<ProjectDocument> document_;
  std::unique_ptr<RunsPanel> panel_;
  QString scratch_;  // files outside the project
  std::unique_ptr<QTemporaryDir> scratchDir_;
};

void RunModelFilesTest::initTestCase() {
  project_ = std::make_unique<mrnn::test::TrainedProject>(mrnn::test::tinyProjectYaml(6),
                                                          mrnn::test::lexiconText(4000));
  QVERIFY2(project_->ok(), qPrintable(project_->error()));
}

void RunModelFilesTest::init() {
  scratchDir_ = std::make_unique<QTemporaryDir>();
  QVERIFY(scratchDir_->isValid());
  scratch_ = scratchDir_->path();
  document_ = std::make_unique<ProjectDocument>();
  document_->load(project_->projectFile());
  panel_ = std::make_unique<RunsPanel>(*document_);
  panel_->resize(1100, 500);
  panel_->show();
}

void RunModelFilesTest::cleanup() {
  panel_.reset();
  document_.reset();
  scratchDir_.reset();
}

bool RunModelFilesTest::exportTrainedRun(const QString& path) {
  QSignalSpy exported(panel_.get(), &RunsPanel::modelExported);
  if (!panel_->exportModelTo(project_->runId(), path)) return false;
  if (!exported.wait(60000)) return false;
  return exported.at(0).at(1).toBool();
}

void RunModelFilesTest::exportIsOffWithoutARunOrACheckpoint() {
  QAction* action = panel_->exportModelAction();
  panel_->selectRuns({});
  QVERIFY(!action->isEnabled());
  QVERIFY2(action->toolTip().contains(QStringLiteral("Select a run")),
           qPrintable(action->toolTip()));
  // A run that stopped before its first checkpoint has nothing to export.
  qint64 bare = 0;
  {
    mrnn::engine::RunStore store(
        mrnn::engine::RunPaths::database(project_->folder().toStdString()));
    mrnn::engine::RunRecord run;
    run.name = "no checkpoint";
    bare = store.createRun(run);
    store.setStatus(bare, mrnn::engine::RunStatus::Stopped, "stopped at step 0");
  }
  panel_->refresh();
  panel_->selectRuns({bare});
  QVERIFY(!action->isEnabled());
  QVERIFY2(action->toolTip().contains(QStringLiteral("no checkpoint")),
           qPrintable(action->toolTip()));
  panel_->selectRuns({project_->runId()});
  QVERIFY(action->isEnabled());
  QVERIFY2(action->toolTip().contains(QStringLiteral("best checkpoint")),
           qPrintable(action->toolTip()));
  panel_->selectRuns({bare, project_->runId()});
  QVERIFY(!action->isEnabled());
  mrnn::engine::RunCatalogue(project_->folder().toStdString(),
                             mrnn::engine::RunCatalogue::Access::ReadWrite)
      .deleteRun(bare);
}

void RunModelFilesTest::exportWritesAStateDictAndItsDescription() {
  panel_->selectRuns({project_->runId()});
  QSignalSpy status(panel_.get(), &RunsPanel::statusMessage);
  const QString path = scratch_ + QStringLiteral("/model.pt");
  QVERIFY(exportTrainedRun(path));
  QVERIFY(!panel_->isExportingModel());
  QVERIFY(QFileInfo(path).isFile());
  QVERIFY(QFileInfo(path + QStringLiteral(".json")).isFile());
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.read(2), QByteArray("PK"));  // torch.save's zip archive
  QFile description(path + QStringLiteral(".json"));
  QVERIFY(description.open(QIODevice::ReadOnly));
  QVERIFY(description.readAll().contains("mrnn-workbench-model"));
  QCOMPARE(panel_->banner()->kind(), RunBanner::Kind::Success);
  QVERIFY2(panel_->banner()->text().contains(QStringLiteral("model.pt.json")),
           qPrintable(panel_->banner()->text()));
  QVERIFY(!status.isEmpty());
  QVERIFY2(status.last().at(0).toString().contains(path),
           qPrintable(status.last().at(0).toString()));
  QCOMPARE(mrnn::engine::modelFileKind(path.toStdString()), ModelFileKind::Exported);
  QVERIFY(panel_->exportModelAction()->isEnabled());  // on again once it ended
}

// The defect: a name typed without ".pt" in the file dialog (which asked about nothing: no
// such file) got the suffix, and the user's own file of that name was replaced unasked.
void RunModelFilesTest::aNameGivenWithoutItsSuffixNeverReplacesAFileUnasked() {
  const QString mine = scratch_ + QStringLiteral("/mine.pt");
  writeText(mine, "the user's own weights\n");
  panel_->selectRuns({project_->runId()});
  QVERIFY(panel_->exportModelAction()->isEnabled());
  bool answered = false;
  // The dialog is modal: answer it from the event loop it runs.
  const std::function<void()> answer = [&] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    if (!dialog) {
      QTimer::singleShot(20, panel_.get(), answer);
      return;
    }
    dialog->selectFile(scratch_ + QStringLiteral("/mine"));
    answered = true;
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, as its Save button
  };
  QTimer::singleShot(0, panel_.get(), answer);
  QSignalSpy exported(panel_.get(), &RunsPanel::modelExported);
  panel_->exportModelAction()->trigger();
  QVERIFY(answered);
  QVERIFY(exported.wait(60000));
  QVERIFY(!exported.at(0).at(1).toBool());
  const QString why = exported.at(0).at(2).toString();
  QVERIFY2(why.contains(QStringLiteral("mine.pt")) && why.contains(QStringLiteral("whole name")),
           qPrintable(why));
  QFile kept(mine);
  QVERIFY(kept.open(QIODevice::ReadOnly));
  QCOMPARE(kept.readAll(), QByteArray("the user's own weights\n"));
}

void RunModelFilesTest::exportWritesSafetensorsWithTheDescriptionInside() {
  const QString path = scratch_ + QStringLiteral("/model.safetensors");
  QVERIFY(exportTrainedRun(path));
  QVERIFY(QFileInfo(path).isFile());
  QVERIFY(!QFileInfo::exists(path + QStringLiteral(".json")));
  QCOMPARE(mrnn::engine::modelFileKind(path.toStdString()), ModelFileKind::Exported);
  // Safetensors from elsewhere carry no description; a header that is not one cannot tell.
  const QString plain = scratch_ + QStringLiteral("/plain.safetensors");
  mrnn::test::writeForeignSafetensors(plain.toStdString());
  QCOMPARE(mrnn::engine::modelFileKind(plain.toStdString()), ModelFileKind::PyTorch);
  const QString broken = scratch_ + QStringLiteral("/broken.safetensors");
  writeText(broken, QByteArray("not a safetensors file at all"));
  QCOMPARE(mrnn::engine::modelFileKind(broken.toStdString()), ModelFileKind::Unknown);
}

void RunModelFilesTest::theDialogTellsAFileThatCarriesItsVocabulary() {
  const QString exported = scratch_ + QStringLiteral("/exported.pt");
  QVERIFY(exportTrainedRun(exported));
  const QString plain = scratch_ + QStringLiteral("/lm.pt");
  mrnn::test::writePyTorchLanguageModel(plain.toStdString(), 5);
  ImportModelDialog dialog(project_->projectFile());
  dialog.show();
  auto* box = dialog.findChild<QGroupBox*>(QStringLiteral("importVocabularyBox"));
  QVERIFY(box);
  QVERIFY(!box->isVisible());  // no file yet
  dialog.setModelFile(exported);
  QCOMPARE(dialog.fileKind(), ModelFileKind::Exported);
  QVERIFY(!dialog.asksForVocabulary());
  QVERIFY(!box->isVisible());
  dialog.setModelFile(plain);
  QCOMPARE(dialog.fileKind(), ModelFileKind::PyTorch);
  QVERIFY(dialog.asksForVocabulary());
  QVERIFY(box->isVisible());
}

void RunModelFilesTest::importRefusesAMissingFileAndWritesNothing() {
  const ProjectState before = stateOf(project_->folder());
  ImportModelDialog dialog(project_->projectFile());
  dialog.show();
  QVERIFY(!dialog.startImport());
  QVERIFY2(dialog.errorText().contains(QStringLiteral("Choose the model file")),
           qPrintable(dialog.errorText()));
  const QString missing = scratch_ + QStringLiteral("/no such model.pt");
  dialog.setModelFile(missing);
  QCOMPARE(dialog.fileKind(), ModelFileKind::Missing);
  QVERIFY(!dialog.startImport());
  QVERIFY(!dialog.isImporting());
  QVERIFY2(dialog.errorText().contains(QStringLiteral("There is no model file at")) &&
               dialog.errorText().contains(QDir::toNativeSeparators(missing)),
           qPrintable(dialog.errorText()));
  QVERIFY(dialog.isVisible());  // the dialog stays, to correct the path
  QVERIFY(stateOf(project_->folder()) == before);
}

void RunModelFilesTest::importRefusesAVocabularyOfTheWrongSizeAndWritesNothing() {
  const ProjectState before = stateOf(project_->folder());
  const QString plain = scratch_ + QStringLiteral("/lm.pt");
  mrnn::test::writePyTorchLanguageModel(plain.toStdString(), 5);
  ImportModelDialog dialog(project_->projectFile());
  QSignalSpy imported(&dialog, &ImportModelDialog::imported);
  dialog.show();
  dialog.setModelFile(plain);
  // No vocabulary at all: refused before the engine is asked.
  QVERIFY(!dialog.startImport());
  QVERIFY2(dialog.errorText().contains(QStringLiteral("does not carry its vocabulary")),
           qPrintable(dialog.errorText()));

  // Three characters, for the project's own (character) level, against five rows.
  const QString symbols = scratch_ + QStringLiteral("/three.txt");
  writeText(symbols, "a\nb\nc\n");
  dialog.setVocabulary(ImportModelDialog::VocabularySource::SymbolFile, symbols);
  QVERIFY(dialog.startImport());
  QTRY_VERIFY_WITH_TIMEOUT(!dialog.isImporting(), 60000);
  QCOMPARE(imported.count(), 0);
  QVERIFY(dialog.isVisible());
  QVERIFY2(dialog.errorText().contains(QStringLiteral("3 symbols")) &&
               dialog.errorText().contains(QStringLiteral("5 rows")),
           qPrintable(dialog.errorText()));
  // The engine's whole sentence, naming the file and the key, behind Details; no backtrace.
  auto* details = dialog.findChild<QPlainTextEdit*>(QStringLiteral("importDetails"));
  auto* disclose = dialog.findChild<QToolButton*>(QStringLiteral("importDetailsButton"));
  QVERIFY(details && disclose);
  QVERIFY(disclose->isVisible());
  QVERIFY(!details->isVisible());
  disclose->click();
  QVERIFY(details->isVisible());
  QVERIFY2(dialog.errorDetails().contains(plain) &&
               dialog.errorDetails().contains(QStringLiteral("encoder.weight")),
           qPrintable(dialog.errorDetails()));
  QVERIFY(!dialog.errorDetails().contains(QStringLiteral("Exception raised from")));
  QVERIFY(stateOf(project_->folder()) == before);
}

void RunModelFilesTest::importOfAPyTorchModelWithItsVocabularyAddsARun() {
  const QString plain = scratch_ + QStringLiteral("/lm.pt");
  mrnn::test::writePyTorchLanguageModel(plain.toStdString(), 4);
  const QString corpus = scratch_ + QStringLiteral("/train.txt");
  writeText(corpus, "ab c");  // a, b, space, c: the project's own (character) level
  ImportModelDialog dialog(project_->projectFile());
  QSignalSpy imported(&dialog, &ImportModelDialog::imported);
  dialog.show();
  dialog.setModelFile(plain);
  dialog.setVocabulary(ImportModelDialog::VocabularySource::Corpus, corpus);
  QVERIFY(dialog.startImport());
  QVERIFY(imported.wait(60000));
  QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
  const qint64 runId = imported.at(0).at(0).toLongLong();
  QCOMPARE(imported.at(0).at(1).toString(), QStringLiteral("imported lm.pt"));
  QVERIFY2(imported.at(0).at(3).toString().contains(QStringLiteral("PyTorch LSTM")),
           qPrintable(imported.at(0).at(3).toString()));
  QCOMPARE(dialog.result(), int(QDialog::Accepted));
  const auto run = mrnn::engine::RunCatalogue(project_->folder().toStdString()).run(runId);
  QVERIFY(run.has_value());
  QVERIFY(mrnn::engine::isImportedRun(*run));
}

void RunModelFilesTest::importOfAnExportedFileAddsARunShownAsImported() {
  const QString exported = scratch_ + QStringLiteral("/exported.pt");
  QVERIFY(exportTrainedRun(exported));
  const ProjectState before = stateOf(project_->folder());
  QSignalSpy runImported(panel_.get(), &RunsPanel::runImported);
  QVERIFY(panel_->importModelAction()->isEnabled());
  panel_->importModelAction()->trigger();
  auto* dialog = panel_->findChild<ImportModelDialog*>();
  QVERIFY(dialog);
  QTRY_VERIFY(dialog->isVisible());
  dialog->setModelFile(exported);
  QVERIFY(!dialog->asksForVocabulary());
  dialog->setRunName(QStringLiteral("round trip"));
  QPointer<ImportModelDialog> watched(dialog);
  dialog->findChild<QAbstractButton*>(QStringLiteral("importButton"))->click();
  QVERIFY(runImported.wait(60000));
  QTRY_VERIFY(watched.isNull());  // closed and gone once the run is recorded
  const qint64 runId = runImported.at(0).at(0).toLongLong();
  QCOMPARE(stateOf(project_->folder()).runs, before.runs + 1);

  // Listed, selected and marked: status "Imported", the source file in its tooltip.
  QCOMPARE(panel_->selectedRunIds(), QList<qint64>{runId});
  QCOMPARE(statusCell(*panel_, runId), RunsTableModel::importedText());
  QVERIFY2(statusCell(*panel_, runId, Qt::ToolTipRole).contains(exported),
           qPrintable(statusCell(*panel_, runId, Qt::ToolTipRole)));
  QCOMPARE(statusCell(*panel_, project_->runId()), QStringLiteral("Finished"));
  const RunsTableModel* model = panel_->model();
  QCOMPARE(model->index(model->rowOfRun(runId), RunsTableModel::Name).data().toString(),
           QStringLiteral("round trip"));
  // The project's training settings were not its own: none are shown for it.
  for (const int column : {RunsTableModel::Optimizer, RunsTableModel::LearningRate,
                           RunsTableModel::Batch, RunsTableModel::Bptt}) {
    QCOMPARE(model->index(model->rowOfRun(runId), column).data().toString(), QStringLiteral("-"));
  }
  QVERIFY(model->index(model->rowOfRun(project_->runId()), RunsTableModel::Optimizer)
              .data()
              .toString() != QStringLiteral("-"));
  QVERIFY(panel_->banner()->text().contains(QStringLiteral("round trip")));
  // The filter finds the imported runs by what the table says, and only them.
  int importedRuns = 0;
  for (const auto& record : mrnn::engine::RunCatalogue(project_->folder().toStdString()).runs()) {
    importedRuns += mrnn::engine::isImportedRun(record) ? 1 : 0;
  }
  panel_->filterEdit()->setText(RunsTableModel::importedText());
  QCOMPARE(panel_->proxy()->rowCount(), importedRuns);
  panel_->filterEdit()->clear();
  // The sampler's and the analyses' chooser says so too.
  for (const auto& entry : mrnn::widgets::listCheckpoints(project_->folder())) {
    if (entry.runId != runId && entry.runId != project_->runId()) continue;
    QCOMPARE(entry.label().contains(QStringLiteral(" · imported")), entry.runId == runId);
  }
  // Its checkpoint is one the export can write again, and the sampler opens.
  QVERIFY(panel_->exportModelAction()->isEnabled());
}

QTEST_MAIN(RunModelFilesTest)
#include "test_run_model_files.moc"
