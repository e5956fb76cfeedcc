// Trains the quick-mlstm project briefly on tiny shakespeare (two runs, the second with a
// higher learning rate and the first overlaid) and saves what a user would see: the
// training monitor during and after the run, the runs table and a config diff.
//   widgets_training_screenshots <output-folder> [<shared-data-folder>]
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

#include "engine/config/project_file.h"
#include "widgets/project/project_document.h"
#include "widgets/training/config_diff_dialog.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/training_controller.h"
#include "widgets/training/training_monitor_panel.h"

using namespace mrnn;

namespace {

void spin(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

bool trainOnce(widgets::TrainingMonitorPanel& panel, const QString& midRunShot) {
  bool ended = false;
  bool ok = false;
  QObject context;
  QObject::connect(&panel, &widgets::TrainingMonitorPanel::runEnded, &context,
                   [&](bool success, const QString& summary) {
                     ended = true;
                     ok = success;
                     std::printf("%s\n", qPrintable(summary));
                   });
  bool shot = midRunShot.isEmpty();
  QObject::connect(panel.controller(), &widgets::TrainingController::stepReceived, &context,
                   [&](const engine::StepEvent& event) {
                     if (!shot && event.step >= 60) {
                       shot = true;
                       QTimer::singleShot(250, &panel,
                                          [&panel, midRunShot] { panel.grab().save(midRunShot); });
                     }
                   });
  panel.start();
  QElapsedTimer clock;
  clock.start();
  while (!ended && clock.elapsed() < 20 * 60 * 1000) spin(50);
  spin(400);  // the last coalesced replot
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <output-folder> [<shared-data-folder>]\n", argv[0]);
    return 2;
  }
  const QString out = QString::fromLocal8Bit(argv[1]);
  const QString shared =
      argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral(MRNN_SHARED_DIR);
  QDir().mkpath(out);
  QTemporaryDir folder;

  // The quick-mlstm template, copied, with its data pointed at the shared corpus and
  // trimmed to a short run.
  engine::Project project =
      engine::loadProject(MRNN_SOURCE_DIR "/projects/quick-mlstm/project.yaml");
  project.hasData = true;
  project.data.train =
      QDir(shared).absoluteFilePath(QStringLiteral("data/tinyshakespeare/input.txt")).toStdString();
  project.data.maxSymbols = 200000;
  project.training.batchSize = 16;
  project.training.bptt = 64;
  project.training.maxSteps = 100;
  project.training.validateEvery = 20;
  project.training.checkpointEvery = 100;
  project.training.threads = 2;
  project.training.optimizer.learningRate = 0.002;
  project.evaluation.batchSize = 16;
  const QString file = folder.filePath(QStringLiteral("project.yaml"));
  engine::saveProject(project, file.toStdString());

  widgets::ProjectDocument document;
  document.load(file);
  widgets::TrainingMonitorPanel monitor(document);
  monitor.resize(1100, 700);
  monitor.show();
  widgets::RunsPanel runs(document);
  runs.attachController(monitor.controller());
  runs.resize(1100, 700);
  QObject::connect(&runs, &widgets::RunsPanel::overlayRunsChanged, &monitor,
                   &widgets::TrainingMonitorPanel::setOverlayRuns);
  QObject::connect(&monitor, &widgets::TrainingMonitorPanel::saveRequested, &document,
                   [&document] { document.save(); });

  if (!trainOnce(monitor, QString())) return 1;
  // A second run with a higher learning rate, the first overlaid.
  engine::Project faster = document.project();
  faster.training.optimizer.learningRate = 0.004;
  document.edit(faster, QStringLiteral("Set learning rate"));
  runs.refresh();
  runs.selectRuns({1});
  spin(500);
  if (!trainOnce(monitor, out + QStringLiteral("/training_monitor_running.png"))) return 1;
  monitor.grab().save(out + QStringLiteral("/training_monitor.png"));

  runs.refresh();
  runs.selectRuns({1, 2});
  runs.show();
  spin(300);
  runs.grab().save(out + QStringLiteral("/runs_panel.png"));
  runs.diffSelected();
  spin(300);
  if (auto* dialog = runs.findChild<widgets::ConfigDiffDialog*>()) {
    dialog->grab().save(out + QStringLiteral("/config_diff.png"));
  }
  std::printf("saved the screenshots in %s\n", qPrintable(out));
  return 0;
}
