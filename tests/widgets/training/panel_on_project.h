#pragma once

#include <QSignalSpy>

#include "training_test_project.h"
#include "widgets/project/project_document.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::widgets::test {

// A shown monitor panel on a throw-away project of its own, with a spy on how its runs end.
struct PanelOnProject {
  explicit PanelOnProject(const TrainingTestProject::Options& options)
      : project(options),
        loaded(project.loadInto(document)),
        panel(document),
        ended(&panel, &TrainingMonitorPanel::runEnded) {
    panel.show();
  }
  // Starts a run and waits for it to end: false when it had not ended within a minute.
  bool trainToEnd() {
    panel.start();
    return ended.wait(60000);
  }
  TrainingTestProject project;
  ProjectDocument document;
  QString loaded;  // why the project did not load; empty when it did
  TrainingMonitorPanel panel;
  QSignalSpy ended;
};

}  // namespace mrnn::widgets::test
