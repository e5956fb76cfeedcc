#pragma once

#include <QMainWindow>
#include <QString>
#include <QStringList>

class QCloseEvent;
class QLabel;
class QMenu;

namespace mrnn::widgets {
class ModelSummaryPanel;
}

namespace mrnn::app {

// The workbench's main window: opens project files and shows their model summary.
// Recent files and the window geometry live in QSettings ("mRNN Workbench",
// "mrnn-workbench").
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // With useSettings false nothing is read from or written to QSettings, so screenshots
  // and tests look the same on every machine and leave the user's settings alone.
  explicit MainWindow(bool useSettings = true, QWidget* parent = nullptr);

  // Loads and shows `path`; on failure the panel and the status bar say why.
  bool openProject(const QString& path);
  widgets::ModelSummaryPanel* summaryPanel() const { return panel_; }
  // What the status bar says about the loaded project (or the failed load).
  QString statusText() const;

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createMenus();
  void chooseProject();
  void rememberRecent(const QString& path);
  void rebuildRecentMenu();
  void showAbout();

  bool useSettings_;
  widgets::ModelSummaryPanel* panel_ = nullptr;
  QLabel* status_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QStringList recent_;
  QString lastDirectory_;
};

}  // namespace mrnn::app
