#pragma once

// A throwaway project for the Experiments panel's tests: a few KB of generated text, a tiny
// character-level model trained for a few dozen steps, and an experiment file of a 2x2 grid
// (cell type at a matched size x learning rate).

#include <QString>
#include <QTemporaryDir>

#include <string>

#include "engine/experiment/experiment_plan.h"

namespace mrnn::test {

class ExperimentTestProject {
 public:
  // `seeds` as the experiment file writes them ("[1]", "[1, 2]").
  explicit ExperimentTestProject(int maxSteps = 40, const std::string& seeds = "[1]");

  bool ok() const { return dir_.isValid(); }
  QString folder() const { return dir_.path(); }
  QString projectFile() const { return dir_.filePath(QStringLiteral("project.yaml")); }
  QString experimentFile() const { return dir_.filePath(QStringLiteral("experiments/grid.yaml")); }

  // Deterministic pseudo-English, something a tiny model learns in a few dozen steps.
  static std::string corpus(int symbols);
  static void writeFile(const QString& path, const std::string& text);

  // A tiny tanh RNN of `layers` layers on the 2-bit temporal order problem, as a base project
  // (nothing trains it).
  static std::string problemProject(int layers = 1);
  // `project` as project.yaml in `folder` and `experiment` as experiments/e.yaml beside it,
  // planned.
  static engine::ExperimentPlan planIn(const QString& folder, const std::string& project,
                                       const std::string& experiment);

 private:
  QTemporaryDir dir_;
};

}  // namespace mrnn::test
