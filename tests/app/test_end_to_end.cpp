// End to end, as a user works: open the default project, change a layer in the composer,
// train 30 steps, see the curves and the run in the database, sample 50 symbols, grow the
// hidden-state tree of the new model and find its run on the size-versus-validation plot.

#include <csignal>
#include <cstdio>

#include <qcustomplot.h>
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

#include "app/gui/help_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/project_files.h"
#include "app/gui/quit_signals.h"
#include "app/gui/template_catalog.h"
#include "app/gui/workbench_settings.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_store.h"
#include "widgets/composer/block_inspector.h"
#include "widgets/composer/composer_panel.h"
#include "widgets/data/data_panel.h"
#include "widgets/experiments/experiments_panel.h"
#include "widgets/experiments/results_view.h"
#include "widgets/masking/size_validation_panel.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/completion_view.h"
#include "widgets/sampler/sampler_console.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"
#include "widgets/tree/hidden_state_tree_panel.h"
#include "widgets/tree/tree_canvas.h"
#include "window_test_support.h"

using mrnn::test::saveAnswering;
using mrnn::test::writeFile;

namespace {

// The default project's corpus comes from Debian's fortunes package, which the README's
// first command installs.
const char* const kCorpus = "/usr/share/games/fortunes/people";

}  // namespace

class EndToEndTest : public QObject {
  Q_OBJECT

 private slots:
  // The defect: the status bar's project line (a permanent widget that took all its width)
  // hid every message the workbench gave there ("Saved ...", "Deleted run 3"): none was seen.
  void aStatusMessageIsSeen() {
    QStandardPaths::setTestModeEnabled(true);
    mrnn::app::MainWindow window(false);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
    const QImage before = window.statusBar()->grab().toImage();
    window.showStatus(QStringLiteral("Saved /tmp/a/project.yaml"));
    QCoreApplication::processEvents();
    const QImage during = window.statusBar()->grab().toImage();
    QVERIFY2(during != before, "the message was not drawn");
    window.statusBar()->clearMessage();
    QCoreApplication::processEvents();
    QCOMPARE(window.statusBar()->grab().toImage(), before);  // the project line is back

    // A message given before the window shows (the project opened at launch) is drawn alone,
    // not over the project's line (the defect that followed: both, one over the other).
    mrnn::app::MainWindow early(false);
    early.resize(1280, 720);
    early.showStatus(QStringLiteral("Saved /tmp/a/project.yaml"));
    early.show();
    QVERIFY(QTest::qWaitForWindowExposed(&early));
    QCoreApplication::processEvents();
    QVERIFY2(early.statusBar()->grab().toImage() == during, "the message and the line overlap");
  }

  // The defect: with a corpus that could not be read, the status line asked the researcher to
  // open the Data panel for the vocabulary size, as if nothing were wrong.
  void aCorpusThatCannotBeReadIsSaidInTheStatusLine() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    writeFile(path,
              "name: unreadable\nmodel:\n  input: {level: char, embedding_size: 8}\n  layers:\n"
              "    - {type: lstm, hidden_size: 16}\ndata:\n  train: corpus.txt\n");
    writeFile(folder.filePath(QStringLiteral("corpus.txt")), "not \xff UTF-8 text\n");
    mrnn::app::MainWindow window(false);
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    QTRY_VERIFY2(window.statusText().contains(QStringLiteral("the corpus could not be read")),
                 qPrintable(window.statusText()));
    // Nor does the composer's chip say "Ready to train" (the defect that followed): the model
    // is sound, but nothing can train on that corpus.
    QVERIFY2(window.composer()->statusText().contains(QStringLiteral("corpus cannot be read")),
             qPrintable(window.composer()->statusText()));
    // The corpus mended: ready again.
    writeFile(folder.filePath(QStringLiteral("corpus.txt")),
              QByteArray("plain text now. ").repeated(100));
    window.dataPanel()->rescan();
    QTRY_VERIFY2(window.composer()->statusText().contains(QStringLiteral("Ready to train")),
                 qPrintable(window.composer()->statusText()));
  }

  // The defect: SIGTERM (a logout, `kill`) while a run trained ended the workbench at once:
  // the run read as interrupted, its steps since the last checkpoint gone (7,485 of them in a
  // trial at 1280x720, with no latest.pt at all). Now the run stops with its checkpoint first.
  void aSignalToQuitStopsTheRunWithItsCheckpoint() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    writeFile(path,
              "name: signalled\nmodel:\n  input: {level: char, embedding_size: 8}\n  layers:\n"
              "    - {type: lstm, hidden_size: 16}\ndata:\n  train: corpus.txt\ntraining:\n"
              "  batch_size: 4\n  bptt: 20\n  max_steps: 100000000\n  validate_every: 0\n"
              "  checkpoint_every: 100000000\n  threads: 1\n");
    writeFile(folder.filePath(QStringLiteral("corpus.txt")),
              QByteArray("the quick brown fox jumps over the lazy dog. ").repeated(400));
    mrnn::app::MainWindow window(false);
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    mrnn::app::QuitSignals quitSignals;
    connect(&quitSignals, &mrnn::app::QuitSignals::requested, &window,
            &mrnn::app::MainWindow::quitOnSignal);
    auto* training = window.trainingMonitor()->controller();
    QSignalSpy steps(training, &mrnn::widgets::TrainingController::stepReceived);
    window.trainingMonitor()->startAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(steps.count() >= 20, 60000);
    QVERIFY(::raise(SIGTERM) == 0);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 30000);
    QVERIFY(!training->isRunning());
    const mrnn::engine::RunStore store(folder.filePath(QStringLiteral("runs.sqlite")).toStdString(),
                                       mrnn::engine::RunStore::Access::ReadOnly);
    const auto run = store.run(1);
    QVERIFY(run.has_value());
    QCOMPARE(run->status, mrnn::engine::RunStatus::Stopped);
    QVERIFY(QFileInfo::exists(folder.filePath(QStringLiteral("checkpoints/run-1/latest.pt"))));
  }

  // Another program's change to the open project (an editor, `mrnn project set`) reaches the
  // window as it happens: adopted and said when nothing here is unsaved, asked about when
  // something is.
  void anOutsideChangeReachesTheWindow() {
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    const auto write = [&](int hidden) {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
      file.write(QStringLiteral("name: outside\n# ours\nmodel:\n  input: {level: char, "
                                "embedding_size: 8, vocab_size: 40}\n  layers:\n    - {type: "
                                "lstm, hidden_size: %1}\n")
                     .arg(hidden)
                     .toUtf8());
    };
    write(16);
    mrnn::app::MainWindow window(false);
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.show();
    mrnn::widgets::ProjectDocument& document = window.document();
    write(24);
    QTRY_COMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{24});
    QVERIFY2(window.statusText().contains(QStringLiteral("was changed by another program")),
             qPrintable(window.statusText()));
    QVERIFY(!document.isModified());

    auto model = document.project().model;
    model.layers[0].hiddenSize = 20;
    document.editModel(model, QStringLiteral("Set hidden size"));
    write(32);
    QMessageBox* offer = nullptr;
    QTRY_VERIFY((offer = window.findChild<QMessageBox*>(QStringLiteral("reloadOfferBox"))) &&
                offer->isVisible());
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{20});
    for (QAbstractButton* button : offer->buttons()) {
      if (button->text() == QStringLiteral("Reload")) button->click();
    }
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{32});
    QVERIFY(!document.isModified());
    document.undoStack()->undo();
    QCOMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{20});
  }

  // The workbench reopens the last project at launch (the first of the recent projects that
  // is still a file), unless the command line names one; with none, the default project.
  void theLastProjectIsReopenedAtLaunch() {
    QStandardPaths::setTestModeEnabled(true);  // the settings of ~/.qttest, not the user's
    QTemporaryDir folder;
    const QString kept = folder.filePath(QStringLiteral("kept.yaml"));
    QFile file(kept);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name: kept\n");
    file.close();
    {
      QSettings settings = mrnn::app::workbenchSettings();
      settings.setValue(QStringLiteral("recentProjects"),
                        QStringList{folder.filePath(QStringLiteral("gone.yaml")), kept});
    }
    QCOMPARE(mrnn::app::ProjectFiles::lastProject(), kept);
    QCOMPARE(mrnn::app::ProjectFiles::projectAtLaunch({}, QStringLiteral("default.yaml"), true),
             kept);
    QCOMPARE(mrnn::app::ProjectFiles::projectAtLaunch({QStringLiteral("named.yaml")},
                                                      QStringLiteral("default.yaml"), true),
             QStringLiteral("named.yaml"));
    // A screenshot reads no settings.
    QCOMPARE(mrnn::app::ProjectFiles::projectAtLaunch({}, QStringLiteral("default.yaml"), false),
             QStringLiteral("default.yaml"));
    {
      QSettings settings = mrnn::app::workbenchSettings();
      settings.remove(QStringLiteral("recentProjects"));
    }
    QCOMPARE(mrnn::app::ProjectFiles::lastProject(), QString());
    QStandardPaths::setTestModeEnabled(false);
  }

  // How the researcher reads the charts (X axis, log scale, seeds as groups, smoothing) is
  // kept from one session of the workbench to the next.
  void theChartsAreReadAsTheyWereLastTime() {
    QStandardPaths::setTestModeEnabled(true);  // the settings of ~/.qttest, not the user's
    {
      QSettings settings = mrnn::app::workbenchSettings();
      settings.remove(QStringLiteral("trainingView"));
    }
    {
      mrnn::app::MainWindow window(true);
      window.show();
      auto* panel = window.trainingMonitor();
      QCOMPARE(panel->charts()->xAxis(), mrnn::widgets::TrainingCharts::XAxis::Step);
      QVERIFY(!panel->charts()->logScale());
      panel->restoreViewSettings({{QStringLiteral("xAxis"), 2},
                                  {QStringLiteral("logScale"), true},
                                  {QStringLiteral("groupSeeds"), false},
                                  {QStringLiteral("smoothing"), 0.9}});
      QVERIFY(window.close());
    }
    {
      mrnn::app::MainWindow window(true);
      auto* charts = window.trainingMonitor()->charts();
      QCOMPARE(charts->xAxis(), mrnn::widgets::TrainingCharts::XAxis::WallTime);
      QVERIFY(charts->logScale());
      QVERIFY(!window.trainingMonitor()->groupsSeeds());
      QCOMPARE(charts->smoothing(), 0.9);
    }
    // What the controls cannot show is passed over, not shown.
    mrnn::app::MainWindow window(false);
    auto* panel = window.trainingMonitor();
    panel->restoreViewSettings(
        {{QStringLiteral("xAxis"), 99}, {QStringLiteral("smoothing"), QStringLiteral("much")}});
    QCOMPARE(panel->charts()->xAxis(), mrnn::widgets::TrainingCharts::XAxis::Step);
    {
      QSettings settings = mrnn::app::workbenchSettings();
      settings.remove(QStringLiteral("trainingView"));
      settings.remove(QStringLiteral("mainWindow/geometry"));
      settings.remove(QStringLiteral("mainWindow/state"));
    }
    QStandardPaths::setTestModeEnabled(false);
  }

  // A project named at launch that does not open is said over the window, not only in a
  // status line that goes after eight seconds (an Untitled project was all one saw).
  void aProjectThatDoesNotOpenAtLaunchIsSaidInADialog() {
    QTemporaryDir folder;
    const QString missing = folder.filePath(QStringLiteral("no-such/project.yaml"));
    mrnn::app::MainWindow window(false);
    QVERIFY(!window.openProject(missing));
    window.show();
    window.warnProjectNotOpened();
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("projectNotOpened"));
    QVERIFY(box != nullptr);
    QVERIFY(box->isVisible());
    QVERIFY2(box->text().contains(QStringLiteral("no-such")), qPrintable(box->text()));
    box->close();
  }

  // The project file edited in a text editor while open here: Save asks which text wins.
  // Cancel keeps the editor's text; "Replace Their Changes" writes the workbench's.
  void saveAsksBeforeReplacingChangesMadeOutside() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(
          "# A researcher's comment.\nname: Outside\nmodel:\n  input:\n    level: char\n"
          "    embedding_size: 8\n    vocab_size: 20\n  layers:\n    - type: mlstm\n"
          "      hidden_size: 16\ndata:\n  train: corpus.txt\n");
    }
    mrnn::app::MainWindow window(false);
    QVERIFY(window.openProject(path));
    auto& document = window.document();
    auto model = document.project().model;
    model.layers[0].hiddenSize = 128;
    document.editModel(model, QStringLiteral("Set hidden size"));
    QFile outside(path);
    QVERIFY(outside.open(QIODevice::Append));
    outside.write("# Added in a text editor.\n");
    outside.close();
    for (const QString& answer : {QStringLiteral("Cancel"), QStringLiteral("Replace")}) {
      const QString asked = saveAnswering(window, QStringLiteral("changedOnDiskBox"), answer);
      QVERIFY2(asked.contains(QStringLiteral("changed by another program")), qPrintable(asked));
      QFile file(path);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const bool theirs = file.readAll().contains("# Added in a text editor.");
      QCOMPARE(theirs, answer == QStringLiteral("Cancel"));
    }
    QVERIFY(!document.isModified());
  }

  // The defect: an edit the workbench could not place in the file's own text (a key written
  // in YAML's explicit "? key" form) was saved by writing the project anew, without a word:
  // the file's comments were gone.
  void anEditThatCannotKeepTheLayoutAsksBeforeSaving() {
    QTemporaryDir folder;
    const QString path = folder.filePath(QStringLiteral("project.yaml"));
    const QByteArray original =
        "# A researcher's comment.\nname: Explicit\nmodel:\n  input: {level: char, "
        "embedding_size: 8, vocab_size: 20}\n  layers: [{type: lstm, hidden_size: 16}]\n"
        "data: {train: corpus.txt}\n? training\n: {optimizer: {type: adam, lr: 0.01}}\n";
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(original);
    }
    mrnn::app::MainWindow window(false);
    QVERIFY(window.openProject(path));
    auto& document = window.document();
    auto after = document.project();
    after.training.optimizer.learningRate = 0.02;
    document.edit(after, QStringLiteral("Set learning rate"));
    for (const QString& answer : {QStringLiteral("Cancel"), QStringLiteral("Write It Anew")}) {
      const QString asked = saveAnswering(window, QStringLiteral("layoutLostBox"), answer);
      QVERIFY2(asked.contains(QStringLiteral("comments")), qPrintable(asked));
      QFile file(path);
      QVERIFY(file.open(QIODevice::ReadOnly));
      const QByteArray text = file.readAll();
      QCOMPARE(text == original, answer == QStringLiteral("Cancel"));
      if (answer != QStringLiteral("Cancel")) QVERIFY(text.contains("lr: 0.02"));
    }
    QVERIFY(!document.isModified());
  }

  void helpShowsTheDocumentationAndEveryKey() {
    mrnn::app::MainWindow window(false);
    mrnn::app::HelpDialog help(mrnn::app::HelpDialog::standardDocsFolder(), &window);
    QVERIFY(help.pages().size() >= 5);
    help.showPage(0);
    QVERIFY(help.currentText().contains(QStringLiteral("workbench"), Qt::CaseInsensitive));
    const auto keys = mrnn::app::HelpDialog::shortcutsOf(&window);
    const auto has = [&keys](const QString& key, const QString& what) {
      for (const auto& [k, w] : keys) {
        if (k == key && w.contains(what)) return true;
      }
      return false;
    };
    QVERIFY(has(QStringLiteral("F5"), QStringLiteral("Start")));
    // Every key says what it does, and a key two panels use names each panel.
    QVERIFY(has(QStringLiteral("Esc"), QStringLiteral("Sampler: stop")));
    QVERIFY(has(QStringLiteral("Ctrl+Return"), QStringLiteral("Sampler: generate")));
    QVERIFY(has(QStringLiteral("Del"), QStringLiteral("Composer: Delete")));
    QVERIFY(has(QStringLiteral("Del"), QStringLiteral("Runs: Delete")));
    QVERIFY(has(QStringLiteral("Ctrl+D"), QStringLiteral("Runs: Diff")));
    for (const auto& [key, what] : keys) QVERIFY2(!what.trimmed().isEmpty(), qPrintable(key));
    QVERIFY(has(QStringLiteral("Ctrl+R"), QStringLiteral("corpus")));
    help.setShortcuts(keys);
    help.showPage(help.pageCount() - 1);
    QVERIFY(help.currentText().contains(QStringLiteral("Keyboard shortcuts")));
    QVERIFY(help.currentText().contains(QStringLiteral("F5")));
  }

  // A window opened on a screen smaller than its usual 1280 x 820 fits the screen's free
  // area (as far as its panels' least sizes let it), so the status bar and Start show.
  void theWindowOpensWithinTheScreen() {
    mrnn::app::MainWindow window(false);
    const QScreen* display = window.screen();
    QVERIFY(display != nullptr);
    const QSize available = display->availableGeometry().size();
    const QSize least = window.minimumSizeHint();
    QVERIFY2(window.height() <= std::max(available.height(), least.height()),
             qPrintable(QStringLiteral("%1 high on a screen of %2")
                            .arg(window.height())
                            .arg(available.height())));
    QVERIFY(window.width() <= std::max(available.width(), least.width()));
  }

  void panelsBelowCanTakeTheWholeWindowAndTheLayoutResets() {
    mrnn::app::MainWindow window(false);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.composer()->isVisible());
    window.toggleFocus();
    QVERIFY(window.isFocused());
    QVERIFY(!window.composer()->isVisible());
    QVERIFY(!window.dock(QStringLiteral("yaml"))->isVisible());
    QVERIFY(window.dock(QStringLiteral("training"))->isVisible());
    QTRY_VERIFY2(window.dock(QStringLiteral("training"))->height() > window.height() * 3 / 4,
                 qPrintable(QString::number(window.dock(QStringLiteral("training"))->height())));
    window.toggleFocus();
    QVERIFY(!window.isFocused());
    QVERIFY(window.composer()->isVisible());
    QVERIFY(window.dock(QStringLiteral("yaml"))->isVisible());
    // The composer can have the whole height too: on 720 pixels, then, the whole model shows.
    const int canvasBefore = window.composer()->height();
    window.toggleComposerFocus();
    QVERIFY(window.isFocused());
    QVERIFY(!window.dock(QStringLiteral("training"))->isVisible());
    QVERIFY(window.dock(QStringLiteral("yaml"))->isVisible());
    QTRY_VERIFY(window.composer()->height() > canvasBefore + 200);
    window.toggleComposerFocus();
    QVERIFY(!window.isFocused());
    QVERIFY(window.dock(QStringLiteral("training"))->isVisible());
    // Closed and lost panels come back with View > Reset Layout.
    window.dock(QStringLiteral("yaml"))->close();
    window.dock(QStringLiteral("training"))->setFloating(true);
    window.resetLayout();
    QVERIFY(window.dock(QStringLiteral("yaml"))->isVisible());
    QVERIFY(!window.dock(QStringLiteral("training"))->isFloating());
  }

  // On a 1280 x 720 screen the panels below show whole, none needing a scroll to reach its
  // plots: beside the composer all but the two with stacked views (gates: heatmap over
  // coloured text; surprisal: coloured text over recovery curves), and those two once the
  // panels below have the window (F11). The data form, a form of many rows, may scroll.
  void thePanelsBelowFitA720PixelWindow() {
    mrnn::app::MainWindow window(false);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto overflowing = [&window](const QStringList& names) {
      QStringList overflow;
      for (const QString& name : names) {
        QDockWidget* dock = window.dock(name);
        dock->raise();
        QApplication::processEvents();
        auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
        // What the scroll area gave the panel: more than it shows is a panel to scroll.
        const int needed = scroll->widget()->height();
        const int shown = scroll->viewport()->height();
        if (needed > shown)
          overflow << QStringLiteral("%1 needs %2 of %3").arg(name).arg(needed).arg(shown);
      }
      return overflow.join(QStringLiteral("; "));
    };
    const QStringList stacked{QStringLiteral("gates"), QStringLiteral("surprisal")};
    const QStringList others{QStringLiteral("training"),    QStringLiteral("runs"),
                             QStringLiteral("experiments"), QStringLiteral("sampler"),
                             QStringLiteral("tree"),        QStringLiteral("masking"),
                             QStringLiteral("sizes")};
    const QString besideComposer = overflowing(others);
    QVERIFY2(besideComposer.isEmpty(), qPrintable(besideComposer));
    window.toggleFocus();
    QTRY_VERIFY(!window.composer()->isVisible());
    const QString focused = overflowing(stacked + others);
    QVERIFY2(focused.isEmpty(), qPrintable(focused));
  }

  // A quit in a focus mode saves the layout from before it; the window fits a 960-pixel
  // half of a laptop's screen, and growing it again gives the YAML dock its share back.
  void theLayoutIsSavedWholeAndFitsHalfAScreen() {
    mrnn::app::MainWindow window(false);
    window.resize(1280, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.toggleFocus();
    mrnn::app::MainWindow next(false);
    next.resize(1280, 720);
    QVERIFY(next.restoreState(window.layoutToSave()));
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    QVERIFY(next.dock(QStringLiteral("yaml"))->isVisible());
    QVERIFY(next.dock(QStringLiteral("summary"))->isVisible());
    QVERIFY(next.composer()->isVisible());

    QVERIFY2(next.minimumSizeHint().width() <= 960,
             qPrintable(QStringLiteral("%1 wide at least, the composer %2")
                            .arg(next.minimumSizeHint().width())
                            .arg(next.composer()->minimumSizeHint().width())));
    next.resize(600, 720);  // as small as it goes
    QTRY_VERIFY(next.width() <= 960);
    next.resize(1600, 1000);
    QTRY_COMPARE(next.width(), 1600);
    QTRY_VERIFY2(next.dock(QStringLiteral("yaml"))->width() >= 1600 / 10,
                 qPrintable(QString::number(next.dock(QStringLiteral("yaml"))->width())));
  }

  // The Experiments panel's "Show in monitor" overlays the chosen configuration's runs in the
  // training monitor and brings it forward. The trials' runs are written through the engine
  // (as the queue leaves them), with a few points of validation each.
  void experimentTrialsShowInTheMonitor() {
    QTemporaryDir folder;
    const auto write = [&folder](const QString& name, const std::string& text) {
      QDir(folder.path()).mkpath(QFileInfo(folder.filePath(name)).path());
      QFile file(folder.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(text.c_str());
    };
    write(QStringLiteral("project.yaml"),
          "name: tiny\nmodel:\n  input: {level: char, embedding_size: 8, vocab_size: 40}\n"
          "  layers:\n    - {type: lstm, hidden_size: 16}\ntraining:\n  max_steps: 40\n"
          "data:\n  train: corpus.txt\n");
    write(QStringLiteral("experiments/lr.yaml"),
          "experiment:\n  axes:\n    - key: training.optimizer.lr\n"
          "      values: [0.001, 0.003]\n  seeds: [1, 2]\n");
    mrnn::app::MainWindow window(false);
    QVERIFY2(window.openProject(folder.filePath(QStringLiteral("project.yaml"))),
             qPrintable(window.statusText()));
    window.show();
    auto* panel = window.experimentsPanel();
    QVERIFY(window.dock(QStringLiteral("experiments")) != nullptr);
    QVERIFY2(panel->plan().has_value(), qPrintable(panel->experimentFile()));
    const mrnn::engine::ExperimentPlan& plan = *panel->plan();
    {
      mrnn::engine::RunStore store(plan.folder() + "/runs.sqlite");
      mrnn::engine::ExperimentLedger ledger(plan.folder());
      for (const auto& trial : plan.trials) {
        mrnn::engine::RunRecord run;
        run.name = trial.project.name;
        run.modelType = "lstm";
        const int64_t id = store.createRun(run);
        store.appendMetrics(id,
                            {{"valid/bpc", 20, 0.5, 1.0, 3.0}, {"valid/bpc", 40, 1.0, 2.0, 2.5}});
        store.setBestValid(id, 2.5);
        store.setStatus(id, mrnn::engine::RunStatus::Finished);
        mrnn::engine::TrialRecord record;
        record.experiment = plan.experiment.name;
        record.trial = trial.index;
        record.configuration = trial.configuration;
        record.seed = static_cast<int64_t>(trial.seed);
        record.fingerprint = trial.fingerprint;
        record.status = mrnn::engine::TrialStatus::Done;
        record.runId = id;
        ledger.put(record);
      }
    }
    panel->refreshStatus();
    window.raisePanel(QStringLiteral("experiments"));
    auto* results = panel->resultsView();
    results->table()->selectRow(1);
    const QList<qint64> ids = results->selectedRunIds();
    QCOMPARE(ids.size(), 2);
    QTest::mouseClick(results->showButton(), Qt::LeftButton);
    QCOMPARE(window.trainingMonitor()->overlayRuns(), ids);
    QTRY_VERIFY(window.trainingMonitor()->isVisible());
    // The configuration's two seeds as one mean with its band (the results' own grouping).
    QVERIFY(window.trainingMonitor()->groupsSeeds());
    QTRY_COMPARE(window.trainingMonitor()->charts()->overlayCount(), 1);
    QVERIFY(window.trainingMonitor()->charts()->overlayBand(
        0, mrnn::widgets::TrainingCharts::Chart::Validation));
    // Each on its own when asked.
    window.trainingMonitor()->setGroupSeeds(false);
    QTRY_COMPARE(window.trainingMonitor()->charts()->overlayCount(), 2);
  }

  void defaultProjectTrainsAndSamples() {
    QTemporaryDir user;
    const QString path = mrnn::app::TemplateCatalog::standard().defaultProject(user.path());
    QVERIFY2(!path.isEmpty(), "the default project could not be set up");
    QVERIFY(path.startsWith(user.path()));

    mrnn::app::MainWindow window(false);
    QVERIFY2(window.openProject(path), qPrintable(window.statusText()));
    window.resize(1280, 820);
    window.show();
    auto& document = window.document();

    // Keep the run short: 30 steps, validated and checkpointed at the end.
    mrnn::engine::Project settings = document.project();
    settings.training.maxSteps = 30;
    settings.training.validateEvery = 30;
    settings.training.checkpointEvery = 30;
    settings.training.batchSize = 16;
    settings.training.bptt = 50;
    document.edit(settings, QStringLiteral("Short run"));

    // Change the layer in the composer: select it, type a new hidden size.
    auto* composer = window.composer();
    QCOMPARE(composer->blockCount(), 3);  // input, mLSTM, output
    composer->selectBlock(1);
    auto* hidden = composer->inspector()->findChild<QSpinBox*>(QStringLiteral("hiddenSize"));
    QVERIFY(hidden != nullptr);
    QVERIFY(hidden->isVisible());
    hidden->selectAll();
    QTest::keyClicks(hidden, QStringLiteral("96"));
    QTest::keyClick(hidden, Qt::Key_Enter);
    QTRY_COMPARE(document.project().model.layers.at(0).hiddenSize, int64_t{96});
    QVERIFY(composer->isModelValid());

    // Train from the toolbar action; the window saves the changed project first.
    auto* monitor = window.trainingMonitor();
    QSignalSpy ended(monitor, &mrnn::widgets::TrainingMonitorPanel::runEnded);
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(20);
    QVERIFY(monitor->startAction()->isEnabled());
    // F5, as the empty chart says: one enabled holder of the key in the whole window.
    const QKeySequence f5(Qt::Key_F5);
    QStringList holders;
    for (QAction* action : window.findChildren<QAction*>()) {
      if (action->isEnabled() && action->shortcuts().contains(f5)) holders << action->objectName();
    }
    for (QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
      if (button->isEnabled() && button->shortcut() == f5) holders << button->objectName();
    }
    for (QShortcut* shortcut : window.findChildren<QShortcut*>()) {
      if (shortcut->isEnabled() && shortcut->key() == f5) holders << shortcut->objectName();
    }
    QVERIFY2(holders.size() == 1, qPrintable(holders.join(QStringLiteral(", "))));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!monitor->startAction()->isEnabled(), 10'000);
    QVERIFY(!document.isModified());
    QVERIFY(ended.wait(300'000));
    QVERIFY2(ended.first().at(0).toBool(), qPrintable(ended.first().at(1).toString()));
    QVERIFY2(ticks > 20, "the event loop must keep turning while the run trains");

    // The curves received a point per step.
    using Series = mrnn::widgets::TrainingCharts::Series;
    QCOMPARE(monitor->charts()->liveGraph(Series::LossRaw)->dataCount(), 30);
    QVERIFY(monitor->charts()->liveGraph(Series::Validation)->dataCount() >= 1);

    // The run is in the project's database, finished, with its 30 steps.
    mrnn::engine::RunStore store(QDir(document.folder()).filePath("runs.sqlite").toStdString());
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t{1});
    QCOMPARE(runs.front().steps, int64_t{30});
    QCOMPARE(mrnn::engine::runStatusName(runs.front().status), std::string("finished"));
    QVERIFY(runs.front().bestValid.has_value());
    QVERIFY(runs.front().configYaml.find("hidden_size: 96") != std::string::npos);

    // Sample 50 symbols from the new run's checkpoint.
    auto* sampler = window.samplerConsole();
    window.raisePanel(QStringLiteral("sampler"));
    sampler->refreshCheckpoints();
    sampler->optionsForm()->setLength(50);
    sampler->optionsForm()->setCompletions(1);
    sampler->optionsForm()->setPrime(QStringLiteral("The "));
    QSignalSpy generated(sampler, &mrnn::widgets::SamplerConsole::generationEnded);
    QTRY_VERIFY_WITH_TIMEOUT(!sampler->controller()->isBusy(), 60'000);
    sampler->generate();
    QVERIFY(generated.wait(120'000));
    QVERIFY2(sampler->message().isEmpty(), qPrintable(sampler->message()));
    QCOMPARE(sampler->completionCount(), 1);
    QCOMPARE(sampler->completionView(0)->symbolCount(), 50);

    // The analysis views heard of the run when it ended: the tree grows from its checkpoint.
    QVERIFY(window.raisePanel(QStringLiteral("tree")));
    auto* tree = window.treePanel();
    tree->setContext(QStringLiteral("The "));
    tree->setDepth(2);
    tree->setBranching(2);
    QSignalSpy grown(tree, &mrnn::widgets::HiddenStateTreePanel::analysisFinished);
    tree->runAnalysis();
    QVERIFY(grown.wait(60'000));
    QVERIFY(grown.first().first().toBool());
    QVERIFY(tree->canvas(0)->nodeCount() > 0);
    QCOMPARE(window.sizeValidationPanel()->plottedRuns().size(), size_t{1});

    // A quit while a run trains: the window says what it waits for, and closes once the run
    // has saved its checkpoint.
    settings = document.project();
    settings.training.maxSteps = 100'000;
    document.edit(settings, QStringLiteral("Long run"));
    QTest::keyClick(&window, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(monitor->controller()->isRunning(), 10'000);
    QTimer::singleShot(200, [] {
      for (QWidget* top : QApplication::topLevelWidgets()) {
        if (auto* box = qobject_cast<QMessageBox*>(top); box && box->isVisible()) {
          box->button(QMessageBox::Yes)->click();
        }
      }
    });
    QVERIFY(!window.close());  // not yet: the run is saving its checkpoint
    QVERIFY2(window.statusText().startsWith(QStringLiteral("Quitting once the run has saved")),
             qPrintable(window.statusText()));
    QVERIFY(window.isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 120'000);
    QVERIFY(!monitor->controller()->isRunning());
  }
};

int main(int argc, char** argv) {
  if (!QFileInfo::exists(QString::fromLatin1(kCorpus))) {
    std::printf("SKIP: %s is missing (install Debian's fortunes package)\n", kCorpus);
    return 77;
  }
  QApplication app(argc, argv);
  EndToEndTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_end_to_end.moc"
