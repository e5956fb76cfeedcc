#pragma once

#include <string>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// A project file (project.yaml): a name, a description and the model section. The data,
// training and evaluation sections join it with the training engine.
struct Project {
  std::string name;
  std::string description;
  ModelConfig model;
};

// Throws ConfigError naming the file (and line and key) for a missing or unreadable file,
// YAML syntax errors and every invalid setting.
Project loadProject(const std::string& path);
Project parseProject(const std::string& text, const std::string& file = "");

std::string projectToYaml(const Project& project);
// Atomic: a temporary file, then rename. Throws std::runtime_error naming the path.
void saveProject(const Project& project, const std::string& path);

}  // namespace mrnn::engine
