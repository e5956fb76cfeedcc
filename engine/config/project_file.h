#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/config/data_config.h"
#include "engine/config/evaluation_config.h"
#include "engine/config/model_config.h"
#include "engine/config/training_config.h"

namespace mrnn::engine {

// A project file (project.yaml): a name, a description, the model and, for training, the
// data, training and evaluation sections. `folder` is where the file lives: data paths,
// checkpoints and the run database are relative to it.
// Which trial of which experiment a run trains (ExperimentLedger's key).
struct TrialOfRun {
  std::string experiment;
  int64_t index = 0;
};

struct Project {
  std::string name;
  std::string description;
  ModelConfig model;
  bool hasData = false;  // a model-only project can be described, not trained
  DataConfig data;
  TrainingConfig training;
  EvaluationConfig evaluation;
  std::string folder;
  // The name a new run of it records; empty: defaultRunName(model). Not in the file: an
  // experiment's trial names its runs after its setting.
  std::string runName;
  // The experiment's trial a new run of it is, linked to the run in the queue's ledger as the
  // run starts; unset outside a queue. Not in the file either.
  std::optional<TrialOfRun> trial;
};

// Throws ConfigError naming the file (and line and key) for a missing or unreadable file,
// YAML syntax errors and every invalid setting.
Project loadProject(const std::string& path);
// The folder a project file lives in (its runs, checkpoints and experiments): "." for a bare
// file name.
std::string projectFolderOf(const std::string& projectFile);
// `checkModelCombinations` false: see parseModelSection (the workbench's YAML view).
Project parseProject(const std::string& text, const std::string& file = "",
                     bool checkModelCombinations = true);

std::string projectToYaml(const Project& project);
// Atomic: a temporary file, then rename. Throws std::runtime_error naming the path.
void saveProject(const Project& project, const std::string& path);

}  // namespace mrnn::engine
