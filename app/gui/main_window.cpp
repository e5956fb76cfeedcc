#include "app/gui/main_window.h"

#include <exception>

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSizePolicy>
#include <QStatusBar>

#include "engine/config/config_error.h"
#include "engine/config/project_file.h"
#include "widgets/model_summary_panel.h"

namespace mrnn::app {
namespace {

const QString kAppTitle = QStringLiteral("mRNN Workbench");
constexpr int kMaxRecent = 8;
const char* const kGeometryKey = "mainWindow/geometry";
const char* const kStateKey = "mainWindow/state";
const char* const kRecentKey = "recentProjects";
const char* const kLastDirectoryKey = "lastDirectory";

// Named explicitly rather than through QCoreApplication, so the window finds the same
// settings whoever creates it.
QSettings workbenchSettings() {
  return QSettings(QStringLiteral("mRNN Workbench"), QStringLiteral("mrnn-workbench"));
}

}  // namespace

MainWindow::MainWindow(bool useSettings, QWidget* parent)
    : QMainWindow(parent), useSettings_(useSettings) {
  setWindowTitle(kAppTitle);
  panel_ = new widgets::ModelSummaryPanel(this);
  setCentralWidget(panel_);

  // A permanent label rather than showMessage(): menu status tips would erase a message.
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("projectStatus"));
  status_->setContentsMargins(6, 0, 6, 0);
  // Long paths and error messages must not set the window's minimum width.
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  statusBar()->addWidget(status_, 1);

  resize(1100, 700);
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    recent_ = settings.value(kRecentKey).toStringList();
    lastDirectory_ = settings.value(kLastDirectoryKey).toString();
    while (recent_.size() > kMaxRecent) recent_.removeLast();
  }
  createMenus();
}

bool MainWindow::openProject(const QString& path) {
  QString error;
  try {
    const engine::Project project = engine::loadProject(QFile::encodeName(path).toStdString());
    panel_->showProject(project);
    setWindowTitle(QString::fromStdString(project.name) + QStringLiteral(" \u2014 ") + kAppTitle);
    const qint64 total = panel_->totalParameters();
    const QString count =
        total > 0 ? tr("%1 parameters")
                        .arg(QLocale(QLocale::English, QLocale::UnitedStates).toString(total))
                  : tr("parameter count needs the vocabulary size");
    status_->setText(QDir::toNativeSeparators(path) + QStringLiteral("  \u2014  ") + count);
    status_->setToolTip(status_->text());
    lastDirectory_ = QFileInfo(path).absolutePath();
    rememberRecent(QFileInfo(path).absoluteFilePath());
    return true;
  } catch (const engine::ConfigError& e) {
    error = QString::fromStdString(e.what());  // what() already names file, line and key
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  }
  panel_->showError(error);
  setWindowTitle(kAppTitle);
  status_->setText(tr("Could not load %1: %2").arg(QDir::toNativeSeparators(path), error));
  status_->setToolTip(status_->text());
  return false;
}

QString MainWindow::statusText() const {
  return status_->text();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open\u2026"), this, &MainWindow::chooseProject);
  open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
  open->setStatusTip(tr("Open a project file (project.yaml)"));
  recentMenu_ = file->addMenu(tr("&Recent"));
  rebuildRecentMenu();
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
  quit->setMenuRole(QAction::QuitRole);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* about = help->addAction(tr("&About mRNN Workbench"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
}

void MainWindow::chooseProject() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Project"), lastDirectory_, tr("Project files (*.yaml *.yml);;All files (*)"));
  if (!path.isEmpty()) openProject(path);
}

void MainWindow::rememberRecent(const QString& path) {
  recent_.removeAll(path);
  recent_.prepend(path);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  if (useSettings_) {
    QSettings settings = workbenchSettings();
    settings.setValue(kRecentKey, recent_);
    settings.setValue(kLastDirectoryKey, lastDirectory_);
  }
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  if (recent_.isEmpty()) {
    recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    return;
  }
  for (int i = 0; i < recent_.size(); ++i) {
    const QString path = recent_[i];
    const QString text = QStringLiteral("&%1  %2").arg(i + 1).arg(QDir::toNativeSeparators(path));
    recentMenu_->addAction(text, this, [this, path] { openProject(path); });
  }
  recentMenu_->addSeparator();
  recentMenu_->addAction(tr("Clear List"), this, [this] {
    recent_.clear();
    if (useSettings_) workbenchSettings().setValue(kRecentKey, recent_);
    rebuildRecentMenu();
  });
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About mRNN Workbench"),
      tr("<h3>mRNN Workbench %1</h3>"
         "<p>A workbench for multiplicative recurrent language models: compose a model, "
         "train it, and look inside it.</p>"
         "<p>Built with Qt %2.</p>")
          .arg(QStringLiteral(MRNN_VERSION), QString::fromLatin1(qVersion())));
}

}  // namespace mrnn::app
