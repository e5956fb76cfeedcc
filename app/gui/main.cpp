// mrnn-workbench: the Qt GUI. Opens the project named on the command line, else the
// bundled quick-mlstm example.

#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QPixmap>
#include <QTimer>

#include "app/gui/main_window.h"

namespace {

const QString kDefaultProject = QStringLiteral("quick-mlstm/project.yaml");

// The source tree's projects first (a build-tree binary), then the installed copy.
QString defaultProjectPath() {
  const QString fromSource = QStringLiteral(MRNN_SOURCE_PROJECTS_DIR "/") + kDefaultProject;
  if (QFileInfo::exists(fromSource)) return fromSource;
  const QString installed =
      QDir(QCoreApplication::applicationDirPath())
          .filePath(QStringLiteral("../share/mrnn/projects/") + kDefaultProject);
  if (QFileInfo::exists(installed)) return QDir::cleanPath(installed);
  return QString();
}

// Lets the window lay itself out and paint before it is grabbed.
void settle() {
  QEventLoop loop;
  QTimer::singleShot(300, &loop, &QEventLoop::quit);
  loop.exec();
  QCoreApplication::processEvents();
}

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
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
      QStringLiteral("Open the project, save a 1100x700 picture of the window to <file.png> "
                     "and exit."),
      QStringLiteral("file.png"));
  parser.addOption(screenshot);
  parser.process(app);

  const QStringList positional = parser.positionalArguments();
  const QString project = positional.isEmpty() ? defaultProjectPath() : positional.first();
  const bool screenshotMode = parser.isSet(screenshot);

  // Screenshots ignore (and leave alone) the user's saved geometry and recent files.
  mrnn::app::MainWindow window(!screenshotMode);
  bool loaded = false;
  if (!project.isEmpty()) loaded = window.openProject(project);

  if (screenshotMode) {
    if (!loaded) {
      std::fprintf(stderr, "mrnn-workbench: %s\n", qPrintable(window.statusText()));
    }
    window.resize(1100, 700);
    window.show();
    settle();
    const QString file = parser.value(screenshot);
    if (!window.grab().save(file, "PNG")) {
      std::fprintf(stderr, "mrnn-workbench: could not write %s\n", qPrintable(file));
      return 1;
    }
    return 0;
  }

  window.show();
  return app.exec();
}
