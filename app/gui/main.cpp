// mrnn-workbench: the Qt GUI. Opens the project named on the command line, else the
// user's copy of the quick-mlstm template (made on first launch).

#include <cstdio>
#include <exception>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QStandardPaths>
#include <QTimer>

#include "app/gui/experiment_figure.h"
#include "app/gui/main_window.h"
#include "app/gui/project_files.h"
#include "app/gui/quit_signals.h"
#include "app/gui/screenshot_file.h"
#include "app/gui/screenshot_showcase.h"
#include "app/gui/template_catalog.h"
#include "engine/experiment/experiment_spec.h"
#include "engine/runtime/allocation_policy.h"
#include "engine/runtime/blas_kernels.h"
#include "widgets/wheel_guard.h"

namespace {

// Lets the window lay itself out and paint before it is grabbed.
void settle() {
  QEventLoop loop;
  QTimer::singleShot(300, &loop, &QEventLoop::quit);
  loop.exec();
  QCoreApplication::processEvents();
}

}  // namespace

int main(int argc, char* argv[]) {
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  mrnn::engine::keepFreedMemoryForReuse();
  QApplication app(argc, argv);
  mrnn::widgets::WheelGuard::installOnApplication();  // the wheel scrolls forms, not fields
  QCoreApplication::setOrganizationName(QStringLiteral("mRNN Workbench"));
  QCoreApplication::setApplicationName(QStringLiteral("mrnn-workbench"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/mrnn/mrnn-workbench.svg")));
  QCoreApplication::setApplicationVersion(QStringLiteral(MRNN_VERSION));
  QApplication::setApplicationDisplayName(QStringLiteral("mRNN Workbench"));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Workbench for multiplicative recurrent language models"));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("project"),
                               QStringLiteral("Project file to open (project.yaml)."),
                               QStringLiteral("[project]"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Open the project, save a picture of the window (1280x820, or --size) "
                     "to <file.png> (a new file, or a screenshot written before) and exit."),
      QStringLiteral("file.png"));
  parser.addOption(screenshot);
  const QCommandLineOption size(
      QStringLiteral("size"), QStringLiteral("The window's size for --screenshot, e.g. 1280x720."),
      QStringLiteral("WxH"), QStringLiteral("1280x820"));
  parser.addOption(size);
  const QCommandLineOption panel(
      QStringLiteral("panel"),
      QStringLiteral("Bring the named panel to the front (training, runs, experiments, sampler, "
                     "data, yaml, summary, gates, tree, surprisal, masking, sizes)."),
      QStringLiteral("name"));
  parser.addOption(panel);
  const QCommandLineOption view(
      QStringLiteral("view"),
      QStringLiteral("With --screenshot, one state of a panel: seeds (the monitor's seeds as "
                     "groups), brushed (a range brushed on the gates' map), difference (the "
                     "surprisal's A - B colours), compare (two runs' settings side by side)."),
      QStringLiteral("name"));
  parser.addOption(view);
  const QCommandLineOption figure(
      QStringLiteral("figure"),
      QStringLiteral("With --experiment: save the Experiments panel's figure of that experiment "
                     "(PNG, SVG or PDF by the suffix) and exit."),
      QStringLiteral("file"));
  parser.addOption(figure);
  const QCommandLineOption experiment(
      QStringLiteral("experiment"),
      QStringLiteral("The experiment file for --figure; its base project is opened."),
      QStringLiteral("experiment.yaml"));
  parser.addOption(experiment);
  const QCommandLineOption metric(
      QStringLiteral("metric"),
      QStringLiteral("With --figure, the metric shown (test_bpc, test_perplexity, ...)."),
      QStringLiteral("name"));
  parser.addOption(metric);
  const QCommandLineOption figureAxis(
      QStringLiteral("axis"),
      QStringLiteral("With --figure, the axis the metric is drawn against (its key path)."),
      QStringLiteral("key"));
  parser.addOption(figureAxis);
  parser.process(app);
  if (parser.isSet(figure) != parser.isSet(experiment)) {
    std::fprintf(stderr, "mrnn-workbench: --figure and --experiment go together\n");
    return 2;
  }

  const QStringList positional = parser.positionalArguments();
  const QString userProjects =
      QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
          .filePath(QStringLiteral("projects"));
  const bool figureMode = parser.isSet(figure);
  const bool screenshotMode = parser.isSet(screenshot) || figureMode;
  // The project on the command line, else the last one opened (as an editor reopens its last
  // folder), else the default project; a screenshot never reads the user's settings.
  QString project =
      mrnn::app::ProjectFiles::projectAtLaunch(positional, QString(), !screenshotMode);
  if (figureMode) {
    try {
      project = QString::fromStdString(
          mrnn::engine::loadExperiment(parser.value(experiment).toStdString()).baseFile);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "mrnn-workbench: %s\n", error.what());
      return 1;
    }
  }
  if (project.isEmpty()) {
    project = mrnn::app::TemplateCatalog::standard().defaultProject(userProjects);
  }

  // Screenshots ignore (and leave alone) the user's saved geometry and recent files.
  mrnn::app::MainWindow window(!screenshotMode);
  bool loaded = false;
  if (!project.isEmpty()) loaded = window.openProject(project);
  // A last project that no longer opens (damaged since): the default one, the reason said.
  if (!loaded && positional.isEmpty() && !screenshotMode) {
    const QString why = window.statusText();
    loaded =
        window.openProject(mrnn::app::TemplateCatalog::standard().defaultProject(userProjects));
    if (loaded) window.showStatus(QObject::tr("Could not reopen %1").arg(why));
  }
  QString panelName = parser.value(panel);
  if (parser.isSet(view)) {
    if (!mrnn::app::showcaseViews().contains(parser.value(view))) {
      std::fprintf(stderr, "mrnn-workbench: no view named %s (views: %s)\n",
                   qPrintable(parser.value(view)),
                   qPrintable(mrnn::app::showcaseViews().join(", ")));
      return 2;
    }
    if (panelName.isEmpty()) panelName = mrnn::app::showcaseViewPanel(parser.value(view));
  }
  if (!panelName.isEmpty() && !window.raisePanel(panelName)) {
    std::fprintf(stderr, "mrnn-workbench: no panel named %s (panels: %s)\n", qPrintable(panelName),
                 qPrintable(window.panelNames().join(", ")));
    return 2;
  }

  if (figureMode) {
    if (!loaded) {
      std::fprintf(stderr, "mrnn-workbench: %s\n", qPrintable(window.statusText()));
      return 1;
    }
    window.resize(1280, 820);
    window.show();
    settle();
    return mrnn::app::saveExperimentFigure(window, parser.value(experiment), parser.value(metric),
                                           parser.value(figureAxis), parser.value(figure));
  }
  if (screenshotMode) {
    if (!loaded) {
      std::fprintf(stderr, "mrnn-workbench: %s\n", qPrintable(window.statusText()));
    }
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    const int width = wh.size() == 2 ? wh[0].toInt() : 0;
    const int height = wh.size() == 2 ? wh[1].toInt() : 0;
    if (width < 320 || height < 240) {
      std::fprintf(stderr, "mrnn-workbench: --size expects WxH (at least 320x240), not %s\n",
                   qPrintable(parser.value(size)));
      return 2;
    }
    window.resize(width, height);
    window.show();
    QWidget* pictured = &window;
    if (loaded) pictured = mrnn::app::prepareShowcase(window, panelName, parser.value(view));
    settle();
    const QString refused =
        mrnn::app::writeScreenshot(pictured->grab().toImage(), parser.value(screenshot));
    if (!refused.isEmpty()) {
      std::fprintf(stderr, "mrnn-workbench: %s\n", qPrintable(refused));
      return 1;
    }
    return 0;
  }

  // A logout's SIGTERM (or Ctrl-C in the terminal) stops a training run with its checkpoint
  // before the window goes, as Quit does.
  mrnn::app::QuitSignals quitSignals;
  QObject::connect(&quitSignals, &mrnn::app::QuitSignals::requested, &window,
                   &mrnn::app::MainWindow::quitOnSignal);
  window.show();
  if (!loaded && !positional.isEmpty()) window.warnProjectNotOpened();
  return app.exec();
}
