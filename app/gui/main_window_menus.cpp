// The main window's menus and toolbar: a file of its own so the window's layout and wiring
// (main_window.cpp) stay readable.

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QUndoStack>
#include <tuple>

#include "app/gui/help_dialog.h"
#include "app/gui/main_window.h"
#include "app/gui/project_files.h"
#include "widgets/project/project_document.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::app {

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* newAction =
      file->addAction(tr("&New from Template\u2026"), files_, &ProjectFiles::newFromTemplate);
  newAction->setShortcut(QKeySequence::New);
  newAction->setStatusTip(tr("Start a project from one of the bundled templates"));
  QAction* open = file->addAction(tr("&Open\u2026"), files_, &ProjectFiles::chooseAndOpen);
  open->setShortcut(QKeySequence::Open);
  open->setStatusTip(tr("Open a project file (project.yaml)"));
  files_->attachRecentMenu(file->addMenu(tr("Open &Recent")));
  file->addSeparator();
  QAction* save = file->addAction(tr("&Save"), files_, &ProjectFiles::save);
  save->setShortcut(QKeySequence::Save);
  QAction* saveAs = file->addAction(tr("Save &As\u2026"), files_, &ProjectFiles::saveAs);
  saveAs->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = document_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = document_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* training = menuBar()->addMenu(tr("&Training"));
  QToolBar* toolbar = addToolBar(tr("Training"));
  toolbar->setObjectName(QStringLiteral("trainingToolbar"));
  toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  for (QAction* action : {monitor_->startAction(), monitor_->pauseAction(),
                          monitor_->resumeAction(), monitor_->stopAction()}) {
    training->addAction(action);
    toolbar->addAction(action);
  }
  training->addSeparator();
  // The settings form beside the charts: length, batch, schedule, optimiser and its rate.
  QAction* settings = monitor_->optimizerAction();
  settings->setText(tr("Training &Settings"));
  training->addAction(settings);
  connect(settings, &QAction::toggled, this, [this](bool on) {
    if (on) raisePanel(QStringLiteral("training"));
  });
  QAction* experiments = training->addAction(tr("&Experiments"), this,
                                             [this] { raisePanel(QStringLiteral("experiments")); });
  experiments->setObjectName(QStringLiteral("experimentsAction"));
  experiments->setStatusTip(
      tr("Vary the project along axes, run the trials as a queue, compare the results"));

  // Models and tables in and out of the project: the runs panel's own actions, on the run
  // selected there (an imported run brings the panel forward, connectPanels()).
  QMenu* runs = menuBar()->addMenu(tr("&Runs"));
  runs->setObjectName(QStringLiteral("runsMenu"));
  runs->setToolTipsVisible(true);  // Export Model's tooltip says why it is off
  runs->addAction(runs_->importModelAction());
  runs->addAction(runs_->exportModelAction());
  runs->addSeparator();
  runs->addAction(runs_->exportAction());

  // The analysis views, each a dock of its own; the menu brings one forward.
  QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
  for (const auto& [name, title, shortcut] :
       {std::tuple<QString, QString, QString>{QStringLiteral("gates"), tr("&Gate Inspector"),
                                              QStringLiteral("Ctrl+1")},
        {QStringLiteral("tree"), tr("Hidden-State &Tree"), QStringLiteral("Ctrl+2")},
        {QStringLiteral("surprisal"), tr("&Surprisal and Recovery"), QStringLiteral("Ctrl+3")},
        {QStringLiteral("masking"), tr("Feature &Masking"), QStringLiteral("Ctrl+4")},
        {QStringLiteral("sizes"), tr("Size versus &Validation"), QStringLiteral("Ctrl+5")}}) {
    QAction* action = analysis->addAction(title, this, [this, name = name] { raisePanel(name); });
    action->setShortcut(QKeySequence(shortcut));
  }

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* focus = view->addAction(tr("&Focus on Panels Below"), this, &MainWindow::toggleFocus);
  focus->setObjectName(QStringLiteral("focusAction"));
  focus->setShortcut(QKeySequence(Qt::Key_F11));
  focus->setToolTip(
      tr("Give the training, runs and analysis panels the whole window (F11 "
         "again to come back)"));
  QAction* composerFocus =
      view->addAction(tr("Focus on &Composer"), this, &MainWindow::toggleComposerFocus);
  composerFocus->setObjectName(QStringLiteral("composerFocusAction"));
  composerFocus->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F11));
  composerFocus->setToolTip(
      tr("Give the composer and its YAML the whole height (Shift+F11 again to come back)"));
  QAction* reset = view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  reset->setObjectName(QStringLiteral("resetLayoutAction"));
  view->addSeparator();
  for (QDockWidget* dock : docks_) view->addAction(dock->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* documentation = help->addAction(tr("&Documentation"), this, [this] { showHelp(false); });
  documentation->setShortcut(QKeySequence::HelpContents);
  documentation->setObjectName(QStringLiteral("documentationAction"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showHelp(true); });
  keys->setObjectName(QStringLiteral("shortcutsAction"));
  help->addSeparator();
  QAction* about = help->addAction(tr("&About mRNN Workbench"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
}

void MainWindow::showHelp(bool shortcuts) {
  auto* dialog = new HelpDialog(HelpDialog::standardDocsFolder(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setShortcuts(HelpDialog::shortcutsOf(this));
  if (shortcuts) dialog->showPage(dialog->pageCount() - 1);
  dialog->show();
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
