#pragma once

#include <QMainWindow>
#include <QMap>
#include <QString>

#include "app/gui/template_catalog.h"

class QCloseEvent;
class QShowEvent;
class QDockWidget;
class QLabel;

namespace mrnn::widgets {
class ComposerPanel;
class DataPanel;
class ExperimentsPanel;
class GateInspectorPanel;
class HiddenStateTreePanel;
class MaskingPanel;
class ModelSummaryPanel;
class ProjectDocument;
class RunsPanel;
class SamplerConsole;
class SizeValidationPanel;
class SurprisalPanel;
class TrainingMonitorPanel;
class YamlView;
}  // namespace mrnn::widgets

namespace mrnn::app {

class ProjectFiles;

// The workbench's main window: the composer in the middle, every other panel in a dock
// (layout saved between launches), and the wiring between them. Panels talk to each other
// only through the ProjectDocument and the signals connected here.
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // With useSettings false nothing is read from or written to QSettings, so screenshots
  // and tests look the same on every machine and leave the user's settings alone.
  explicit MainWindow(bool useSettings = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Loads `path`; on failure the status bar and summary panel say why.
  bool openProject(const QString& path);
  // The project named at launch did not open: said in a dialog over the window (not waited on).
  void warnProjectNotOpened();
  // What the status bar says about the project (or the failed load).
  QString statusText() const;
  // Says `text` in the status bar (and keeps it for statusText()).
  void showStatus(const QString& text);
  // Raises the dock whose objectName is `name` ("training", "runs", "experiments", "sampler",
  // "data", "yaml", "summary", ...); false when there is none.
  bool raisePanel(const QString& name);
  QStringList panelNames() const { return docks_.keys(); }

  widgets::ProjectDocument& document() { return *document_; }
  widgets::ComposerPanel* composer() const { return composer_; }
  widgets::ModelSummaryPanel* summaryPanel() const { return summary_; }
  widgets::TrainingMonitorPanel* trainingMonitor() const { return monitor_; }
  widgets::RunsPanel* runsPanel() const { return runs_; }
  widgets::SamplerConsole* samplerConsole() const { return sampler_; }
  widgets::DataPanel* dataPanel() const { return data_; }
  widgets::ExperimentsPanel* experimentsPanel() const { return experiments_; }
  widgets::YamlView* yamlView() const { return yaml_; }
  widgets::GateInspectorPanel* gateInspector() const { return gates_; }
  widgets::HiddenStateTreePanel* treePanel() const { return tree_; }
  widgets::SurprisalPanel* surprisalPanel() const { return surprisal_; }
  widgets::MaskingPanel* maskingPanel() const { return masking_; }
  widgets::SizeValidationPanel* sizeValidationPanel() const { return sizes_; }
  // The dock whose objectName is `name`; nullptr when there is none.
  QDockWidget* dock(const QString& name) const { return docks_.value(name); }

  // View > Reset Layout: every panel back where it started, at the default proportions.
  void resetLayout();
  // View > Focus on Panels Below (F11): the bottom panels take the whole window (the
  // composer and the YAML/summary docks are put away); again brings the layout back.
  void toggleFocus();
  // View > Focus on Composer (Shift+F11): the panels below are put away, so the composer and
  // its YAML take the whole height (a 720-pixel screen shows the whole model); again, or
  // F11, brings the layout back.
  void toggleComposerFocus();
  bool isFocused() const { return !beforeFocus_.isEmpty(); }
  // The layout a quit saves for the next launch: a focus mode is a moment's view, so the
  // layout from before it.
  QByteArray layoutToSave() const;
  // A signal asked the workbench to quit (SIGTERM at a logout, `kill`, Ctrl-C in its
  // terminal; `name` says which): nobody can be asked. A training run stops with its
  // checkpoint first, as on Quit, and the window closes once it has ended; unsaved edits to
  // the project are kept for the next window that opens it, which offers them back.
  void quitOnSignal(const QString& name);
  // Where unsaved edits are kept against a quit that cannot ask (ProjectFiles): by default the
  // workbench's data folder when the settings are in use, else nowhere.
  void keepUnsavedEditsIn(const QString& folder);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  // A window made small and then large again gives the side docks their share back, rather
  // than leaving them the sliver they were squeezed to.
  void resizeEvent(QResizeEvent* event) override;

 private:
  void createPanels();
  void createAnalysisPanels(QDockWidget* tabbedWith);
  // After a run ends or a project opens: every view that lists runs or checkpoints re-reads.
  void refreshRunViews();
  void createMenus();
  void connectPanels();
  QDockWidget* addPanel(const QString& name, const QString& title, QWidget* panel,
                        Qt::DockWidgetArea area);
  void projectChanged();
  void updateTitle();
  void showAbout();
  // Help > Documentation, or (shortcuts) Help > Keyboard Shortcuts.
  void showHelp(bool shortcuts);
  void applyDefaultProportions();
  // Gives the panels below (true) or the composer side (false) the window, or undoes either.
  void focusOn(bool panelsBelow);

  bool useSettings_;
  TemplateCatalog catalog_;
  widgets::ProjectDocument* document_;
  ProjectFiles* files_ = nullptr;
  widgets::ComposerPanel* composer_ = nullptr;
  widgets::ModelSummaryPanel* summary_ = nullptr;
  widgets::YamlView* yaml_ = nullptr;
  widgets::DataPanel* data_ = nullptr;
  widgets::TrainingMonitorPanel* monitor_ = nullptr;
  widgets::RunsPanel* runs_ = nullptr;
  widgets::ExperimentsPanel* experiments_ = nullptr;
  widgets::SamplerConsole* sampler_ = nullptr;
  widgets::GateInspectorPanel* gates_ = nullptr;
  widgets::HiddenStateTreePanel* tree_ = nullptr;
  widgets::SurprisalPanel* surprisal_ = nullptr;
  widgets::MaskingPanel* masking_ = nullptr;
  widgets::SizeValidationPanel* sizes_ = nullptr;
  QMap<QString, QDockWidget*> docks_;
  QLabel* status_ = nullptr;
  bool restoredLayout_ = false;
  bool layoutApplied_ = false;
  bool quitting_ = false;  // a quit waits for the training run's checkpoint
  // The run stops, then the window closes when it has ended.
  void stopTrainingThenClose();
  QByteArray defaultLayout_;  // the docks as first built, for View > Reset Layout
  QByteArray beforeFocus_;    // the layout View > Focus replaced, empty when not focused
};

}  // namespace mrnn::app
